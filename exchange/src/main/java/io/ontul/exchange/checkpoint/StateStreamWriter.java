package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.exchange.arrow.ArrowBatchWriter;

/**
 * One named state stream of a task snapshot: Arrow batches of one schema, read back in the order
 * written (Arrow IPC stream format inside an exchange file). Opened with
 * {@link TaskSnapshotWriter#stream}; {@link #write} copies nothing, the caller keeps and closes
 * its batch. {@link #finish} completes the file early; otherwise
 * {@link TaskSnapshotWriter#finish} does. A failed write leaves the stream failed, and the task
 * snapshot cannot be finished. Dictionary-encoded vectors are not supported. Not thread-safe.
 */
public final class StateStreamWriter
{
    private final String name;
    private final Schema schema;
    private final PendingFile file;
    private final ArrowBatchWriter batchWriter;
    private long batches;
    private long rows;
    private State state = State.OPEN;

    private enum State { OPEN, FINISHED, FAILED }

    StateStreamWriter(String name, Schema schema, PendingFile file)
            throws IOException
    {
        this.name = requireNonNull(name, "name is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.file = requireNonNull(file, "file is null");
        this.batchWriter = new ArrowBatchWriter(file.stream(), schema);
    }

    public String name()
    {
        return name;
    }

    public Schema schema()
    {
        return schema;
    }

    /** Appends the rows of {@code batch}, which must have this stream's schema. */
    public void write(VectorSchemaRoot batch)
    {
        requireNonNull(batch, "batch is null");
        checkOpen();
        if (!batch.getSchema().equals(schema)) {
            throw new IllegalArgumentException("Batch schema " + batch.getSchema() + " does not match the schema of state stream " + name + ": " + schema);
        }
        try {
            batchWriter.write(batch);
            batches++;
            rows += batch.getRowCount();
        }
        catch (IOException e) {
            fail();
            throw CheckpointFailures.cannotWrite(file.target(), e);
        }
        catch (RuntimeException e) {
            fail();
            throw e;
        }
    }

    /** Completes the stream's file (synced and in place under its final name). Idempotent. */
    public void finish()
    {
        if (state == State.FINISHED) {
            return;
        }
        checkOpen();
        try {
            batchWriter.finish();
            file.commit();
            state = State.FINISHED;
        }
        catch (IOException e) {
            fail();
            throw CheckpointFailures.cannotWrite(file.target(), e);
        }
        catch (RuntimeException e) {
            fail();
            throw e;
        }
    }

    public long batches()
    {
        return batches;
    }

    public long rows()
    {
        return rows;
    }

    boolean isFailed()
    {
        return state == State.FAILED;
    }

    StateStreamSummary summary()
    {
        return new StateStreamSummary(name, batches, rows);
    }

    /** Drops the file if it is not finished. */
    void abort()
    {
        if (state == State.OPEN) {
            state = State.FAILED;
        }
        file.abort();
    }

    private void fail()
    {
        state = State.FAILED;
        file.abort();
    }

    private void checkOpen()
    {
        switch (state) {
            case OPEN -> { }
            case FINISHED -> throw new IllegalStateException("State stream " + name + " is finished");
            case FAILED -> throw new IllegalStateException("State stream " + name + " failed earlier; close the task snapshot and retry the checkpoint");
        }
    }
}
