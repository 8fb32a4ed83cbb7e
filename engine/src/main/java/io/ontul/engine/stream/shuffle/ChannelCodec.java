package io.ontul.engine.stream.shuffle;

import java.nio.ByteBuffer;
import java.util.function.Supplier;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * How a {@link ChannelElement} crosses the network: every message of a channel carries a tag, a
 * kind byte and a long (the barrier's checkpoint id, the watermark), and rows travel as the
 * message's Arrow batch. A tag on every message, because a transport cannot otherwise tell rows
 * from a control message; one stream per channel, so its order is the channel's.
 */
public final class ChannelCodec
{
    private static final byte RECORDS = 0;
    private static final byte BARRIER = 1;
    private static final byte WATERMARK = 2;
    private static final byte IDLE = 3;
    private static final byte END = 4;
    private static final int LENGTH = 9;

    private ChannelCodec() {}

    /** The tag of {@code element}. */
    public static byte[] tag(ChannelElement element)
    {
        if (element instanceof ChannelElement.Records records) {
            return tag(RECORDS, records.batch().getRowCount());
        }
        if (element instanceof ChannelElement.Barrier barrier) {
            return tag(BARRIER, barrier.checkpointId());
        }
        if (element instanceof ChannelElement.Watermark watermark) {
            return tag(WATERMARK, watermark.micros());
        }
        return tag(element instanceof ChannelElement.Idle ? IDLE : END, 0);
    }

    /**
     * The element a message with {@code tag} stands for; {@code rows} gives the message's batch
     * (owned by the caller then) and is called only for rows.
     *
     * @throws IllegalArgumentException for a tag no sender writes
     */
    public static ChannelElement element(byte[] tag, Supplier<VectorSchemaRoot> rows)
    {
        if (tag == null || tag.length != LENGTH) {
            throw new IllegalArgumentException("Malformed channel message: a tag of " + (tag == null ? "none" : tag.length + " bytes") + ", not " + LENGTH);
        }
        ByteBuffer buffer = ByteBuffer.wrap(tag);
        byte kind = buffer.get();
        long value = buffer.getLong();
        return switch (kind) {
            case RECORDS -> {
                VectorSchemaRoot batch = rows.get();
                if (batch == null) {
                    throw new IllegalArgumentException("Malformed channel message: rows tagged without a batch");
                }
                yield new ChannelElement.Records(batch);
            }
            case BARRIER -> new ChannelElement.Barrier(value);
            case WATERMARK -> new ChannelElement.Watermark(value);
            case IDLE -> new ChannelElement.Idle();
            case END -> new ChannelElement.EndOfInput();
            default -> throw new IllegalArgumentException("Malformed channel message: unknown kind " + kind);
        };
    }

    /** Whether {@code element} is the last of its channel. */
    public static boolean ends(ChannelElement element)
    {
        return element instanceof ChannelElement.EndOfInput;
    }

    private static byte[] tag(byte kind, long value)
    {
        return ByteBuffer.allocate(LENGTH).put(kind).putLong(value).array();
    }
}
