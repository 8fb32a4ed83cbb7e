package io.ontul.spi;

import java.util.Optional;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes the rows of one statement into one table. {@link #append} may be called from several
 * threads at once; then exactly one of {@link #commit()} or {@link #abort()} is called. Rows
 * become visible to queries atomically in commit; abort leaves the table as it was.
 * <p>
 * In a cluster, a sink may take rows written by other processes too: it hands out a
 * {@link #remoteWriterHandle()}, with which each worker opens a {@link SinkWriter}
 * ({@link Connector#openSinkWriter}); what each writer finished comes back through
 * {@link #addRemoteWrite}, and {@link #commit()} makes the rows of all of them visible as one.
 */
public interface BatchSink
{
    /**
     * Appends rows. The batch has the table's columns in order; the caller keeps ownership of
     * the batch and may reuse it after this returns (the sink copies or transfers what it keeps).
     */
    void append(VectorSchemaRoot batch);

    /**
     * What a worker needs to write rows for this sink's commit ({@link Connector#openSinkWriter}),
     * or empty when rows can come only through {@link #append} (the default). A sink that handed
     * one out deletes in {@link #abort()} whatever the remote writers left, also the files of a
     * writer that died before it finished.
     */
    default Optional<byte[]> remoteWriterHandle()
    {
        return Optional.empty();
    }

    /** Takes what a remote writer finished ({@link SinkWriter#finish()}): visible with the next commit, deleted by abort. */
    default void addRemoteWrite(byte[] written)
    {
        throw new UnsupportedOperationException("this sink has no remote writers");
    }

    /** Makes all appended rows, and those of the remote writes added, visible. Returns the number of rows written. */
    long commit();

    /** Discards all appended rows and releases their memory. */
    void abort();
}
