package io.ontul.engine.query;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.rex.RexBuilder;

import io.ontul.engine.memory.MemoryPool;
import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.exchange.spill.SpillSpace;
import io.ontul.exchange.spill.SpillStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Everything one running query shares: its allocator (a child of the engine's root with the
 * query's memory budget), its {@link MemoryPool} (the allocator's bytes plus the heap state its
 * operators reserve, and which of them should spill), the worker pool, its spill files and
 * cancellation. Operators see it as their {@link OperatorContext}.
 */
public final class QueryContext
        implements OperatorContext, AutoCloseable
{
    private final String queryId;
    private final String user;
    private final BufferAllocator allocator;
    private final long memoryLimit;
    private final ExecutorService executor;
    private final int parallelism;
    private final java.util.concurrent.atomic.AtomicLong exchangedBytes = new java.util.concurrent.atomic.AtomicLong();
    private final RexBuilder rexBuilder;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final java.util.Set<Runnable> cancelHooks = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.List<AutoCloseable> resources = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicReference<OntulException> cancellation = new AtomicReference<>();
    private final MemoryPool memory;
    private final AtomicReference<SpillSpace> spillSpace = new AtomicReference<>();
    private volatile SpillStore spillStore;

    private final Runnable onClose;

    /**
     * Memory each worker of a query is given at the least. Every worker holds batches of its
     * own (a scan batch, a partial aggregate, a partitioner's buffers), so a query under a small
     * limit runs on fewer workers than the machine has: TPC-H at SF0.1 answers under 4 MB on two
     * workers, where eight fail.
     */
    public static final long MEMORY_PER_WORKER = 2L << 20;

    /**
     * The workers a query under {@code memoryLimit} runs on: {@code parallelism} (the engine's
     * task concurrency), fewer when the limit gives each less than {@link #MEMORY_PER_WORKER},
     * at least one.
     */
    public static int parallelismWithin(long memoryLimit, int parallelism)
    {
        return (int) Math.max(1, Math.min(parallelism, memoryLimit / MEMORY_PER_WORKER));
    }

    public QueryContext(String queryId, BufferAllocator parent, long memoryLimit, ExecutorService executor, int parallelism, RexBuilder rexBuilder)
    {
        this(queryId, parent, memoryLimit, executor, parallelism, rexBuilder, () -> { });
    }

    /** @param onClose runs once when the query closes, after its memory is released */
    public QueryContext(String queryId, BufferAllocator parent, long memoryLimit, ExecutorService executor, int parallelism, RexBuilder rexBuilder, Runnable onClose)
    {
        this(queryId, "", parent, memoryLimit, executor, parallelism, rexBuilder, onClose);
    }

    /**
     * @param user who runs the query ("" for internal work)
     * @param onClose runs once when the query closes, after its memory is released
     */
    public QueryContext(String queryId, String user, BufferAllocator parent, long memoryLimit, ExecutorService executor, int parallelism, RexBuilder rexBuilder, Runnable onClose)
    {
        this.user = requireNonNull(user, "user is null");
        this.onClose = requireNonNull(onClose, "onClose is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.allocator = parent.newChildAllocator("query-" + queryId, 0, memoryLimit);
        this.memoryLimit = memoryLimit;
        this.executor = requireNonNull(executor, "executor is null");
        this.parallelism = parallelism;
        this.rexBuilder = requireNonNull(rexBuilder, "rexBuilder is null");
        this.memory = new MemoryPool(memoryLimit, allocator::getAllocatedMemory, () -> spillStore != null);
    }

    public String queryId()
    {
        return queryId;
    }

    public String user()
    {
        return user;
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

    /** The query's memory: what it holds, its consumers, which of them should spill. */
    public MemoryPool memory()
    {
        return memory;
    }

    @Override
    public MemoryReservation memoryReservation(String consumer, boolean spillable)
    {
        return memory.register(consumer, spillable);
    }

    public long peakMemory()
    {
        return Math.max(memory.peak(), allocator.getPeakMemoryAllocation());
    }

    /** @param cause the refused allocation, kept so that the log shows where memory ran out; may be null */
    public OntulException exceededMemoryLimit(Throwable cause)
    {
        return memory.exceeded(cause);
    }

    /** Lets the query's operators spill to {@code store}; without it they fail at the memory limit. */
    public void enableSpill(SpillStore store)
    {
        this.spillStore = requireNonNull(store, "store is null");
    }

    /** Memory the query holds now: Arrow buffers plus reserved heap state. */
    public long memoryUsed()
    {
        return memory.used();
    }

    public long memoryLimit()
    {
        return memoryLimit;
    }

    @Override
    public void recordExchanged(long bytes)
    {
        exchangedBytes.addAndGet(bytes);
    }

    /** Bytes (Arrow buffers) the query received from other nodes so far, and what its workers' fragments reported they received from their peers. */
    public long exchangedBytes()
    {
        return exchangedBytes.get();
    }

    public boolean canSpill()
    {
        return spillStore != null;
    }

    /** The query's spill files, created on first use and deleted when the query closes. */
    public SpillSpace spillSpace()
    {
        SpillStore store = spillStore;
        if (store == null) {
            throw memory.exceeded(null);
        }
        SpillSpace space = spillSpace.get();
        if (space == null) {
            SpillSpace created = store.forQuery(queryId);
            space = spillSpace.compareAndExchange(null, created);
            if (space == null) {
                space = created;
            }
        }
        if (cancelled.get()) {
            checkCancelled();
        }
        return space;
    }

    /** Spill figures so far, for EXPLAIN ANALYZE and the query list: bytes, files, rows. */
    public SpillStatistics spillStatistics()
    {
        SpillSpace space = spillSpace.get();
        return space == null ? SpillStatistics.NONE : new SpillStatistics(space.spilledBytes(), space.files(), space.spilledRows());
    }

    public void cancel()
    {
        cancelled.set(true);
        runCancelHooks();
    }

    /**
     * Runs {@code hook} when the query is cancelled (at once if it already is), until the returned
     * handle is closed: how a scan interrupts a source blocked in an outside system.
     */
    public AutoCloseable onCancel(Runnable hook)
    {
        requireNonNull(hook, "hook is null");
        cancelHooks.add(hook);
        if (cancelled.get()) {
            runCancelHook(hook);
        }
        return () -> cancelHooks.remove(hook);
    }

    private void runCancelHooks()
    {
        for (Runnable hook : cancelHooks) {
            runCancelHook(hook);
        }
    }

    private static void runCancelHook(Runnable hook)
    {
        try {
            hook.run();
        }
        catch (RuntimeException ignored) {
            // best effort: the reading thread notices the cancellation at its next batch anyway
        }
    }

    /**
     * Cancels the query for a reason its client must see (killed, out of time): operators that
     * notice the cancellation then fail with that code and message. The first reason wins.
     */
    public void cancel(OntulException reason)
    {
        cancellation.compareAndSet(null, requireNonNull(reason, "reason is null"));
        cancelled.set(true);
        runCancelHooks();
    }

    /** The reason given to {@link #cancel(OntulException)}, if any. */
    public Optional<OntulException> cancellation()
    {
        return Optional.ofNullable(cancellation.get());
    }

    public boolean isCancelled()
    {
        return cancelled.get();
    }

    public void checkCancelled()
    {
        if (cancelled.get()) {
            OntulException reason = cancellation.get();
            throw reason == null
                    ? new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was cancelled")
                    : new OntulException(reason.code(), reason.getMessage());
        }
    }

    /**
     * Closes {@code resource} when the query ends, before its allocator: state that outlives the
     * operators that use it (a result several readers share).
     */
    public void closeAtEnd(AutoCloseable resource)
    {
        resources.add(requireNonNull(resource, "resource is null"));
    }

    @Override
    public void close()
    {
        cancelled.set(true);
        try {
            for (AutoCloseable resource : resources) {
                try {
                    resource.close();
                }
                catch (Exception ignored) {
                    // the allocator's close below reports any buffer left behind
                }
            }
            allocator.close();
        }
        finally {
            SpillSpace space = spillSpace.get();
            if (space != null) {
                space.close();
            }
            onClose.run();
        }
    }
}
