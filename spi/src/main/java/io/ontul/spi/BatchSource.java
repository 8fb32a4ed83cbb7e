package io.ontul.spi;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Reads one split as a sequence of Arrow batches. Single-threaded: one thread calls
 * {@link #next()} until it returns null, then {@link #close()}. The engine may call close early
 * (LIMIT, cancel, failure); close must then release everything.
 */
public interface BatchSource
        extends AutoCloseable
{
    /**
     * The next batch, or null at the end. The caller owns the returned root and closes it.
     * A batch should hold a few thousand to 64K rows.
     */
    VectorSchemaRoot next();

    @Override
    void close();
}
