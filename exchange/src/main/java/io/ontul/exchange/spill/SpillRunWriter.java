package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.exchange.arrow.ArrowBatchWriter;
import io.ontul.exchange.crypto.ChunkedOutputStream;

/**
 * Writes one spill run: Arrow IPC stream format inside an exchange file (encrypted and
 * compressed as configured). {@link #write} copies nothing: the caller keeps and closes its
 * batch. {@link #finish} completes the file and returns the {@link SpillRun}; {@link #close}
 * without finishing deletes the file. Every byte that reaches the disk is charged to the query's
 * space first, so going over the spill limit fails the write before the disk fills. Not
 * thread-safe.
 */
public final class SpillRunWriter
        implements AutoCloseable
{
    private final SpillSpace space;
    private final Path file;
    private final Schema schema;
    private OutputStream disk;
    private ChunkedOutputStream out;
    private ArrowBatchWriter batches;
    private long rows;
    private long bytes;
    private boolean done;

    SpillRunWriter(SpillSpace space, Path file, Schema schema)
    {
        this.space = requireNonNull(space, "space is null");
        this.file = requireNonNull(file, "file is null");
        this.schema = requireNonNull(schema, "schema is null");
        try {
            this.disk = new ChargingOutputStream(new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 64 * 1024));
            this.out = space.store().streams().newOutputStream(disk, file.toString());
            this.batches = new ArrowBatchWriter(out, schema);
        }
        catch (IOException | RuntimeException e) {
            abort();
            throw e instanceof IOException io ? new UncheckedIOException("Cannot write spill file " + file, io) : (RuntimeException) e;
        }
    }

    /** Appends the rows of {@code batch}, which must have this run's schema. */
    public void write(VectorSchemaRoot batch)
    {
        if (done) {
            throw new IllegalStateException("spill run " + file + " is finished");
        }
        try {
            batches.write(batch);
            rows += batch.getRowCount();
        }
        catch (IOException e) {
            abort();
            throw new UncheckedIOException("Cannot write spill file " + file, e);
        }
        catch (RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Completes the file; the run can then be read back any number of times. */
    public SpillRun finish()
    {
        if (done) {
            throw new IllegalStateException("spill run " + file + " is finished");
        }
        try {
            batches.finish();
            out.close();
            done = true;
        }
        catch (IOException e) {
            abort();
            throw new UncheckedIOException("Cannot write spill file " + file, e);
        }
        catch (RuntimeException e) {
            abort();
            throw e;
        }
        space.recordRows(rows);
        return new SpillRun(space, file, schema, rows, bytes);
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
            else if (disk != null) {
                disk.close();
            }
        }
        catch (IOException ignored) {
            // the file is deleted next
        }
        try {
            Files.deleteIfExists(file);
        }
        catch (IOException ignored) {
            // the space's folder is deleted when the query ends
        }
        space.released(bytes);
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

        private void charge(long length)
        {
            space.charge(length);
            bytes += length;
        }
    }
}
