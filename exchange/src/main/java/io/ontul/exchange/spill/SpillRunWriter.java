package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

import io.ontul.exchange.ExchangeStorageException;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.exchange.arrow.BatchEncoding;
import io.ontul.exchange.arrow.BatchStreamWriter;
import io.ontul.exchange.crypto.ChunkedOutputStream;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

/**
 * Writes one spill run: batches in the packed format where the schema allows, else Arrow IPC
 * ({@link BatchEncoding#forSpill}), inside an exchange stream (encrypted and compressed as
 * configured), alone in its file or appended to a {@link SpillRunFile}.
 * {@link #write} copies nothing: the caller keeps and closes its batch. {@link #finish}
 * completes the run and returns the {@link SpillRun}; {@link #close} without finishing drops
 * it (a file of its own is deleted; a shared file takes no more runs). Every byte that reaches
 * the disk is charged to the query's space first, so going over the spill limit fails the write
 * before the disk fills. Not thread-safe.
 */
public final class SpillRunWriter
        implements AutoCloseable
{
    private final SpillSpace space;
    private final SpillFile file;
    private final boolean ownsFile;
    private final String name;
    private final Schema schema;
    private long start;
    private OutputStream disk;
    private ChunkedOutputStream out;
    private final BatchEncoding encoding;
    private BatchStreamWriter batches;
    private long rows;
    private long bytes;
    private boolean done;

    /**
     * @param ownsFile the run is alone in {@code file}, which is closed for writing when the run ends
     * @param streams encrypts and compresses the run (a reader follows its header)
     */
    SpillRunWriter(SpillSpace space, SpillFile file, Schema schema, boolean ownsFile, ExchangeStreamFactory streams)
    {
        this.space = requireNonNull(space, "space is null");
        this.file = requireNonNull(file, "file is null");
        this.ownsFile = ownsFile;
        this.schema = requireNonNull(schema, "schema is null");
        this.start = file.offset();
        this.name = SpillRun.name(file, start, ownsFile);
        this.encoding = BatchEncoding.forSpill(schema);
        try {
            this.disk = new ChargingOutputStream(file.output());
            this.out = streams.newOutputStream(disk, name);
            this.batches = encoding.newWriter(out, schema);
        }
        catch (IOException | RuntimeException e) {
            abort();
            throw e instanceof IOException io ? new ExchangeStorageException("Cannot write spill file", name, io) : (RuntimeException) e;
        }
    }

    /** Appends the rows of {@code batch}, which must have this run's schema. */
    public void write(VectorSchemaRoot batch)
    {
        writing(() -> {
            batches.write(batch);
            rows += batch.getRowCount();
        });
    }

    /**
     * Writes out what was written so far (as a short chunk if need be) and frees the stream's
     * buffers: for a run kept open across many small writes, e.g. one run per partition of a
     * partitioned spill, so that it holds no data between writes.
     */
    public void flush()
    {
        writing(() -> out.endChunk());
    }

    /** Runs one write of an unfinished run; a failure drops the run (and its file if its own). */
    private void writing(Write write)
    {
        if (done) {
            throw new IllegalStateException("spill run " + name + " is finished");
        }
        try {
            write.run();
        }
        catch (IOException e) {
            abort();
            throw new ExchangeStorageException("Cannot write spill file", name, e);
        }
        catch (RuntimeException e) {
            abort();
            throw e;
        }
    }

    private interface Write
    {
        void run()
                throws IOException;
    }

    /** Completes the file; the run can then be read back any number of times. */
    public SpillRun finish()
    {
        if (done) {
            throw new IllegalStateException("spill run " + name + " is finished");
        }
        try {
            batches.finish();
            // finishes the stream and flushes it; the file itself stays open for the next run
            out.close();
            done = true;
            file.runFinished(bytes);
            if (ownsFile) {
                file.closeWriting();
            }
        }
        catch (IOException e) {
            abort();
            throw new ExchangeStorageException("Cannot write spill file", name, e);
        }
        catch (RuntimeException e) {
            abort();
            throw e;
        }
        space.recordRows(rows);
        return new SpillRun(space, file, start, ownsFile, schema, encoding, rows, bytes);
    }

    public long rows()
    {
        return rows;
    }

    /** Drops an unfinished run and its file; does nothing once finished. */
    @Override
    public void close()
    {
        if (!done) {
            abort();
        }
    }

    private void abort()
    {
        done = true;
        try {
            if (out != null) {
                out.abort();
            }
        }
        catch (IOException ignored) {
            // the file is dropped next
        }
        try {
            // a file of its own is deleted, its bytes given back; a shared one keeps the runs
            // finished before, and this run's bytes until they all go
            file.runFailed(bytes);
        }
        catch (UncheckedIOException ignored) {
            // the space's folder is deleted when the query ends
        }
        bytes = 0;
    }

    /** Charges the query's spill space for every byte before it goes to disk. */
    private final class ChargingOutputStream
            extends FilterOutputStream
    {
        ChargingOutputStream(OutputStream out)
        {
            super(out);
        }

        @Override
        public void write(int b)
                throws IOException
        {
            charge(1);
            out.write(b);
        }

        @Override
        public void write(byte[] buffer, int offset, int length)
                throws IOException
        {
            charge(length);
            out.write(buffer, offset, length);
        }

        /** Flushes only: the file outlives the run. */
        @Override
        public void close()
                throws IOException
        {
            out.flush();
        }

        private void charge(long length)
        {
            space.charge(length);
            bytes += length;
        }
    }
}
