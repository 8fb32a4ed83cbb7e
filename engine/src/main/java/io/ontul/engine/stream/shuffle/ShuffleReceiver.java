package io.ontul.engine.stream.shuffle;

/**
 * Where a {@link ShuffleOutput} sends to one receiving task: its {@link InputGate} when the task
 * runs in this process, a {@link RemoteChannel} over the network when it runs on another node.
 */
public interface ShuffleReceiver
{
    /**
     * Appends {@code element} to the sender's {@code channel}, waiting while the receiver has no
     * room; returns the nanoseconds waited (the sender's back-pressure). The receiver owns the
     * element from then on, also when it drops it (its task is gone).
     */
    long put(int channel, ChannelElement element)
            throws InterruptedException;
}
