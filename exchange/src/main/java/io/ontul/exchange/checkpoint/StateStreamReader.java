package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;

import io.ontul.exchange.ExchangeStorageException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.hadoop.fs.Path;

import io.ontul.exchange.arrow.ArrowBatchReader;
import io.ontul.exchange.crypto.ChunkedInputStream;

/**
 * Reads a state stream back batch by batch, in the order written. Each batch returned by
 * {@link #next} is a new {@link VectorSchemaRoot} owned by the caller, who closes it; the reader
 * holds at most one chunk of the file and one batch. A damaged, truncated, moved or missing file
 * fails with an error naming it. Not thread-safe.
 */
public final class StateStreamReader
        implements AutoCloseable
{
    private final Path file;
    private final ChunkedInputStream in;
    private final ArrowBatchReader reader;
    private boolean ended;

    StateStreamReader(CheckpointFileSystem files, Path file, String job, long checkpointId, String taskId, String stream, BufferAllocator allocator)
    {
        this.file = requireNonNull(file, "file is null");
        requireNonNull(allocator, "allocator is null");
        ChunkedInputStream opened = null;
        try {
            opened = files.open(file);
            CheckpointFileFormat.readStateStreamHeader(opened, file.toString(), job, checkpointId, taskId, stream);
        }
        catch (IOException e) {
            closeQuietly(opened);
            throw cannotRead(e);
        }
        catch (RuntimeException e) {
            closeQuietly(opened);
            throw e;
        }
        this.in = opened;
        this.reader = new ArrowBatchReader(in, allocator);
    }

    public Schema schema()
    {
        try {
            return reader.schema();
        }
        catch (IOException e) {
            throw cannotRead(e);
        }
    }

    /** The next batch, or null at the end of the stream. */
    public VectorSchemaRoot next()
    {
        if (ended) {
            return null;
        }
        try {
            VectorSchemaRoot batch = reader.next();
            if (batch == null) {
                ended = true;
                CheckpointFileFormat.expectEnd(in, file.toString());
            }
            return batch;
        }
        catch (IOException e) {
            throw cannotRead(e);
        }
    }

    @Override
    public void close()
    {
        try {
            reader.close();
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot close checkpoint file", file, e);
        }
    }

    private UncheckedIOException cannotRead(IOException e)
    {
        return CheckpointFailures.cannotRead(file, e);
    }

    private static void closeQuietly(ChunkedInputStream in)
    {
        if (in == null) {
            return;
        }
        try {
            in.close();
        }
        catch (IOException ignored) {
            // already failing
        }
    }
}
