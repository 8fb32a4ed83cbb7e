package io.ontul.exchange.arrow;

import java.io.IOException;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes batches of one schema to a byte stream, in an encoding its {@link BatchStreamReader}
 * reads back. Protocol: any number of {@link #write} calls, then {@link #finish} once. A write
 * serializes the batch's values and keeps no reference to it: the caller keeps and closes its
 * batch. Closing the underlying stream is the caller's. Not thread-safe.
 */
public interface BatchStreamWriter
{
    /** Appends the rows of {@code batch}, which must have the writer's schema. */
    void write(VectorSchemaRoot batch)
            throws IOException;

    /** Writes the end-of-stream marker; the underlying stream stays open. */
    void finish()
            throws IOException;
}
