package io.ontul.spi.cluster;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The sending end of one channel of a streaming job's shuffle to a task on another node: batches
 * and metadata-only messages (each with the engine's own tag), delivered in the order sent. A
 * send waits while the receiver has no room (the transport's flow control): that is the
 * channel's back-pressure. One thread sends on a channel.
 */
public interface ChannelSender
        extends AutoCloseable
{
    /**
     * Sends the rows of {@code batch} (the caller keeps it) with {@code metadata}; returns the
     * nanoseconds waited for room.
     *
     * @throws io.ontul.spi.OntulException WORKER_LOST naming the node when it cannot be reached
     */
    long send(VectorSchemaRoot batch, byte[] metadata)
            throws InterruptedException;

    /** Sends {@code metadata} alone; returns the nanoseconds waited for room. */
    long sendMetadata(byte[] metadata)
            throws InterruptedException;

    /** Ends the channel once what was sent is delivered. */
    void complete();

    /** Ends the channel now, dropping what is not delivered; no-op once ended. */
    @Override
    void close();
}
