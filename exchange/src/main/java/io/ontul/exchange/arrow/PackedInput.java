package io.ontul.exchange.arrow;

import static io.ontul.exchange.arrow.PackedOutput.INTS;
import static io.ontul.exchange.arrow.PackedOutput.LONGS;
import static io.ontul.exchange.arrow.PackedOutput.SHORTS;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

import org.apache.arrow.memory.ArrowBuf;

/**
 * The byte side of {@link PackedBatchReader}, the reverse of {@link PackedOutput}: reads exactly
 * what it is asked for (nothing ahead), through a buffer of the reading thread, and fills Arrow
 * buffers straight from the stream's {@link ReadableByteChannel} side where it has one. A stream
 * that ends early fails with an {@link EOFException}.
 */
final class PackedInput
{
    private static final ThreadLocal<byte[]> BUFFERS = ThreadLocal.withInitial(() -> new byte[PackedOutput.BUFFER_BYTES]);

    private final InputStream in;
    private final ReadableByteChannel channel;
    private final byte[] buffer = BUFFERS.get();

    PackedInput(InputStream in)
    {
        this.in = in;
        this.channel = in instanceof ReadableByteChannel direct ? direct : null;
    }

    int readByte()
            throws IOException
    {
        readFully(1);
        return buffer[0] & 0xFF;
    }

    int readInt()
            throws IOException
    {
        readFully(Integer.BYTES);
        return (int) INTS.get(buffer, 0);
    }

    long readLong()
            throws IOException
    {
        readFully(Long.BYTES);
        return (long) LONGS.get(buffer, 0);
    }

    /** Fills {@code length} bytes of {@code target} from {@code offset}. */
    void readBuffer(ArrowBuf target, long offset, long length)
            throws IOException
    {
        if (channel != null) {
            while (length > 0) {
                int count = (int) Math.min(length, Integer.MAX_VALUE);
                ByteBuffer view = target.nioBuffer(offset, count);
                while (view.hasRemaining()) {
                    if (channel.read(view) < 0) {
                        throw new EOFException("packed batch stream ends inside a column");
                    }
                }
                offset += count;
                length -= count;
            }
            return;
        }
        while (length > 0) {
            int count = (int) Math.min(length, buffer.length);
            readFully(count);
            target.setBytes(offset, buffer, 0, count);
            offset += count;
            length -= count;
        }
    }

    /** Reads {@code count} offsets of {@code width} bytes (see {@link PackedOutput#pack}) and adds {@code base}. */
    void unpack(long[] values, int count, long base, int width)
            throws IOException
    {
        if (width == 0) {
            java.util.Arrays.fill(values, 0, count, base);
            return;
        }
        int done = 0;
        while (done < count) {
            int n = Math.min(count - done, buffer.length / width);
            readFully(n * width);
            switch (width) {
                case 1 -> {
                    for (int i = 0; i < n; i++) {
                        values[done + i] = base + (buffer[i] & 0xFFL);
                    }
                }
                case 2 -> {
                    for (int i = 0; i < n; i++) {
                        values[done + i] = base + ((short) SHORTS.get(buffer, 2 * i) & 0xFFFFL);
                    }
                }
                case 4 -> {
                    for (int i = 0; i < n; i++) {
                        values[done + i] = base + ((int) INTS.get(buffer, 4 * i) & 0xFFFF_FFFFL);
                    }
                }
                case 8 -> {
                    for (int i = 0; i < n; i++) {
                        values[done + i] = base + (long) LONGS.get(buffer, 8 * i);
                    }
                }
                default -> throw new IllegalArgumentException("width must be 0, 1, 2, 4 or 8: " + width);
            }
            done += n;
        }
    }

    private void readFully(int length)
            throws IOException
    {
        int done = 0;
        while (done < length) {
            int count = in.read(buffer, done, length - done);
            if (count < 0) {
                throw new EOFException("packed batch stream ends early");
            }
            done += count;
        }
    }
}
