package io.ontul.engine.operator.exchange;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.Workers;
import io.ontul.spi.OntulException;

/**
 * Runs several instances of a pipeline on worker threads and merges their batches into one
 * stream, in arrival order. A bounded queue gives back-pressure: producers block when the
 * consumer is slow. The queue is bounded in bytes too, to an eighth of the query's memory (but
 * takes any one batch when it holds none): under a small limit, batches of wide rows waiting here
 * would otherwise leave the consumer no room before it spills. The first failure of any
 * instance stops all of them and is rethrown to the consumer.
 */
public final class GatherOperator
        implements Operator
{
    private static final VectorSchemaRoot END = new VectorSchemaRoot(List.of());

    private final OperatorContext context;
    private final IntFunction<Operator> pipelines;
    private final int instances;
    private final BlockingQueue<VectorSchemaRoot> queue;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<Future<?>> futures = new ArrayList<>();
    private final long maxQueuedBytes;
    // bytes of the batches in the queue or about to be put there; guarded by itself
    private final long[] queuedBytes = new long[1];
    private int finished;
    private boolean started;

    public GatherOperator(OperatorContext context, IntFunction<Operator> pipelines, int instances)
    {
        this.context = context;
        this.pipelines = pipelines;
        this.instances = instances;
        this.queue = new ArrayBlockingQueue<>(Math.max(4, instances * 2));
        this.maxQueuedBytes = Math.max(1, context.memoryLimit() / 8);
    }

    private void start()
    {
        started = true;
        AtomicInteger remaining = new AtomicInteger(instances);
        for (int instance = 0; instance < instances; instance++) {
            int id = instance;
            futures.add(context.executor().submit(() -> run(id, remaining)));
        }
    }

    private void run(int instance, AtomicInteger remaining)
    {
        try (Operator pipeline = pipelines.apply(instance)) {
            while (!closed.get() && failure.get() == null) {
                VectorSchemaRoot batch = pipeline.next();
                if (batch == null) {
                    break;
                }
                if (!offer(batch)) {
                    batch.close();
                    break;
                }
            }
        }
        catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
        finally {
            offer(END);
        }
    }

    private boolean offer(VectorSchemaRoot batch)
    {
        long bytes = batch == END ? 0 : Batches.bytes(batch);
        long counted = 0;
        try {
            synchronized (queuedBytes) {
                // what is counted is queued or about to be: nothing counted, and any one batch may go
                while (!closed.get() && bytes > 0 && queuedBytes[0] > 0 && queuedBytes[0] + bytes > maxQueuedBytes) {
                    queuedBytes.wait(50);
                }
                queuedBytes[0] += bytes;
                counted = bytes;
            }
            while (!closed.get()) {
                if (queue.offer(batch, 50, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        dequeued(counted);
        return false;
    }

    private void dequeued(long bytes)
    {
        if (bytes > 0) {
            synchronized (queuedBytes) {
                queuedBytes[0] -= bytes;
                queuedBytes.notifyAll();
            }
        }
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (!started) {
            start();
        }
        while (true) {
            Throwable error = failure.get();
            if (error != null) {
                throw Workers.propagate(error);
            }
            if (finished == instances) {
                return null;
            }
            VectorSchemaRoot batch;
            try {
                batch = queue.poll(50, TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                context.cancel();
                throw new OntulException(io.ontul.spi.ErrorCode.QUERY_CANCELLED, "Query " + context.queryId() + " was interrupted");
            }
            if (batch == null) {
                context.checkCancelled();
                continue;
            }
            if (batch == END) {
                finished++;
                continue;
            }
            dequeued(Batches.bytes(batch));
            return batch;
        }
    }


    @Override
    public void close()
    {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        synchronized (queuedBytes) {
            // producers waiting for room see that the query is closing
            queuedBytes.notifyAll();
        }
        Workers.awaitAll(futures);
        VectorSchemaRoot batch;
        while ((batch = queue.poll()) != null) {
            if (batch != END) {
                batch.close();
            }
        }
    }
}
