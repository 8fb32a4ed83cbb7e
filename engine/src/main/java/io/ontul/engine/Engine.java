package io.ontul.engine;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.engine.memory.DataSize;

/**
 * The in-process engine: catalogs, worker threads and the root of memory accounting. One per
 * process; thread-safe. Open {@link Session}s to run statements.
 */
public final class Engine
        implements AutoCloseable
{
    private final EngineConfig config;
    private final BufferAllocator rootAllocator;
    private final CatalogManager catalogs;
    private final ExecutorService workers;
    private final int parallelism;
    private final AtomicLong queryCounter = new AtomicLong();
    private final java.util.Set<io.ontul.engine.execution.QueryContext> runningQueries = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private Engine(EngineConfig config)
    {
        this.config = requireNonNull(config, "config is null");
        long maxMemory = DataSize.parse(config.property(EngineConfig.MEMORY_MAX, defaultMaxMemory()), EngineConfig.MEMORY_MAX);
        this.rootAllocator = new RootAllocator(maxMemory);
        this.parallelism = Integer.parseInt(config.property(EngineConfig.TASK_CONCURRENCY, String.valueOf(Runtime.getRuntime().availableProcessors())));
        AtomicInteger threadIds = new AtomicInteger();
        this.workers = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "ontul-worker-" + threadIds.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.catalogs = new CatalogManager(config.catalogs(), rootAllocator, parallelism);
    }

    private static String defaultMaxMemory()
    {
        return (Runtime.getRuntime().maxMemory() * 7 / 10) + "B";
    }

    public static Engine create(EngineConfig config)
    {
        return new Engine(config);
    }

    public static Engine createEmbedded()
    {
        return new Engine(EngineConfig.embeddedDefaults());
    }

    public Session createSession(String user)
    {
        return new Session(this, user);
    }

    public EngineConfig config()
    {
        return config;
    }

    public CatalogManager catalogs()
    {
        return catalogs;
    }

    public BufferAllocator rootAllocator()
    {
        return rootAllocator;
    }

    public ExecutorService workers()
    {
        return workers;
    }

    public int parallelism()
    {
        return parallelism;
    }

    String nextQueryId()
    {
        return String.format("q%06d", queryCounter.incrementAndGet());
    }

    /** Called by a query when it starts; it calls {@link #queryFinished} when it closes. */
    public void queryStarted(io.ontul.engine.execution.QueryContext query)
    {
        runningQueries.add(query);
    }

    public void queryFinished(io.ontul.engine.execution.QueryContext query)
    {
        synchronized (runningQueries) {
            runningQueries.remove(query);
            runningQueries.notifyAll();
        }
    }

    /**
     * Cancels running queries and waits (up to 10 s) for their owners to close them, so their
     * memory is released before the root allocator closes; then stops the workers and catalogs.
     */
    @Override
    public void close()
    {
        runningQueries.forEach(io.ontul.engine.execution.QueryContext::cancel);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        synchronized (runningQueries) {
            while (!runningQueries.isEmpty() && System.nanoTime() < deadline) {
                try {
                    runningQueries.wait(100);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        workers.shutdownNow();
        catalogs.close();
        rootAllocator.close();
    }
}
