package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

import java.util.BitSet;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.stream.shuffle.ChannelElement;
import io.ontul.engine.stream.window.WatermarkTracker;

/**
 * The input side of a task with several input channels: aligned checkpoint barriers and the
 * task's watermark, as Chandy and Lamport's snapshot algorithm and Flink's aligned checkpoints
 * have them.
 * <ul>
 * <li>A channel that delivers barrier N is held back ({@link #heldBack}): the task takes nothing
 * more from it, so rows behind the barrier, which belong to checkpoint N + 1, are not processed
 * before the task's snapshot of N. Once every channel still open has delivered N, the handler is
 * told (it snapshots and forwards N) and every channel is released.</li>
 * <li>The task's watermark is the minimum over its channels' watermarks, leaving out channels
 * that said they are {@link ChannelElement.Idle idle} (until they deliver again) and channels that
 * ended; it never goes back. The handler hears each advance.</li>
 * <li>When every channel has ended, the handler hears the end of input.</li>
 * </ul>
 * A barrier other than the one being aligned is a protocol violation: an IllegalStateException.
 * Single-threaded, on the task's thread.
 */
public final class AlignedInput
{
    /** What an aligned input tells its task. */
    public interface Handler
    {
        /** Rows of one channel; the batch is freed when this returns. */
        void records(int channel, VectorSchemaRoot batch);

        /** Every open channel delivered barrier {@code checkpointId}: snapshot now, then forward it. */
        void barrier(long checkpointId);

        /** The task's watermark moved up to {@code micros}. */
        void watermark(long micros);

        /** Every channel ended. */
        void endOfInput();
    }

    private static final long NO_BARRIER = -1;

    private final int channels;
    private final long[] watermarks;
    private final BitSet idle = new BitSet();
    private final BitSet ended = new BitSet();
    private final BitSet heldBack = new BitSet();
    private long aligning = NO_BARRIER;
    private long watermark = WatermarkTracker.NONE;

    public AlignedInput(int channels)
    {
        if (channels < 1) {
            throw new IllegalArgumentException("channels must be positive: " + channels);
        }
        this.channels = channels;
        this.watermarks = new long[channels];
        java.util.Arrays.fill(watermarks, WatermarkTracker.NONE);
    }

    /** The channels the task must not take from now (they delivered the barrier being aligned). */
    public BitSet heldBack()
    {
        return heldBack;
    }

    /** The task's watermark in epoch microseconds, or {@link WatermarkTracker#NONE}. */
    public long watermark()
    {
        return watermark;
    }

    /** Starts from a restored watermark: windows closed before a restart stay closed. */
    public void restoreWatermark(long restored)
    {
        watermark = Math.max(watermark, restored);
    }

    /** Whether every channel ended. */
    public boolean finished()
    {
        return ended.cardinality() == channels;
    }

    /** Takes one element of {@code channel}; the element is consumed (rows are freed after the handler saw them). */
    public void accept(int channel, ChannelElement element, Handler handler)
    {
        requireNonNull(element, "element is null");
        requireNonNull(handler, "handler is null");
        if (heldBack.get(channel) || ended.get(channel)) {
            ChannelElement.release(element);
            throw new IllegalStateException("Channel " + channel + " delivered " + element.getClass().getSimpleName() + (ended.get(channel) ? " after its end" : " while held back at barrier " + aligning));
        }
        if (element instanceof ChannelElement.Records records) {
            try (VectorSchemaRoot batch = records.batch()) {
                idle.clear(channel);
                handler.records(channel, batch);
            }
        }
        else if (element instanceof ChannelElement.Barrier barrier) {
            if (aligning == NO_BARRIER) {
                aligning = barrier.checkpointId();
            }
            else if (aligning != barrier.checkpointId()) {
                throw new IllegalStateException("Channel " + channel + " delivered barrier " + barrier.checkpointId() + " while barrier " + aligning + " is being aligned");
            }
            heldBack.set(channel);
            completeAlignment(handler);
        }
        else if (element instanceof ChannelElement.Watermark mark) {
            idle.clear(channel);
            watermarks[channel] = Math.max(watermarks[channel], mark.micros());
            advance(handler);
        }
        else if (element instanceof ChannelElement.Idle) {
            idle.set(channel);
            advance(handler);
        }
        else if (element instanceof ChannelElement.EndOfInput) {
            ended.set(channel);
            heldBack.clear(channel);
            if (aligning != NO_BARRIER) {
                completeAlignment(handler);
            }
            advance(handler);
            if (finished()) {
                handler.endOfInput();
            }
        }
    }

    private void completeAlignment(Handler handler)
    {
        for (int channel = 0; channel < channels; channel++) {
            if (!heldBack.get(channel) && !ended.get(channel)) {
                return;
            }
        }
        long checkpointId = aligning;
        aligning = NO_BARRIER;
        heldBack.clear();
        handler.barrier(checkpointId);
    }

    private void advance(Handler handler)
    {
        long minimum = Long.MAX_VALUE;
        boolean any = false;
        for (int channel = 0; channel < channels; channel++) {
            if (!idle.get(channel) && !ended.get(channel)) {
                any = true;
                minimum = Math.min(minimum, watermarks[channel]);
            }
        }
        if (any && minimum > watermark) {
            watermark = minimum;
            handler.watermark(minimum);
        }
    }
}
