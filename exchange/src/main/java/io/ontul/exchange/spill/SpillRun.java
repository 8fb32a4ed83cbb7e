package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A finished spill run: its batches can be read back, in the order written, any number of
 * times until {@link #delete}. The query's {@link SpillSpace} deletes it at the latest when
 * the query ends.
 */
public final class SpillRun
{
    private final SpillSpace space;
    private final Path file;
    private final Schema schema;
    private final long rows;
    private final long bytes;
    private final java.util.concurrent.atomic.AtomicBoolean deleted = new java.util.concurrent.atomic.AtomicBoolean();

    SpillRun(SpillSpace space, Path file, Schema schema, long rows, long bytes)
    {
        this.space = requireNonNull(space, "space is null");
        this.file = requireNonNull(file, "file is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.rows = rows;
        this.bytes = bytes;
    }

    /** Reads the run; batches are allocated from {@code allocator} and belong to the caller. */
    public SpillRunReader open(BufferAllocator allocator)
    {
        if (deleted.get()) {
            throw new IllegalStateException("spill run " + file + " was deleted");
        }
        return new SpillRunReader(space.store().streams(), file, schema, allocator);
    }

    public Schema schema()
    {
        return schema;
    }

    public long rows()
    {
        return rows;
    }

    /** Bytes of the file on disk. */
    public long bytes()
    {
        return bytes;
    }

    /** Deletes the file now, giving its space back. Idempotent. */
    public void delete()
    {
        if (!deleted.compareAndSet(false, true)) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot delete spill file " + file, e);
        }
        space.released(bytes);
    }

    @Override
    public String toString()
    {
        return file.getFileName() + " (" + rows + " rows, " + bytes + " bytes)";
    }
}
