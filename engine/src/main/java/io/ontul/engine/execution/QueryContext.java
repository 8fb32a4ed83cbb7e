package io.ontul.engine.execution;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.rex.RexBuilder;

import io.ontul.engine.memory.DataSize;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Everything one running query shares: its allocator (a child of the engine's root with the
 * query's memory budget), the worker pool, cancellation, and the heap reservations of
 * operators whose state lives in Java arrays (hash tables, sort indexes).
 * <p>
 * Memory protocol: Arrow buffers count against the query allocator's limit directly. Operators
 * that grow Java-heap state call {@link #reserve} before growing and {@link #release} when
 * done; a reservation that would take the query over its budget fails with
 * INSUFFICIENT_RESOURCES (the hook where spilling will plug in).
 */
public final class QueryContext
        implements AutoCloseable
{
    private final String queryId;
    private final BufferAllocator allocator;
    private final long memoryLimit;
    private final ExecutorService executor;
    private final int parallelism;
    private final RexBuilder rexBuilder;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicLong heapReserved = new AtomicLong();
    private final AtomicLong peakMemory = new AtomicLong();

    private final Runnable onClose;

    public QueryContext(String queryId, BufferAllocator parent, long memoryLimit, ExecutorService executor, int parallelism, RexBuilder rexBuilder)
    {
        this(queryId, parent, memoryLimit, executor, parallelism, rexBuilder, () -> { });
    }

    /** @param onClose runs once when the query closes, after its memory is released */
    public QueryContext(String queryId, BufferAllocator parent, long memoryLimit, ExecutorService executor, int parallelism, RexBuilder rexBuilder, Runnable onClose)
    {
        this.onClose = requireNonNull(onClose, "onClose is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.allocator = parent.newChildAllocator("query-" + queryId, 0, memoryLimit);
        this.memoryLimit = memoryLimit;
        this.executor = requireNonNull(executor, "executor is null");
        this.parallelism = parallelism;
        this.rexBuilder = requireNonNull(rexBuilder, "rexBuilder is null");
    }

    public String queryId()
    {
        return queryId;
    }

    public BufferAllocator allocator()
    {
        return allocator;
    }

    public ExecutorService executor()
    {
        return executor;
    }

    public int parallelism()
    {
        return parallelism;
    }

    public RexBuilder rexBuilder()
    {
        return rexBuilder;
    }

    public void reserve(long bytes)
    {
        long total = heapReserved.addAndGet(bytes);
        long used = total + allocator.getAllocatedMemory();
        peakMemory.accumulateAndGet(used, Math::max);
        if (used > memoryLimit) {
            heapReserved.addAndGet(-bytes);
            throw exceededMemoryLimit();
        }
    }

    public void release(long bytes)
    {
        heapReserved.addAndGet(-bytes);
    }

    public long peakMemory()
    {
        return Math.max(peakMemory.get(), allocator.getPeakMemoryAllocation());
    }

    public OntulException exceededMemoryLimit()
    {
        return new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "Query exceeded per-query memory limit of " + DataSize.format(memoryLimit)
                + " (raise it with SET SESSION query_max_memory = '...')");
    }

    public void cancel()
    {
        cancelled.set(true);
    }

    public boolean isCancelled()
    {
        return cancelled.get();
    }

    public void checkCancelled()
    {
        if (cancelled.get()) {
            throw new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was cancelled");
        }
    }

    @Override
    public void close()
    {
        cancelled.set(true);
        try {
            allocator.close();
        }
        finally {
            onClose.run();
        }
    }
}
