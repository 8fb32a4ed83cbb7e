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

    /**
     * Asks a {@link #next()} that may be blocked in an outside system (a database statement, a
     * Kafka poll) to give up soon, because the query was cancelled or killed. The one method
     * called from another thread, possibly while {@code next} runs, and possibly more than once;
     * {@code next} may then fail. The reading thread still calls {@link #close()}.
     */
    default void cancel() {}

    @Override
    void close();
}
