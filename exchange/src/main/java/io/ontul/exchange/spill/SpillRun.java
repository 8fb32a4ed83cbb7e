package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;


import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.exchange.arrow.BatchEncoding;

/**
 * A finished spill run: its batches can be read back, in the order written, any number of
 * times until {@link #delete}. The query's {@link SpillSpace} deletes it at the latest when
 * the query ends.
 */
public final class SpillRun
{
    private final SpillSpace space;
    private final SpillFile file;
    private final long start;
    private final String name;
    private final Schema schema;
    private final BatchEncoding encoding;
    private final long rows;
    private final long bytes;
    private final java.util.concurrent.atomic.AtomicBoolean deleted = new java.util.concurrent.atomic.AtomicBoolean();

    SpillRun(SpillSpace space, SpillFile file, long start, boolean ownsFile, Schema schema, BatchEncoding encoding, long rows, long bytes)
    {
        this.space = requireNonNull(space, "space is null");
        this.file = requireNonNull(file, "file is null");
        this.start = start;
        this.name = name(file, start, ownsFile);
        this.schema = requireNonNull(schema, "schema is null");
        this.encoding = requireNonNull(encoding, "encoding is null");
        this.rows = rows;
        this.bytes = bytes;
    }

    /** Reads the run; batches are allocated from {@code allocator} and belong to the caller. */
    public SpillRunReader open(BufferAllocator allocator)
    {
        if (deleted.get()) {
            throw new IllegalStateException("spill run " + name + " was deleted");
        }
        SpillRunReader reader = new SpillRunReader(space.store().streams(), file, start, bytes, name, schema, encoding, allocator);
        space.store().recordRead(bytes);
        return reader;
    }

    public Schema schema()
    {
        return schema;
    }

    /** How the run's batches are laid out: packed for flat schemas, else Arrow IPC. */
    public BatchEncoding encoding()
    {
        return encoding;
    }

    public long rows()
    {
        return rows;
    }

    /** How a run is named in messages: its file, and where in it when the file is shared. */
    static String name(SpillFile file, long start, boolean ownsFile)
    {
        return ownsFile ? file.path().toString() : file.path() + "@" + start;
    }

    /** Bytes of the run on disk. */
    public long bytes()
    {
        return bytes;
    }

    /** Deletes the run now, giving its space back (its file goes with its last run). Idempotent. */
    public void delete()
    {
        if (!deleted.compareAndSet(false, true)) {
            return;
        }
        // the bytes go back to the space when the file leaves the disk, with its last run
        file.release();
    }

    @Override
    public String toString()
    {
        return name + " (" + rows + " rows, " + bytes + " bytes)";
    }
}
