package io.ontul.engine.stream.shuffle;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What travels on a channel from one task to the next, in order: rows as Arrow batches, and the
 * control messages that flow with them. A barrier or watermark is never overtaken by rows sent
 * after it, nor does it overtake rows sent before it, which is what makes a checkpoint consistent
 * and a watermark true.
 */
public sealed interface ChannelElement
        permits ChannelElement.Records, ChannelElement.Barrier, ChannelElement.Watermark, ChannelElement.Idle, ChannelElement.EndOfInput
{
    /** Rows; whoever takes the element from the channel owns the batch. */
    record Records(VectorSchemaRoot batch)
            implements ChannelElement
    {
        public Records
        {
            requireNonNull(batch, "batch is null");
        }
    }

    /** Checkpoint {@code checkpointId}: everything before it on the channel belongs to the checkpoint, nothing after it. */
    record Barrier(long checkpointId)
            implements ChannelElement {}

    /** No row with an event time at or before {@code micros} (epoch microseconds) follows on this channel. */
    record Watermark(long micros)
            implements ChannelElement {}

    /**
     * The channel has nothing to say about event time (its sender reads no partition): it stops
     * holding the receiver's watermark back until its next watermark or rows.
     */
    record Idle()
            implements ChannelElement {}

    /** The sender is done: nothing follows on this channel. */
    record EndOfInput()
            implements ChannelElement {}

    /** Frees what the element holds (the rows of {@link Records}). */
    static void release(ChannelElement element)
    {
        if (element instanceof Records records) {
            records.batch().close();
        }
    }
}
