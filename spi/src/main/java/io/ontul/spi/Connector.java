package io.ontul.spi;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.stream.StreamSinkProvider;
import io.ontul.spi.stream.StreamSourceProvider;

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
     * Whether every node of a cluster reads the same rows of {@code table}, so that the workers
     * may share a scan: each enumerates the splits itself (the same list for the same table, scan
     * and {@code desiredSplits}, in the same order) and reads its own share of them. A table whose
     * rows change is readable on every node only at a {@link #version}, which the workers then
     * ask for. False (the default) for data that lives in one process (memory and system tables)
     * or that cannot be pinned: such scans run on the coordinator.
     */
    default boolean readableOnEveryNode(TableHandle table)
    {
        return false;
    }

    /**
     * The version of the table {@code table} reads (Iceberg: its snapshot), which another node
     * passes to {@link ConnectorMetadata#getTable(String, String, String)} to read the same rows;
     * empty when the table has no versions (its rows never change, or cannot be pinned).
     */
    default Optional<String> version(TableHandle table)
    {
        return Optional.empty();
    }

    /**
     * Whether every node of a cluster sees the same tables of this catalog, to write into: a
     * shared warehouse or database rather than one process's memory. The workers of a cluster then
     * plan an INSERT into such a table as the coordinator does, and may write their share of its
     * rows ({@link #openSinkWriter}). False by default.
     */
    default boolean sameTablesOnEveryNode()
    {
        return false;
    }

    /**
     * Whether the source can compute {@code scan.aggregation()} itself. The engine asks while
     * planning, with the whole scan (columns, filters and aggregation), and sends the aggregation
     * to {@link #splits} and {@link #createSource} only if the answer is true; otherwise it reads
     * the rows and aggregates them itself.
     * <p>
     * Answer true only if the source applies every filter of the scan exactly and computes
     * every aggregate exactly as {@link AggregateFunction} describes, for every value the table
     * may hold: the engine trusts the rows it gets. The one tolerance is the order in which
     * floating point values are added (SUM, AVG), which may change the last bits, as it does in
     * the engine between runs. For such a scan, {@link #splits} must return splits whose groups
     * do not overlap (one split, say): the engine concatenates their rows.
     */
    default boolean supportsAggregation(TableHandle table, ScanSpec scan)
    {
        return false;
    }

    /**
     * Reads one split. Batches hold exactly the columns of {@code scan.columns()}, in that order,
     * with the types of the table's schema, or, for a scan with an aggregation, the groups
     * ({@link Aggregation#outputSchema}). Vectors are allocated from {@code allocator}, which
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

    /**
     * Opens a writer whose commit replaces every row of {@code table} with the appended ones, in
     * one step that readers see whole (or not at all): how DELETE, UPDATE and MERGE write, the
     * engine computing every row the table keeps, changed or not. {@code table} is the handle
     * the statement was planned and read with; a commit that would lose rows another statement
     * committed to the table since then fails with TRANSACTION_CONFLICT instead, the table as it was.
     *
     * @throws OntulException NOT_SUPPORTED if the catalog cannot replace a table's rows
     */
    default BatchSink createOverwriteSink(TableHandle table)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support DELETE, UPDATE or MERGE on table %s", table.qualifiedName());
    }

    /**
     * Opens this process's part of a write another process commits: {@code handle} comes from
     * that process's {@link BatchSink#remoteWriterHandle()} (a worker of a cluster writing its share
     * of the coordinator's INSERT or CREATE TABLE AS). {@code writer} numbers the writers of one
     * write (distinct per process) so that their files do not collide.
     *
     * @throws OntulException NOT_SUPPORTED if the catalog has no remote writers
     */
    default SinkWriter openSinkWriter(byte[] handle, int writer)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog cannot write in several processes");
    }

    /**
     * Opens a writer for {@code CREATE TABLE ... AS SELECT} (and bulk ingest into a new table): the
     * table with these columns and properties (as in {@link ConnectorMetadata#createTable}) and
     * the appended rows. Catalogs that can should create the table in the same step that makes the
     * rows visible, in {@link BatchSink#commit()}, so that an abort, a failed commit or a crash of
     * the server before it leaves no table behind; Iceberg does, with a create-table transaction.
     * <p>
     * The default creates the empty table now and drops it again if the write aborts or its
     * commit fails; a crash in between leaves the empty table.
     *
     * @throws OntulException ALREADY_EXISTS if the table exists, NOT_SUPPORTED if the catalog is
     * read-only, INVALID_ARGUMENT for a bad property
     */
    default BatchSink createTableAs(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        TableHandle created = metadata().createTable(schema, table, columns, properties);
        return DropOnFailureSink.open(this, created);
    }

    /** Continuous reads for streaming jobs; empty when the catalog's tables cannot be streamed. */
    default Optional<StreamSourceProvider> streamSourceProvider()
    {
        return Optional.empty();
    }

    /** Exactly-once writes of streaming jobs; empty when the catalog has no two-phase sink. */
    default Optional<StreamSinkProvider> streamSinkProvider()
    {
        return Optional.empty();
    }

    @Override
    default void close() {}
}
