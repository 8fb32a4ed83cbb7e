package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Threads that encode batches into Parquet files, each with its own {@link IcebergFileWriters}.
 * Parquet encoding costs far more than producing the rows, and the engine may append from one
 * thread only, so the sink hands copies of the batches to these threads through a short queue
 * (which bounds the memory held) and returns.
 * <p>
 * Protocol: {@link #write} any number of times, then one of {@link #finish()} (all files
 * complete) or {@link #abandon()} (stop, report every file started). A failure of a worker is
 * rethrown by the next {@code write} and by {@code finish}; the batches queued after it are
 * dropped.
 */
final class IcebergWriterPool
{
    private static final Item END = new Item(null);

    private final String tableName;
    private final BlockingQueue<Item> queue;
    private final List<IcebergFileWriters> writers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private boolean ended;

    IcebergWriterPool(String tableName, int threadCount, Supplier<IcebergFileWriters> newWriters)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.queue = new ArrayBlockingQueue<>(2 * threadCount);
        for (int i = 0; i < threadCount; i++) {
            IcebergFileWriters threadWriters = newWriters.get();
            writers.add(threadWriters);
            Thread thread = new Thread(() -> work(threadWriters), "iceberg-writer-" + tableName + "-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    /** Takes ownership of {@code batch}; blocks while every worker is busy and the queue is full. */
    void write(VectorSchemaRoot batch)
    {
        Item item = new Item(batch);
        try {
            while (true) {
                rethrowFailure();
                if (queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        }
        catch (InterruptedException e) {
            batch.close();
            Thread.currentThread().interrupt();
            throw new OntulException(ErrorCode.QUERY_CANCELLED, "The write to table '%s' was interrupted".formatted(tableName), e);
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    /** Waits for every queued batch to be written and every file to be closed; returns the files. */
    List<DataFile> finish()
    {
        end();
        rethrowFailure();
        List<DataFile> files = new ArrayList<>();
        for (IcebergFileWriters threadWriters : writers) {
            files.addAll(threadWriters.finish());
        }
        return files;
    }

    /** Stops the workers, dropping what is queued; returns the location of every file started. */
    List<String> abandon()
    {
        Item item;
        while ((item = queue.poll()) != null) {
            if (item.batch() != null) {
                item.batch().close();
            }
        }
        end();
        List<String> locations = new ArrayList<>();
        for (IcebergFileWriters threadWriters : writers) {
            locations.addAll(threadWriters.abandon());
        }
        return locations;
    }

    private void end()
    {
        if (ended) {
            return;
        }
        ended = true;
        boolean interrupted = false;
        for (int i = 0; i < threads.size(); i++) {
            while (true) {
                try {
                    queue.put(END);
                    break;
                }
                catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                try {
                    thread.join();
                }
                catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void work(IcebergFileWriters threadWriters)
    {
        while (true) {
            Item item;
            try {
                item = queue.take();
            }
            catch (InterruptedException e) {
                failure.compareAndSet(null, e);
                return;
            }
            if (item == END) {
                return;
            }
            try (VectorSchemaRoot batch = item.batch()) {
                if (failure.get() == null) {
                    threadWriters.write(batch);
                }
            }
            catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }
    }

    private void rethrowFailure()
    {
        Throwable failed = failure.get();
        if (failed == null) {
            return;
        }
        if (failed instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failed instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("writer thread of table '" + tableName + "' failed", failed);
    }

    private record Item(VectorSchemaRoot batch) {}
}
