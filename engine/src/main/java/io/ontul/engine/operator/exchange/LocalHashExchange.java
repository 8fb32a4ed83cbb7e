package io.ontul.engine.operator.exchange;

import static java.util.Objects.requireNonNull;

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
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.Workers;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Repartitions the rows of a parallel pipeline by a hash of key columns, so that all rows of one
 * key reach the same consumer: between a partial and a final aggregation, it lets several final
 * instances each merge their share of the keys.
 * <p>
 * Protocol: one exchange per plan node and query, with a fixed number of consumers;
 * {@link #consumer}{@code (i)} is opened once for each {@code i}. The first consumer that asks
 * for rows starts the producers: {@code producers} instances of the child pipeline on the
 * query's worker threads. Each producer splits every batch by key hash into one slice per
 * consumer (with one consumer, passes the batch as it is) and puts each slice into that
 * consumer's bounded queue, blocking while it is full
 * (back-pressure; memory of queued slices is the query's). A consumer returns its slices in
 * arrival order and ends when every producer has ended. The first failure of a producer stops
 * the others and is rethrown to every consumer. A consumer closed early gets no more slices
 * (they are dropped); when the last consumer closes, the producers are stopped and awaited and
 * what is still queued is freed. Cancelling the query stops the producers too, so that none
 * waits for a consumer that will never read again. Queues hold fewer slices the more consumers
 * there are, so what is queued stays about the same.
 * <p>
 * NULL keys hash like any other value, so they all meet in one consumer; the partition of a row
 * comes from {@link Columns#remix} of its key hash, independent of the hash bits the consumers'
 * hash tables and spill partitions use.
 */
public final class LocalHashExchange
{
    private static final VectorSchemaRoot END = new VectorSchemaRoot(List.of());
    private static final long PARTITION_SEED = 0x51ED27L;

    private final OperatorContext context;
    private final IntFunction<Operator> pipelines;
    private final int producers;
    private final int[] keyColumns;
    private final List<BlockingQueue<VectorSchemaRoot>> queues = new ArrayList<>();
    private final AtomicBoolean[] consumerClosed;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicInteger openConsumers;
    private final List<Future<?>> futures = new ArrayList<>();
    private AutoCloseable cancelHook;
    private boolean started;

    /**
     * @param pipelines opens instance {@code i} of {@code producers} of the child pipeline
     */
    public LocalHashExchange(OperatorContext context, IntFunction<Operator> pipelines, int producers, int consumers, int[] keyColumns)
    {
        this.context = requireNonNull(context, "context is null");
        this.pipelines = requireNonNull(pipelines, "pipelines is null");
        this.producers = producers;
        this.keyColumns = keyColumns.clone();
        this.consumerClosed = new AtomicBoolean[consumers];
        for (int i = 0; i < consumers; i++) {
            queues.add(new ArrayBlockingQueue<>(Math.max(2, 8 / consumers)));
            consumerClosed[i] = new AtomicBoolean();
        }
        this.openConsumers = new AtomicInteger(consumers);
    }

    public int consumers()
    {
        return queues.size();
    }

    /** The operator of consumer {@code index}: the rows of its share of the keys. */
    public Operator consumer(int index)
    {
        return new Consumer(index);
    }

    private synchronized void start()
    {
        if (started) {
            return;
        }
        started = true;
        cancelHook = context.onCancel(() -> stopped.set(true));
        for (int instance = 0; instance < producers; instance++) {
            int id = instance;
            futures.add(context.executor().submit(() -> produce(id)));
        }
    }

    private void produce(int instance)
    {
        try (Operator pipeline = pipelines.apply(instance)) {
            while (!stopped.get() && failure.get() == null) {
                VectorSchemaRoot batch = pipeline.next();
                if (batch == null) {
                    break;
                }
                if (queues.size() == 1) {
                    // one consumer: the batch itself, as a gather would pass it
                    offer(0, batch);
                    continue;
                }
                try (batch) {
                    distribute(batch);
                }
            }
        }
        catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
        finally {
            for (int consumer = 0; consumer < queues.size(); consumer++) {
                offer(consumer, END);
            }
        }
    }

    private void distribute(VectorSchemaRoot batch)
    {
        int rowCount = batch.getRowCount();
        if (rowCount == 0) {
            return;
        }
        int consumers = queues.size();
        long[] hashes = new long[rowCount];
        for (int key : keyColumns) {
            Columns.hashInto(batch.getVector(key), rowCount, hashes);
        }
        int[] consumerOf = new int[rowCount];
        for (int row = 0; row < rowCount; row++) {
            // the high 32 bits scaled to [0, consumers): any consumer count, no modulo bias worth naming
            consumerOf[row] = (int) (((Columns.remix(hashes[row], PARTITION_SEED) >>> 32) * consumers) >>> 32);
        }
        VectorSchemaRoot[] slices = Batches.scatter(batch, consumerOf, consumers, context.allocator());
        for (int c = 0; c < consumers; c++) {
            if (slices[c] == null) {
                continue;
            }
            if (consumerClosed[c].get()) {
                slices[c].close();
            }
            else {
                offer(c, slices[c]);
            }
        }
    }

    /** Queues a slice for a consumer, waiting for room; drops it when the consumer or the exchange closed. */
    private void offer(int consumer, VectorSchemaRoot slice)
    {
        BlockingQueue<VectorSchemaRoot> queue = queues.get(consumer);
        try {
            while (!stopped.get() && !consumerClosed[consumer].get() && failure.get() == null) {
                if (queue.offer(slice, 50, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // the consumers must not wait for rows that were dropped
            failure.compareAndSet(null, new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + context.queryId() + " was interrupted"));
        }
        if (slice != END) {
            slice.close();
        }
    }

    private void consumerClosed(int consumer)
    {
        consumerClosed[consumer].set(true);
        drain(queues.get(consumer));
        if (openConsumers.decrementAndGet() == 0) {
            stop();
        }
    }

    /** Stops the producers, waits for them (no buffer may be allocated after the query's allocator closes) and frees what is queued. */
    private void stop()
    {
        stopped.set(true);
        List<Future<?>> running;
        AutoCloseable hook;
        synchronized (this) {
            started = true;
            running = List.copyOf(futures);
            hook = cancelHook;
            cancelHook = null;
        }
        Workers.awaitAll(running);
        if (hook != null) {
            try {
                hook.close();
            }
            catch (Exception ignored) {
                // removing a hook from a list does not fail
            }
        }
        queues.forEach(LocalHashExchange::drain);
    }

    private static void drain(BlockingQueue<VectorSchemaRoot> queue)
    {
        VectorSchemaRoot slice;
        while ((slice = queue.poll()) != null) {
            if (slice != END) {
                slice.close();
            }
        }
    }


    private final class Consumer
            implements Operator
    {
        private final int index;
        private final BlockingQueue<VectorSchemaRoot> queue;
        private int ended;
        private boolean closed;

        Consumer(int index)
        {
            this.index = index;
            this.queue = queues.get(index);
        }

        @Override
        public VectorSchemaRoot next()
        {
            start();
            while (true) {
                Throwable error = failure.get();
                if (error != null) {
                    throw Workers.propagate(error);
                }
                if (ended == producers) {
                    return null;
                }
                VectorSchemaRoot slice;
                try {
                    slice = queue.poll(50, TimeUnit.MILLISECONDS);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    context.cancel();
                    throw new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + context.queryId() + " was interrupted");
                }
                if (slice == null) {
                    context.checkCancelled();
                }
                else if (slice == END) {
                    ended++;
                }
                else {
                    return slice;
                }
            }
        }

        @Override
        public void close()
        {
            if (!closed) {
                closed = true;
                consumerClosed(index);
            }
        }
    }
}
