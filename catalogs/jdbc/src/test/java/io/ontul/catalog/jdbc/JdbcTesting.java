package io.ontul.catalog.jdbc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * Shared steps of the connector's tests: a connector on the test server, reading a table through
 * the SPI, and an engine with a {@code pg} catalog.
 */
final class JdbcTesting
{
    static final String CATALOG = "pg";

    private JdbcTesting() {}

    /** The catalog properties of the test server without connector.name, changed by {@code changes}. */
    static Map<String, String> connectorProperties(TestingPostgres postgres, Consumer<Map<String, String>> changes)
    {
        Map<String, String> properties = new HashMap<>(postgres.catalogProperties());
        properties.remove("connector.name");
        changes.accept(properties);
        return properties;
    }

    static Connector createConnector(TestingPostgres postgres, BufferAllocator allocator)
    {
        return createConnector(connectorProperties(postgres, properties -> { }), allocator);
    }

    static Connector createConnector(Map<String, String> properties, BufferAllocator allocator)
    {
        return new JdbcConnectorFactory().create(CATALOG, properties, new TestingConnectorContext(allocator));
    }

    static Engine createEngine(TestingPostgres postgres)
    {
        return createEngine(postgres.catalogProperties());
    }

    static Engine createEngine(Map<String, String> catalogProperties)
    {
        return Engine.create(new EngineConfig(Map.of(), Map.of(CATALOG, catalogProperties)));
    }

    /** The rows of a statement as {@link ResultRows#drain(QueryResult)} gives them, with ARRAYs as Lists ({@link #value}). */
    static List<List<Object>> execute(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            List<List<Object>> rows = new ArrayList<>();
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                rows.addAll(rows(batch));
            }
            return rows;
        }
    }

    /** Reads every split of a scan through the SPI, as rows of plain values. */
    static List<List<Object>> read(Connector connector, TableHandle table, ScanSpec scan, int desiredSplits, BufferAllocator allocator)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (Split split : connector.splits(table, scan, desiredSplits)) {
            rows.addAll(read(connector, split, scan, allocator));
        }
        return rows;
    }

    static List<List<Object>> read(Connector connector, Split split, ScanSpec scan, BufferAllocator allocator)
    {
        List<List<Object>> rows = new ArrayList<>();
        try (BatchSource source = connector.createSource(split, scan, allocator)) {
            VectorSchemaRoot batch;
            while ((batch = source.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    rows.addAll(rows(owned));
                }
            }
        }
        return rows;
    }

    private static List<List<Object>> rows(VectorSchemaRoot batch)
    {
        List<List<Object>> rows = new ArrayList<>();
        List<FieldVector> vectors = batch.getFieldVectors();
        for (int row = 0; row < batch.getRowCount(); row++) {
            Object[] values = new Object[vectors.size()];
            for (int column = 0; column < values.length; column++) {
                values[column] = value(vectors.get(column), row);
            }
            rows.add(Arrays.asList(values));
        }
        return rows;
    }

    /** {@link ResultRows#value}, with an ARRAY as a List of such values. */
    static Object value(FieldVector vector, int row)
    {
        if (vector instanceof ListVector list && !list.isNull(row)) {
            List<Object> elements = new ArrayList<>();
            for (int index = list.getElementStartIndex(row); index < list.getElementEndIndex(row); index++) {
                elements.add(value(list.getDataVector(), index));
            }
            return elements;
        }
        return ResultRows.value(vector, row);
    }
}
