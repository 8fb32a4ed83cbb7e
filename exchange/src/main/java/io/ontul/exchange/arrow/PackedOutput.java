package io.ontul.exchange.arrow;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;

import org.apache.arrow.memory.ArrowBuf;

/**
 * The byte side of {@link PackedBatchWriter}: little-endian numbers and narrowed values staged
 * in a buffer of the writing thread, Arrow buffers handed to the stream as they are (through its
 * {@link WritableByteChannel} side where it has one). One is made per batch and {@link #flush}ed
 * at its end, so nothing stays staged between batches.
 */
final class PackedOutput
{
    static final int BUFFER_BYTES = 16 * 1024;
    static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    // staging only: every batch flushes it before returning
    private static final ThreadLocal<byte[]> BUFFERS = ThreadLocal.withInitial(() -> new byte[BUFFER_BYTES]);

    private final OutputStream out;
    private final WritableByteChannel channel;
    private final byte[] buffer = BUFFERS.get();
    private int position;

    PackedOutput(OutputStream out)
    {
        this.out = out;
        this.channel = out instanceof WritableByteChannel direct ? direct : null;
    }

    void writeByte(int value)
            throws IOException
    {
        room(1);
        buffer[position++] = (byte) value;
    }

    void writeInt(int value)
            throws IOException
    {
        room(Integer.BYTES);
        INTS.set(buffer, position, value);
        position += Integer.BYTES;
    }

    void writeLong(long value)
            throws IOException
    {
        room(Long.BYTES);
        LONGS.set(buffer, position, value);
        position += Long.BYTES;
    }

    /** Writes {@code length} bytes of {@code source} from {@code offset}. */
    void writeBuffer(ArrowBuf source, long offset, long length)
            throws IOException
    {
        if (length <= buffer.length - position) {
            source.getBytes(offset, buffer, position, (int) length);
            position += (int) length;
            return;
        }
        flush();
        if (channel != null) {
            while (length > 0) {
                int count = (int) Math.min(length, Integer.MAX_VALUE);
                ByteBuffer view = source.nioBuffer(offset, count);
                while (view.hasRemaining()) {
                    channel.write(view);
                }
                offset += count;
                length -= count;
            }
            return;
        }
        while (length > 0) {
            int count = (int) Math.min(length, buffer.length);
            source.getBytes(offset, buffer, 0, count);
            out.write(buffer, 0, count);
            offset += count;
            length -= count;
        }
    }

    /**
     * Writes {@code values[0..count)} as offsets from {@code base} of {@code width} bytes each
     * (0, 1, 2, 4 or 8), which must hold every offset.
     */
    void pack(long[] values, int count, long base, int width)
            throws IOException
    {
        if (width == 0) {
            return;
        }
        int done = 0;
        while (done < count) {
            if (buffer.length - position < width) {
                flush();
            }
            int n = Math.min(count - done, (buffer.length - position) / width);
            int at = position;
            switch (width) {
                case 1 -> {
                    for (int i = 0; i < n; i++) {
                        buffer[at + i] = (byte) (values[done + i] - base);
                    }
                }
                case 2 -> {
                    for (int i = 0; i < n; i++) {
                        SHORTS.set(buffer, at + 2 * i, (short) (values[done + i] - base));
                    }
                }
                case 4 -> {
                    for (int i = 0; i < n; i++) {
                        INTS.set(buffer, at + 4 * i, (int) (values[done + i] - base));
                    }
                }
                case 8 -> {
                    for (int i = 0; i < n; i++) {
                        LONGS.set(buffer, at + 8 * i, values[done + i] - base);
                    }
                }
                default -> throw new IllegalArgumentException("width must be 0, 1, 2, 4 or 8: " + width);
            }
            position = at + n * width;
            done += n;
        }
    }

    /** Hands what is staged to the stream. */
    void flush()
            throws IOException
    {
        if (position > 0) {
            out.write(buffer, 0, position);
            position = 0;
        }
    }

    private void room(int bytes)
            throws IOException
    {
        if (buffer.length - position < bytes) {
            flush();
        }
    }
}
