package io.ontul.engine.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunReader;
import io.ontul.exchange.spill.SpillRunWriter;

/**
 * The result of a subplan that several parts of one query read (a WITH query named twice, the
 * same subquery in two branches of a UNION): computed once, by the first {@link #reader} that
 * asks for a batch, and kept until the query ends. A reader gets every batch, or with its parent
 * split into parallel instances every {@code instances}-th, sharing the kept buffers
 * (reference-counted, as Arrow's IPC loader shares a record batch's), so no reader copies.
 * <p>
 * The kept batches count against the query's memory like any operator's state: when the query's
 * memory pool asks this consumer to spill while it is filling, the batches kept so far and all
 * later ones go to one spill run, and each reader then reads that run from disk (a split parent
 * reads it in its first instance).
 */
public final class SharedResult
        implements AutoCloseable
{
    private final OperatorContext context;
    private final Supplier<Operator> input;
    private final Schema schema;
    private final MemoryReservation memory;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private SpillRun run;
    // filling holds this lock; once filled, batches and run are only read (until the query ends)
    private final Object fillLock = new Object();
    private boolean filled;
    private RuntimeException failure;
    private volatile boolean released;

    /** @param input opens the subplan (once) */
    public SharedResult(OperatorContext context, Supplier<Operator> input, Schema schema)
    {
        this.context = requireNonNull(context, "context is null");
        this.input = requireNonNull(input, "input is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.memory = context.memoryReservation("SharedSubplan", true);
    }

    /** A reader, owned by the caller, of the batches of instance {@code instance} of {@code instances} (every batch for 0 of 1). */
    public Operator reader(int instance, int instances)
    {
        if (released) {
            throw new IllegalStateException("shared result read after the query released it");
        }
        return new Reader(instance, instances);
    }

    /** Computes the result if no reader has yet; rethrows its failure to every reader. */
    private void fill()
    {
        synchronized (fillLock) {
            fillOnce();
        }
    }

    private void fillOnce()
    {
        if (filled) {
            if (failure != null) {
                throw failure;
            }
            return;
        }
        filled = true;
        SpillRunWriter spill = null;
        long held = 0;
        try (Operator operator = input.get()) {
            while (true) {
                VectorSchemaRoot batch = operator.next();
                if (batch == null) {
                    break;
                }
                if (spill != null) {
                    try (batch) {
                        spill.write(batch);
                    }
                }
                else {
                    batches.add(batch);
                    held += Batches.bytes(batch);
                    memory.setHeld(held);
                    if (context.canSpill() && memory.shouldSpill()) {
                        spill = context.spillSpace().newRun(schema);
                        for (VectorSchemaRoot kept : batches) {
                            spill.write(kept);
                        }
                        Batches.closeAll(batches);
                        batches.clear();
                        memory.setHeld(0);
                    }
                }
                context.checkCancelled();
            }
            if (spill != null) {
                run = spill.finish();
            }
        }
        catch (RuntimeException e) {
            failure = e;
            release();
            throw e;
        }
        finally {
            if (spill != null) {
                spill.close();
            }
            memory.setSpillable(false);
        }
    }

    private synchronized void release()
    {
        if (released) {
            return;
        }
        released = true;
        try {
            Batches.closeAll(batches);
            batches.clear();
            if (run != null) {
                run.delete();
            }
        }
        finally {
            memory.close();
        }
    }

    /** Releases what is kept whether or not every reader came: the query ends. */
    @Override
    public void close()
    {
        release();
    }

    /** The batch, sharing its buffers, as a new batch of the query's allocator. */
    private VectorSchemaRoot share(VectorSchemaRoot batch)
    {
        if (batch.getFieldVectors().isEmpty()) {
            return new VectorSchemaRoot(List.of(), List.of(), batch.getRowCount());
        }
        VectorSchemaRoot shared = VectorSchemaRoot.create(schema, context.allocator());
        try (ArrowRecordBatch buffers = new VectorUnloader(batch).getRecordBatch()) {
            new VectorLoader(shared).load(buffers);
            return shared;
        }
        catch (RuntimeException | Error e) {
            shared.close();
            throw e;
        }
    }

    private final class Reader
            implements Operator
    {
        private final int instance;
        private final int instances;
        private int next;
        private SpillRunReader spilled;
        private boolean done;

        private Reader(int instance, int instances)
        {
            this.instance = instance;
            this.instances = instances;
            this.next = instance;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (done) {
                return null;
            }
            fill();
            synchronized (SharedResult.this) {
                if (run != null) {
                    if (instance > 0) {
                        done = true;
                        return null;
                    }
                    if (spilled == null) {
                        spilled = run.open(context.allocator());
                    }
                }
                else if (next < batches.size()) {
                    VectorSchemaRoot batch = share(batches.get(next));
                    next += instances;
                    return batch;
                }
                else {
                    done = true;
                    return null;
                }
            }
            VectorSchemaRoot batch = spilled.next();
            if (batch == null) {
                done = true;
            }
            return batch;
        }

        @Override
        public void close()
        {
            done = true;
            if (spilled != null) {
                spilled.close();
                spilled = null;
            }
        }
    }
}
