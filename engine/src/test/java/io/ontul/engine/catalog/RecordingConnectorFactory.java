package io.ontul.engine.catalog;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * A test connector ({@code connector.name=recording}) with one table {@code default.numbers}:
 * columns {@code n} and {@code twice} holding 1..10 and 2..20, and a hidden column {@code _row}
 * holding 0..9. It records every {@link ScanSpec} it is given, so tests see what the engine
 * pushed down. Property {@code row_count} sets how many rows there are; with {@code aggregation =
 * true} it accepts every aggregation the engine offers ({@link Connector#supportsAggregation}) and
 * computes it over the rows that pass the scan's filters.
 */
public final class RecordingConnectorFactory
        implements ConnectorFactory
{
    public static final List<ScanSpec> SCANS = new CopyOnWriteArrayList<>();
    /** Rows INSERTed into the table, as text {@code n,twice,_row}, in the order they came. */
    public static final List<String> WRITTEN = new CopyOnWriteArrayList<>();
    /** The scans the engine offered an aggregation of, whatever the answer. */
    public static final List<ScanSpec> AGGREGATIONS_OFFERED = new CopyOnWriteArrayList<>();

    private static final Schema SCHEMA = new Schema(List.of(
            Field.nullable("n", new ArrowType.Int(64, true)),
            Field.nullable("twice", new ArrowType.Int(64, true)),
            new Field("_row", new FieldType(true, new ArrowType.Int(64, true), null, Map.of(TableHandle.HIDDEN_COLUMN, "true")), null)));

    @Override
    public String name()
    {
        return "recording";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        for (String key : config.keySet()) {
            // password: accepted and ignored, for tests of how catalog secrets are stored
            if (!key.equals("row_count") && !key.equals("aggregation") && !key.equals("password")) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown property '%s'", catalogName, key);
            }
        }
        int rows = Integer.parseInt(config.getOrDefault("row_count", "10"));
        boolean aggregation = Boolean.parseBoolean(config.getOrDefault("aggregation", "false"));
        return new Connector()
        {
            @Override
            public ConnectorMetadata metadata()
            {
                return new ConnectorMetadata()
                {
                    @Override
                    public List<String> listSchemas()
                    {
                        return List.of("default");
                    }

                    @Override
                    public List<String> listTables(String schema)
                    {
                        return schema.equals("default") ? List.of("numbers") : List.of();
                    }

                    @Override
                    public Optional<TableHandle> getTable(String schema, String table)
                    {
                        return schema.equals("default") && table.equals("numbers")
                                ? Optional.of(new TableHandle(catalogName, schema, table, SCHEMA, new TableStatistics(rows), "numbers"))
                                : Optional.empty();
                    }
                };
            }

            @Override
            public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
            {
                SCANS.add(scan);
                return List.of(new Split() {});
            }

            @Override
            public boolean supportsAggregation(TableHandle table, ScanSpec scan)
            {
                AGGREGATIONS_OFFERED.add(scan);
                return aggregation;
            }

            @Override
            public BatchSink createSink(TableHandle table)
            {
                List<String> pending = new CopyOnWriteArrayList<>();
                return new BatchSink()
                {
                    @Override
                    public void append(VectorSchemaRoot batch)
                    {
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            List<String> values = new java.util.ArrayList<>();
                            for (FieldVector vector : batch.getFieldVectors()) {
                                values.add(String.valueOf(vector.getObject(row)));
                            }
                            pending.add(String.join(",", values));
                        }
                    }

                    @Override
                    public long commit()
                    {
                        WRITTEN.addAll(pending);
                        return pending.size();
                    }

                    @Override
                    public void abort()
                    {
                        pending.clear();
                    }
                };
            }

            @Override
            public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
            {
                return new BatchSource()
                {
                    private boolean done;

                    @Override
                    public VectorSchemaRoot next()
                    {
                        if (done) {
                            return null;
                        }
                        done = true;
                        if (scan.aggregation().isPresent()) {
                            return RecordingAggregation.compute(SCHEMA, rows, scan, allocator);
                        }
                        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(scan.columns().stream().map(name -> SCHEMA.findField(name)).toList()), allocator);
                        for (FieldVector vector : root.getFieldVectors()) {
                            BigIntVector numbers = (BigIntVector) vector;
                            numbers.allocateNew(rows);
                            for (int row = 0; row < rows; row++) {
                                long value = switch (vector.getName()) {
                                    case "n" -> row + 1;
                                    case "twice" -> 2L * (row + 1);
                                    default -> row;
                                };
                                numbers.set(row, value);
                            }
                        }
                        root.setRowCount(rows);
                        return root;
                    }

                    @Override
                    public void close() {}
                };
            }
        };
    }
}
