package io.ontul.spi.cluster;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The output of a fragment running on another node, as it arrives (over Arrow Flight, between
 * processes). The transport gives it back-pressure: a stream not read holds its producer back.
 */
public interface RemoteStream
        extends AutoCloseable
{
    /**
     * The next batch, its buffers moved into {@code allocator} (the reading query's), or null at
     * the end.
     *
     * @throws io.ontul.spi.OntulException the producer's failure, or EXTERNAL_ERROR naming the
     *         node when it cannot be reached
     */
    VectorSchemaRoot next(BufferAllocator allocator);

    /**
     * Stops the producer now, from any thread: a reader blocked in {@link #next} then fails.
     * How a cancelled query stops its fragments on the workers while it waits for their rows.
     */
    void cancel();

    /**
     * Bytes the producer itself received from other nodes for its part (a worker's fragment
     * reading its peers' shares), as it reported them at its end; 0 before the end.
     */
    default long producerExchangedBytes()
    {
        return 0;
    }

    /** Stops the producer if it has not ended, and releases the stream. */
    @Override
    void close();
}
