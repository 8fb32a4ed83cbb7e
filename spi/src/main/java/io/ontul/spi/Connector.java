package io.ontul.spi;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;

/**
 * One catalog. The engine calls {@link #metadata()} while planning, {@link #splits} once per
 * scan when a query starts, then {@link #createSource} once per split, possibly from several
 * threads at once. Writes go through {@link #createSink}. {@link #close()} is called once when
 * the engine shuts down or the catalog is dropped.
 */
public interface Connector
        extends AutoCloseable
{
    ConnectorMetadata metadata();

    /**
     * Splits of a table scan. Each split is read by one {@link BatchSource}; splits are
     * independent and may be read in parallel.
     *
     * @param desiredSplits a hint: the engine's parallelism times a small factor
     */
    List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits);

    /**
     * Reads one split. Batches hold exactly the columns of {@code scan.columns()}, in that order,
     * with the types of the table's schema. Vectors are allocated from {@code allocator}, which
     * belongs to the query.
     */
    BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator);

    /**
     * Opens a writer for one INSERT or CREATE TABLE AS statement into {@code table}. Rows become
     * visible only when {@link BatchSink#commit()} returns.
     *
     * @throws OntulException NOT_SUPPORTED if the catalog is read-only
     */
    default BatchSink createSink(TableHandle table)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support writes to table %s", table.qualifiedName());
    }

    @Override
    default void close() {}
}
