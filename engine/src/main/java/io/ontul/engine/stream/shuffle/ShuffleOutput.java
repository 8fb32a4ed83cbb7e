package io.ontul.engine.stream.shuffle;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Batches;

/**
 * The sending side of a hash shuffle, one per source task: rows go to the task that owns their
 * key's group ({@link KeyGroups}), on this sender's channel of that task's {@link InputGate} (or, on another node, the
 * {@link RemoteChannel} to it);
 * watermarks, idleness, barriers and the end of input go to every task. Sending waits while a
 * receiver's channel is full; the time waited is the sender's back-pressure.
 */
public final class ShuffleOutput
{
    private final int channel;
    private final List<ShuffleReceiver> receivers;
    private final KeyGroups keyGroups;
    private final BufferAllocator allocator;
    private long blockedNanos;

    /**
     * @param channel this sender's channel in every receiver's gate
     * @param keyGroups the key of the rows this sends
     * @param allocator where the rows sent are allocated: the job's, so that what waits in channels counts against its memory
     */
    public ShuffleOutput(int channel, List<? extends ShuffleReceiver> receivers, KeyGroups keyGroups, BufferAllocator allocator)
    {
        this.channel = channel;
        this.receivers = List.copyOf(receivers);
        this.keyGroups = requireNonNull(keyGroups, "keyGroups is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** Sends each row to the task of its key group; the caller keeps {@code batch}. */
    public void records(VectorSchemaRoot batch)
            throws InterruptedException
    {
        if (batch.getRowCount() == 0) {
            return;
        }
        if (receivers.size() == 1) {
            send(0, new ChannelElement.Records(Batches.transfer(batch, allocator)));
            return;
        }
        VectorSchemaRoot[] slices = Batches.scatter(batch, keyGroups.tasks(batch, receivers.size()), receivers.size(), allocator);
        try {
            for (int task = 0; task < slices.length; task++) {
                if (slices[task] != null) {
                    VectorSchemaRoot slice = slices[task];
                    slices[task] = null;
                    send(task, new ChannelElement.Records(slice));
                }
            }
        }
        finally {
            for (VectorSchemaRoot left : slices) {
                if (left != null) {
                    left.close();
                }
            }
        }
    }

    /** Sends {@code element} (not rows) to every receiver. */
    public void broadcast(ChannelElement element)
            throws InterruptedException
    {
        if (element instanceof ChannelElement.Records) {
            throw new IllegalArgumentException("rows are sent by key, not broadcast");
        }
        for (int task = 0; task < receivers.size(); task++) {
            send(task, element);
        }
    }

    /** Nanoseconds spent waiting for room in receivers' channels so far. */
    public long blockedNanos()
    {
        return blockedNanos;
    }

    private void send(int task, ChannelElement element)
            throws InterruptedException
    {
        blockedNanos += receivers.get(task).put(channel, element);
    }

}
