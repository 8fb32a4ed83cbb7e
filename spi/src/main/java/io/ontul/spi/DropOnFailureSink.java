package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The sink of {@link Connector#createTableAs} for catalogs that cannot create a table and its rows
 * in one step: the table was created empty before the first row, and is dropped again when the
 * write aborts or its commit fails.
 */
final class DropOnFailureSink
        implements BatchSink
{
    private final ConnectorMetadata metadata;
    private final TableHandle table;
    private final BatchSink sink;
    private boolean dropped;

    DropOnFailureSink(ConnectorMetadata metadata, TableHandle table, BatchSink sink)
    {
        this.metadata = requireNonNull(metadata, "metadata is null");
        this.table = requireNonNull(table, "table is null");
        this.sink = requireNonNull(sink, "sink is null");
    }

    /** Opens the sink of a table just created; if that fails, the table is dropped again. */
    static BatchSink open(Connector connector, TableHandle created)
    {
        try {
            TableHandle current = connector.metadata().getTable(created.schema(), created.table()).orElse(created);
            return new DropOnFailureSink(connector.metadata(), created, connector.createSink(current));
        }
        catch (RuntimeException e) {
            drop(connector.metadata(), created, e);
            throw e;
        }
    }

    @Override
    public void append(VectorSchemaRoot batch)
    {
        sink.append(batch);
    }

    @Override
    public long commit()
    {
        try {
            return sink.commit();
        }
        catch (RuntimeException e) {
            dropped = true;
            drop(metadata, table, e);
            throw e;
        }
    }

    @Override
    public void abort()
    {
        try {
            sink.abort();
        }
        finally {
            if (!dropped) {
                dropped = true;
                drop(metadata, table, null);
            }
        }
    }

    private static void drop(ConnectorMetadata metadata, TableHandle table, RuntimeException failure)
    {
        try {
            metadata.dropTable(table.schema(), table.table());
        }
        catch (RuntimeException e) {
            // the original failure is what the user needs to see
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }
}
