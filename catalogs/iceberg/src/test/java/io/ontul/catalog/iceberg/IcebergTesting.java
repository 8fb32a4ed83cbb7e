package io.ontul.catalog.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.InMemoryConnectorStore;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * Helpers for tests of the Iceberg connector, public so other modules' end-to-end tests can use
 * them: a connector over a local warehouse, reading a table through the SPI, and reading one
 * through Iceberg's own Java API, both as rows of plain values (integers as Long, decimals as
 * BigDecimal, dates LocalDate, timestamps LocalDateTime, times LocalTime, text String).
 */
public final class IcebergTesting
{
    private IcebergTesting() {}

    public static ConnectorContext context(BufferAllocator allocator, Optional<Path> dataDirectory)
    {
        ConnectorStore store = new InMemoryConnectorStore();
        return new ConnectorContext()
        {
            @Override
            public BufferAllocator allocator()
            {
                return allocator;
            }

            @Override
            public int parallelism()
            {
                return 2;
            }

            @Override
            public Optional<Path> dataDirectory()
            {
                return dataDirectory;
            }

            @Override
            public ConnectorStore store()
            {
                return store;
            }
        };
    }

    public static Connector hadoopConnector(String catalogName, Path warehouse, BufferAllocator allocator)
    {
        return new IcebergConnectorFactory().create(catalogName, Map.of(IcebergConfig.WAREHOUSE, warehouse.toString()), context(allocator, Optional.empty()));
    }

    public static HadoopCatalog hadoopCatalog(Path warehouse)
    {
        HadoopCatalog catalog = new HadoopCatalog();
        catalog.setConf(IcebergCatalogSupplier.hadoopConfiguration(Map.of()));
        catalog.initialize("test", Map.of("warehouse", warehouse.toString()));
        return catalog;
    }

    /** Every row of every split of a scan, read through the connector. */
    public static List<List<Object>> read(Connector connector, TableHandle table, ScanSpec scan, BufferAllocator allocator)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (Split split : connector.splits(table, scan, 4)) {
            rows.addAll(read(connector, split, scan, allocator));
        }
        return rows;
    }

    public static List<List<Object>> read(Connector connector, Split split, ScanSpec scan, BufferAllocator allocator)
    {
        List<List<Object>> rows = new ArrayList<>();
        try (BatchSource source = connector.createSource(split, scan, allocator)) {
            VectorSchemaRoot batch;
            while ((batch = source.next()) != null) {
                try (VectorSchemaRoot closing = batch) {
                    rows.addAll(rows(closing));
                }
            }
        }
        return rows;
    }

    public static List<List<Object>> rows(VectorSchemaRoot batch)
    {
        List<List<Object>> rows = new ArrayList<>();
        List<FieldVector> vectors = batch.getFieldVectors();
        for (int row = 0; row < batch.getRowCount(); row++) {
            Object[] values = new Object[vectors.size()];
            for (int column = 0; column < values.length; column++) {
                values[column] = value(vectors.get(column), row);
            }
            rows.add(Collections.unmodifiableList(Arrays.asList(values)));
        }
        return rows;
    }

    /** The rows of the table's current snapshot as Iceberg's generic reader returns them. */
    /** A cell as a plain value; a list as a List of its elements' plain values. */
    private static Object value(FieldVector vector, int row)
    {
        if (vector.isNull(row)) {
            return null;
        }
        if (vector instanceof TimeMilliVector times) {
            return LocalTime.ofNanoOfDay(times.get(row) * 1_000_000L);
        }
        if (vector instanceof ListVector list) {
            List<Object> elements = new ArrayList<>();
            for (int index = list.getElementStartIndex(row); index < list.getElementEndIndex(row); index++) {
                elements.add(value(list.getDataVector(), index));
            }
            return Collections.unmodifiableList(elements);
        }
        return plain(ResultRows.value(vector, row));
    }

    public static List<List<Object>> icebergRows(Table table, List<String> columns)
    {
        table.refresh();
        List<List<Object>> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).select(columns.toArray(String[]::new)).build()) {
            for (Record record : records) {
                Object[] values = new Object[columns.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = plain(record.getField(columns.get(i)));
                }
                rows.add(Collections.unmodifiableList(Arrays.asList(values)));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /** An Iceberg generic value as the plain value the connector's rows hold (bytes as a ByteBuffer). */
    public static Object plain(Object value)
    {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float floatValue) {
            return floatValue.doubleValue();
        }
        if (value instanceof CharSequence text) {
            return text.toString();
        }
        if (value instanceof OffsetDateTime timestamp) {
            // timestamptz: the instant, as TIMESTAMP WITH TIME ZONE reads
            return timestamp.toInstant();
        }
        if (value instanceof UUID uuid) {
            return uuid.toString();
        }
        if (value instanceof List<?> list) {
            // a list's elements as the connector's rows hold them (NULL elements kept)
            List<Object> elements = new ArrayList<>();
            list.forEach(element -> elements.add(plain(element)));
            return Collections.unmodifiableList(elements);
        }
        if (value instanceof byte[] bytes) {
            // compared by content (binary and fixed come as ByteBuffer and byte[])
            return java.nio.ByteBuffer.wrap(bytes);
        }
        return value;
    }

    /** The data files (*.parquet) under a table's location. */
    public static List<Path> dataFiles(Path tableLocation)
    {
        if (!Files.exists(tableLocation)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(tableLocation)) {
            return files.filter(path -> path.toString().endsWith(".parquet")).sorted().toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A local path for an Iceberg location such as {@code file:/tmp/x} or {@code /tmp/x}. */
    public static Path localPath(String location)
    {
        return Path.of(location.startsWith("file:") ? location.replaceFirst("^file:(//)?", "") : location);
    }
}
