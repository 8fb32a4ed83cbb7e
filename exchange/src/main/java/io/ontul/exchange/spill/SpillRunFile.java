package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Several spill runs in one file, written one after another: a partitioned spill writes a small
 * run per partition, and creating a file costs more than writing one. Use: {@link #newRun} and
 * finish (or close) that writer before the next; {@link #close} when done. Each finished run is
 * read back and deleted on its own; the file goes with the last of them. A run that fails
 * half-way ends the file: the runs finished before stay readable, no more can be added. Not
 * thread-safe.
 */
public final class SpillRunFile
        implements AutoCloseable
{
    private final SpillSpace space;
    private final SpillFile file;

    SpillRunFile(SpillSpace space, SpillFile file)
    {
        this.space = requireNonNull(space, "space is null");
        this.file = requireNonNull(file, "file is null");
    }

    /** Starts the next run of the file. */
    public SpillRunWriter newRun(Schema schema)
    {
        requireNonNull(schema, "schema is null");
        return new SpillRunWriter(space, file, schema, false, space.store().streams());
    }

    @Override
    public void close()
    {
        file.closeWriting();
    }
}
