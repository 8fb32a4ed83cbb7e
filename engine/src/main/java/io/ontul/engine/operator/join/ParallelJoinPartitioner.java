package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.Workers;


/**
 * Partitions one stream of batches on several threads: the caller's and {@code helpers} worker
 * threads, each with a {@link JoinPartitioner} of its own (same keys, level and fan-out), so
 * that the build side of a spilling join, read by one thread, is hashed, copied and written out
 * in parallel. Batches the caller hands over go to a small queue the helpers take from; when it
 * is full the caller partitions the batch itself, so progress never waits for a helper.
 * <p>
 * Use: {@link #add} batches (taken over), then {@link #finish} once for the runs of every
 * partition, which the caller then owns (each partition's runs from every thread, in one
 * list); {@link #close} always, which stops the helpers and drops what is unfinished. The first
 * failure of a helper is rethrown by the next {@link #add} or by {@link #finish}. Used by one
 * caller thread.
 */
final class ParallelJoinPartitioner
        implements AutoCloseable
{
    private final OperatorContext context;
    private final JoinPartitioner own;
    private final List<JoinPartitioner> helperPartitioners = new ArrayList<>();
    private final List<Future<?>> helpers = new ArrayList<>();
    private final BlockingQueue<VectorSchemaRoot> queue;
    private final AtomicBoolean inputDone = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AutoCloseable cancelHook;
    private boolean closed;

    /** @param partitioners makes one partitioner per thread; each gets an equal share of the buffer budget from the caller */
    ParallelJoinPartitioner(OperatorContext context, int helpers, Supplier<JoinPartitioner> partitioners)
    {
        this.context = requireNonNull(context, "context is null");
        this.queue = new ArrayBlockingQueue<>(Math.max(1, helpers));
        this.own = partitioners.get();
        try {
            for (int i = 0; i < helpers; i++) {
                helperPartitioners.add(partitioners.get());
            }
        }
        catch (RuntimeException e) {
            own.close();
            helperPartitioners.forEach(JoinPartitioner::close);
            throw e;
        }
        this.cancelHook = context.onCancel(() -> stopped.set(true));
        try {
            for (JoinPartitioner partitioner : helperPartitioners) {
                this.helpers.add(context.executor().submit(() -> help(partitioner)));
            }
        }
        catch (RuntimeException e) {
            // e.g. the executor was shut down: stop the helpers already started
            close();
            throw e;
        }
    }

    /** Partitions {@code batch}, on a helper if one is free, else here; takes it over. */
    void add(VectorSchemaRoot batch)
    {
        try {
            checkFailure();
            if (!helpers.isEmpty() && queue.offer(batch)) {
                return;
            }
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
        try (batch) {
            own.add(batch);
        }
    }

    /** Waits for the helpers to partition what is queued, writes every buffer out and returns the runs of each partition. */
    List<JoinPartitionRuns> finish()
    {
        // what is still queued is partitioned here as well, as the helpers may all be busy
        for (VectorSchemaRoot batch = queue.poll(); batch != null; batch = queue.poll()) {
            try (VectorSchemaRoot taken = batch) {
                own.add(taken);
            }
        }
        inputDone.set(true);
        Workers.awaitAll(helpers);
        checkFailure();
        List<List<JoinPartitionRuns>> byThread = new ArrayList<>();
        try {
            byThread.add(own.finish());
            for (JoinPartitioner partitioner : helperPartitioners) {
                byThread.add(partitioner.finish());
            }
        }
        catch (RuntimeException e) {
            // a finished partitioner no longer deletes its runs when closed: they go here
            byThread.forEach(runs -> runs.forEach(JoinPartitionRuns::delete));
            throw e;
        }
        List<JoinPartitionRuns> result = new ArrayList<>();
        for (int p = 0; p < byThread.get(0).size(); p++) {
            List<JoinPartitionRuns> parts = new ArrayList<>();
            for (List<JoinPartitionRuns> runs : byThread) {
                parts.add(runs.get(p));
            }
            result.add(JoinPartitionRuns.concat(parts));
        }
        return result;
    }

    private void help(JoinPartitioner partitioner)
    {
        try {
            while (!stopped.get()) {
                VectorSchemaRoot batch = queue.poll(10, TimeUnit.MILLISECONDS);
                if (batch == null) {
                    if (inputDone.get()) {
                        return;
                    }
                    continue;
                }
                try (batch) {
                    partitioner.add(batch);
                }
            }
        }
        catch (InterruptedException e) {
            failure.compareAndSet(null, new IllegalStateException("a join's build partitioner was interrupted", e));
            stopped.set(true);
        }
        catch (Throwable t) {
            failure.compareAndSet(null, t);
            stopped.set(true);
        }
    }

    private void checkFailure()
    {
        context.checkCancelled();
        Throwable error = failure.get();
        if (error != null) {
            throw Workers.propagate(error);
        }
    }

    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        stopped.set(true);
        inputDone.set(true);
        Workers.awaitAll(helpers);
        for (VectorSchemaRoot batch = queue.poll(); batch != null; batch = queue.poll()) {
            batch.close();
        }
        try {
            cancelHook.close();
        }
        catch (Exception ignored) {
            // removing a hook from a list does not fail
        }
        // unless finished, each drops its buffers and the runs it wrote; all are closed whatever one throws
        RuntimeException failure = null;
        List<JoinPartitioner> all = new ArrayList<>();
        all.add(own);
        all.addAll(helperPartitioners);
        for (JoinPartitioner partitioner : all) {
            try {
                partitioner.close();
            }
            catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
                else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
