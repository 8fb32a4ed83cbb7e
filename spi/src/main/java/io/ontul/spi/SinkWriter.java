package io.ontul.spi;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One process's part of a write that another process commits: a worker of a cluster writing its
 * share of an INSERT or CREATE TABLE AS whose {@link BatchSink} lives on the coordinator (see
 * {@link BatchSink#remoteWriterHandle()}). {@link #append} any number of times, then exactly one
 * of {@link #finish()} or {@link #abort()}. Nothing it writes is visible until the coordinator's
 * sink commits.
 */
public interface SinkWriter
{
    /** Appends rows with the table's columns in order; the caller keeps ownership of the batch. */
    void append(VectorSchemaRoot batch);

    /**
     * Completes what was written (closes the data files) and describes it for the coordinator's
     * {@link BatchSink#addRemoteWrite}; never null.
     */
    byte[] finish();

    /** Discards what was written (deletes its files); never throws. */
    void abort();
}
