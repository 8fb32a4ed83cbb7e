package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.ontul.exchange.ExchangeStorageException;

import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One query's spill files, in a folder of its own. Operators write runs of Arrow batches with
 * {@link #newRun} and read them back from the {@link SpillRun} they get; they never open files
 * themselves. {@link #close} deletes every file of the query, finished or not, and gives their
 * bytes back to the store; the query's owner calls it when the query ends — success, failure
 * or cancel. Thread-safe: parallel pipelines of one query share the space.
 */
public final class SpillSpace
        implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(SpillSpace.class);

    private final SpillStore store;
    private final Path directory;
    private final String queryId;
    private final AtomicInteger fileCounter = new AtomicInteger();
    private final AtomicLong writtenBytes = new AtomicLong();
    private final AtomicLong heldBytes = new AtomicLong();
    private final AtomicLong writtenRows = new AtomicLong();
    private boolean closed;

    SpillSpace(SpillStore store, Path directory)
    {
        this.store = requireNonNull(store, "store is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.queryId = directory.getFileName().toString();
    }

    /**
     * Starts a spill run: batches of {@code schema} written in order and read back in the same
     * order. The caller finishes the writer (to get the run) or closes it (to drop it).
     */
    public SpillRunWriter newRun(Schema schema)
    {
        requireNonNull(schema, "schema is null");
        return new SpillRunWriter(this, newFile(), schema, true, store.streams());
    }

    /**
     * Starts a spill run of one partition of a hash join, like {@link #newRun}, compressed with
     * the store's join codec ({@link SpillStore#JOIN_COMPRESSION}) rather than its own.
     */
    public SpillRunWriter newJoinRun(Schema schema)
    {
        requireNonNull(schema, "schema is null");
        return new SpillRunWriter(this, newFile(), schema, true, store.joinStreams());
    }

    /**
     * Starts a file for several spill runs written one after another ({@link SpillRunFile}):
     * one file instead of one per run, for callers that write many small runs at once.
     */
    public SpillRunFile newRunFile()
    {
        return new SpillRunFile(this, newFile());
    }

    private SpillFile newFile()
    {
        Path file;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("spill space of query " + queryId + " is closed");
            }
            try {
                Files.createDirectories(directory);
            }
            catch (IOException e) {
                throw new ExchangeStorageException("Cannot create spill folder", directory, e);
            }
            file = directory.resolve("run-" + fileCounter.incrementAndGet() + ".arrow");
        }
        store.fileStarted();
        return new SpillFile(file, this::released);
    }

    /** Spill files started so far (each with one run or more). */
    public int files()
    {
        return fileCounter.get();
    }

    /** Bytes written to disk so far (after compression and encryption), deleted files included. */
    public long spilledBytes()
    {
        return writtenBytes.get();
    }

    /** Rows written so far. */
    public long spilledRows()
    {
        return writtenRows.get();
    }

    public Path directory()
    {
        return directory;
    }

    SpillStore store()
    {
        return store;
    }

    String queryId()
    {
        return queryId;
    }

    void charge(long bytes)
    {
        store.charge(queryId, bytes);
        writtenBytes.addAndGet(bytes);
        synchronized (this) {
            if (!closed) {
                heldBytes.addAndGet(bytes);
                return;
            }
        }
        // written after the space closed (a writer racing a cancel): its file goes with the folder
        store.refund(bytes);
    }

    void recordRows(long rows)
    {
        writtenRows.addAndGet(rows);
    }

    /**
     * A file of {@code bytes} was deleted. After {@link #close} the space has already given back
     * everything it held, so a run dropped late refunds nothing twice.
     */
    void released(long bytes)
    {
        synchronized (this) {
            if (closed) {
                return;
            }
            heldBytes.addAndGet(-bytes);
        }
        store.refund(bytes);
    }

    @Override
    public void close()
    {
        long held;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            held = heldBytes.getAndSet(0);
        }
        try {
            SpillFiles.deleteTree(directory);
        }
        catch (IOException e) {
            LOG.warn("Cannot delete spill folder {} of query {}; it is removed at the next start: {}", directory, queryId, e.getMessage());
        }
        store.refund(held);
    }
}
