package io.ontul.engine.stream.shuffle;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The input channels of one task, one per sending task, each a bounded FIFO. A sender that finds
 * its channel full waits ({@link #put}): that is the back-pressure that slows the sources when a
 * task downstream is slow, so that nothing queues without bound; the rows queued are Arrow
 * batches of the job's allocator, counted against its memory budget. The receiver
 * {@link #take takes} the next element of any channel it does not hold back (a channel that has
 * delivered a barrier waits until the others have, see {@link AlignedInput}).
 * <p>
 * {@link #close} (the job's attempt ending) frees whatever is queued and makes senders drop what
 * they still put, so no sender waits forever for a receiver that is gone.
 */
public final class InputGate
        implements ShuffleReceiver, AutoCloseable
{
    /** An element taken from the gate and the channel it came from. */
    public record Taken(int channel, ChannelElement element) {}

    private final int capacity;
    private final List<ArrayDeque<ChannelElement>> channels = new ArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private boolean closed;

    /**
     * @param channels the number of senders
     * @param capacity elements each channel holds before its sender waits
     */
    public InputGate(int channels, int capacity)
    {
        if (channels < 1 || capacity < 1) {
            throw new IllegalArgumentException("channels and capacity must be positive: " + channels + ", " + capacity);
        }
        this.capacity = capacity;
        for (int i = 0; i < channels; i++) {
            this.channels.add(new ArrayDeque<>(capacity));
        }
    }

    public int channelCount()
    {
        return channels.size();
    }

    /**
     * Appends to {@code channel}, waiting while it is full. Returns the nanoseconds spent waiting
     * (the sender's back-pressure). When the gate is closed the element is released instead.
     */
    @Override
    public long put(int channel, ChannelElement element)
            throws InterruptedException
    {
        long waited = 0;
        lock.lockInterruptibly();
        try {
            ArrayDeque<ChannelElement> queue = channels.get(channel);
            while (!closed && queue.size() >= capacity) {
                long start = System.nanoTime();
                notFull.await();
                waited += System.nanoTime() - start;
            }
            if (closed) {
                ChannelElement.release(element);
                return waited;
            }
            queue.addLast(element);
            notEmpty.signal();
            return waited;
        }
        catch (InterruptedException | RuntimeException e) {
            ChannelElement.release(element);
            throw e;
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * The first element of the first channel, from {@code from} round, that is not in
     * {@code heldBack} and has one; waits up to {@code timeout} for one. Null on timeout or once
     * the gate is closed.
     */
    public Taken take(BitSet heldBack, int from, long timeout, TimeUnit unit)
            throws InterruptedException
    {
        long remaining = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (!closed) {
                int count = channels.size();
                for (int i = 0; i < count; i++) {
                    int channel = (from + i) % count;
                    ArrayDeque<ChannelElement> queue = channels.get(channel);
                    if (!heldBack.get(channel) && !queue.isEmpty()) {
                        ChannelElement element = queue.pollFirst();
                        notFull.signalAll();
                        return new Taken(channel, element);
                    }
                }
                if (remaining <= 0) {
                    return null;
                }
                remaining = notEmpty.awaitNanos(remaining);
            }
            return null;
        }
        finally {
            lock.unlock();
        }
    }

    public boolean isClosed()
    {
        lock.lock();
        try {
            return closed;
        }
        finally {
            lock.unlock();
        }
    }

    /** Elements queued on {@code channel} now. */
    public int queued(int channel)
    {
        lock.lock();
        try {
            return channels.get(channel).size();
        }
        finally {
            lock.unlock();
        }
    }

    /** Frees what is queued; later puts release their element, takes return null. */
    @Override
    public void close()
    {
        lock.lock();
        try {
            closed = true;
            for (ArrayDeque<ChannelElement> queue : channels) {
                queue.forEach(ChannelElement::release);
                queue.clear();
            }
            notFull.signalAll();
            notEmpty.signalAll();
        }
        finally {
            lock.unlock();
        }
    }
}
