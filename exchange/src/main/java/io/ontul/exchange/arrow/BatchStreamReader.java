package io.ontul.exchange.arrow;

import java.io.IOException;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Reads back what a {@link BatchStreamWriter} of the same encoding wrote, batch by batch. Each
 * batch {@link #next} returns is a new {@link VectorSchemaRoot} allocated from the reader's
 * allocator and owned by the caller. Closing the reader closes the underlying stream. Not
 * thread-safe.
 */
public interface BatchStreamReader
        extends AutoCloseable
{
    /** The next batch, or null at the end of the stream. */
    VectorSchemaRoot next()
            throws IOException;

    @Override
    void close()
            throws IOException;
}
