package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;

import io.ontul.exchange.ExchangeStorageException;

/**
 * One file on disk holding one or more spill runs, written one after another: each run is a
 * complete exchange stream (own header and data key) at its own offset. Creating a file costs
 * more than writing a small run (about 0.25 ms on an ext4 virtual disk), so callers that write
 * many small runs at once (a partitioned spill) put them in one file.
 * <p>
 * Protocol: runs are appended through {@link #output} one at a time; each finished run holds a
 * reference ({@link #runFinished}) that it gives back when deleted ({@link #release}). The file
 * is deleted once it is closed for writing ({@link #closeWriting}) and no run holds it; only
 * then are the bytes of all its runs (a failed one's included) given back to the query's space,
 * since only then do they leave the disk. A failed run marks the file broken: the runs finished
 * before it stay readable, no more are appended. Thread-safe.
 */
final class SpillFile
{
    private final Path path;
    private final LongConsumer released;
    private OutputStream output;
    private long heldBytes;
    private long offset;
    private int references;
    private boolean writing = true;
    private boolean broken;
    private boolean deleted;

    /** @param released takes back the bytes of the file's runs once the file is deleted */
    SpillFile(Path path, LongConsumer released)
    {
        this.path = requireNonNull(path, "path is null");
        this.released = requireNonNull(released, "released is null");
    }

    Path path()
    {
        return path;
    }

    /** The stream the next run is written to, created with the file on first use; never closed by runs. */
    synchronized OutputStream output()
            throws IOException
    {
        if (!writing || broken) {
            throw new IllegalStateException("spill file " + path + " is " + (broken ? "broken by a failed run" : "closed for writing"));
        }
        if (output == null) {
            // unbuffered: runs write whole chunks, and a run kept open (one per partition) holds no buffer between writes
            output = Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
        return output;
    }

    /** Where the next run starts: the bytes written so far. */
    synchronized long offset()
    {
        return offset;
    }

    /** A run of {@code bytes} was completely written (and flushed) at {@link #offset}; it holds the file until released. */
    synchronized void runFinished(long bytes)
    {
        offset += bytes;
        heldBytes += bytes;
        references++;
    }

    /** A run failed half-way after writing {@code bytes}: the file takes no more runs. */
    synchronized void runFailed(long bytes)
    {
        heldBytes += bytes;
        broken = true;
        closeOutput();
        deleteIfUnused();
    }

    /** No more runs will be written. */
    synchronized void closeWriting()
    {
        if (!writing) {
            return;
        }
        writing = false;
        closeOutput();
        deleteIfUnused();
    }

    /** A run of this file was deleted. */
    synchronized void release()
    {
        references--;
        deleteIfUnused();
    }

    /** Reads {@code length} bytes at {@code start}: one run. */
    InputStream open(long start, long length)
            throws IOException
    {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            channel.position(start);
            return new BoundedInputStream(Channels.newInputStream(channel), length);
        }
        catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void closeOutput()
    {
        if (output != null) {
            try {
                output.close();
            }
            catch (IOException ignored) {
                // the runs written were flushed when they finished; the folder goes with the query
            }
            output = null;
        }
    }

    private void deleteIfUnused()
    {
        if ((writing && !broken) || references > 0 || deleted) {
            return;
        }
        deleted = true;
        long bytes = heldBytes;
        heldBytes = 0;
        try {
            Files.deleteIfExists(path);
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot delete spill file", path, e);
        }
        finally {
            // a file that could not be deleted goes with the query's folder
            released.accept(bytes);
        }
    }

    /** The first {@code length} bytes of a stream, then its end. */
    private static final class BoundedInputStream
            extends InputStream
    {
        private final InputStream in;
        private long remaining;

        BoundedInputStream(InputStream in, long length)
        {
            this.in = in;
            this.remaining = length;
        }

        @Override
        public int read()
                throws IOException
        {
            if (remaining <= 0) {
                return -1;
            }
            int value = in.read();
            if (value >= 0) {
                remaining--;
            }
            return value;
        }

        @Override
        public int read(byte[] buffer, int offset, int length)
                throws IOException
        {
            if (remaining <= 0) {
                return -1;
            }
            int count = in.read(buffer, offset, (int) Math.min(length, remaining));
            if (count > 0) {
                remaining -= count;
            }
            return count;
        }

        @Override
        public void close()
                throws IOException
        {
            in.close();
        }
    }
}
