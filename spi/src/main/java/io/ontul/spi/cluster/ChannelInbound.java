package io.ontul.spi.cluster;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The receiving end of one channel of a streaming job's shuffle, as the transport delivers it: a
 * reader not calling {@link #next} holds the sender back.
 */
public interface ChannelInbound
{
    /** Waits for the next message; false when the sender completed the channel. */
    boolean next();

    /** The tag of the current message. */
    byte[] metadata();

    /** The rows of the current message, their buffers moved into {@code allocator}; null when it had none. */
    VectorSchemaRoot batch(BufferAllocator allocator);

    /** Ends the channel from any thread (its receiving task's attempt ended): a reader waiting in {@link #next} fails. */
    void cancel();
}
