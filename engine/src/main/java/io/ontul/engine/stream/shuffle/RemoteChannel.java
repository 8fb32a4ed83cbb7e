package io.ontul.engine.stream.shuffle;

import static java.util.Objects.requireNonNull;

import java.util.function.Supplier;

import io.ontul.spi.cluster.ChannelSender;

/**
 * The sending end of a channel to a task on another node: a {@link ShuffleReceiver} over the
 * cluster's transport, connected when first used (once every node of the attempt has made its
 * receiving tasks). Elements go in order on one stream of their own, so no barrier overtakes
 * rows and holding one channel back at a barrier never stalls another; the transport's flow
 * control is the back-pressure ({@link #put} waits while the receiver has no room).
 */
public final class RemoteChannel
        implements ShuffleReceiver, AutoCloseable
{
    private final Supplier<ChannelSender> connect;
    private ChannelSender sender;
    private boolean ended;
    private boolean closed;

    /** @param connect opens the channel's stream */
    public RemoteChannel(Supplier<ChannelSender> connect)
    {
        this.connect = requireNonNull(connect, "connect is null");
    }

    @Override
    public long put(int channel, ChannelElement element)
            throws InterruptedException
    {
        try {
            ChannelSender open = sender();
            byte[] tag = ChannelCodec.tag(element);
            long waited = element instanceof ChannelElement.Records records ? open.send(records.batch(), tag) : open.sendMetadata(tag);
            if (ChannelCodec.ends(element)) {
                synchronized (this) {
                    ended = true;
                }
                open.complete();
            }
            return waited;
        }
        finally {
            ChannelElement.release(element);
        }
    }

    private synchronized ChannelSender sender()
    {
        if (closed) {
            throw new IllegalStateException("The channel was closed: its attempt ended");
        }
        if (ended) {
            throw new IllegalStateException("The channel already ended");
        }
        if (sender == null) {
            sender = connect.get();
        }
        return sender;
    }

    /** Ends the channel from any thread; what was not delivered is dropped unless the end of input was sent. */
    @Override
    public void close()
    {
        ChannelSender open;
        synchronized (this) {
            closed = true;
            open = ended ? null : sender;
        }
        if (open != null) {
            open.close();
        }
    }
}
