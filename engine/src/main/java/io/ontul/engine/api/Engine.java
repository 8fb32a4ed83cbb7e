package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.engine.memory.DataSize;
import io.ontul.engine.metadata.MetadataStore;
import io.ontul.engine.query.QueryIds;
import io.ontul.engine.query.QueryLimits;
import io.ontul.engine.query.QueryRegistry;
import io.ontul.engine.system.SystemConnector;

/**
 * The in-process engine: catalogs, worker threads and the root of memory accounting. One per
 * process; thread-safe. Open {@link Session}s to run statements.
 */
public final class Engine
        implements AutoCloseable
{
    private final EngineConfig config;
    private final java.util.Optional<io.ontul.engine.api.UserManagement> userManagement;
    private final BufferAllocator rootAllocator;
    private final CatalogManager catalogs;
    private final ExecutorService workers;
    private final int parallelism;
    private final QueryIds queryIds = new QueryIds();
    private final io.ontul.engine.execution.StatementCounters statementCounters = new io.ontul.engine.execution.StatementCounters();
    private final QueryRegistry queries;
    private final io.ontul.engine.exchange.ExchangeManager exchange;
    private final MetadataStore metadata;
    private final boolean ownsMetadata;
    private final io.ontul.engine.streaming.StreamingJobManager streamingJobs;

    private Engine(EngineConfig config, java.util.Optional<MetadataStore> metadata, java.util.Optional<io.ontul.engine.api.UserManagement> userManagement)
    {
        this.config = requireNonNull(config, "config is null");
        this.userManagement = requireNonNull(userManagement, "userManagement is null");
        this.ownsMetadata = metadata.isEmpty();
        this.metadata = metadata.orElseGet(() -> MetadataStore.open(config));
        QueryLimits limits = QueryLimits.fromConfig(config);
        long maxMemory = DataSize.parse(config.property(EngineConfig.MEMORY_MAX, defaultMaxMemory()), EngineConfig.MEMORY_MAX);
        this.rootAllocator = new RootAllocator(maxMemory);
        this.parallelism = Integer.parseInt(config.property(EngineConfig.TASK_CONCURRENCY, String.valueOf(Runtime.getRuntime().availableProcessors())));
        AtomicInteger threadIds = new AtomicInteger();
        this.workers = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "ontul-worker-" + threadIds.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.queries = new QueryRegistry(limits, this::isAdministrator);
        this.exchange = io.ontul.engine.exchange.ExchangeManager.create(config,
                java.util.Optional.ofNullable(System.getenv(io.ontul.engine.exchange.ExchangeManager.MASTER_KEY_VARIABLE)));
        CatalogManager catalogManager;
        try {
            catalogManager = new CatalogManager(config.catalogs(), rootAllocator, parallelism, java.util.Map.of(SystemConnector.CATALOG, new SystemConnector(queries)),
                    this.metadata, java.util.Optional.ofNullable(config.property(MetadataStore.DATA_DIR, null)).map(java.nio.file.Path::of),
                    io.ontul.spi.HostAccessPolicy.of(config.property(io.ontul.spi.HostAccessPolicy.ALLOWED_JDBC_DRIVERS, null),
                            config.property(io.ontul.spi.HostAccessPolicy.ALLOWED_PATHS, null),
                            java.util.Optional.ofNullable(config.property(MetadataStore.DATA_DIR, null)).map(java.nio.file.Path::of),
                            config.property(io.ontul.spi.HostAccessPolicy.ALLOWED_CLIENT_PROPERTIES, null)),
                    io.ontul.engine.metadata.CatalogSecrets.sealedWith(exchange.streams()));
        }
        catch (RuntimeException e) {
            // a catalog file that cannot be loaded stops the start: release what was opened for it
            closeAfterFailedStart(e);
            throw e;
        }
        this.catalogs = catalogManager;
        this.streamingJobs = new io.ontul.engine.streaming.StreamingJobManager(catalogs, rootAllocator, workers, this.metadata.streamingJobs(), exchange::checkpointStore,
                exchange::spillStore, io.ontul.engine.execution.SessionProperties.queryMaxMemory(java.util.Map.of(), config));
        streamingJobs.resumeJobs();
    }

    private void closeAfterFailedStart(RuntimeException failure)
    {
        List<AutoCloseable> opened = new java.util.ArrayList<>(List.of(exchange, workers::shutdownNow, rootAllocator));
        if (ownsMetadata) {
            opened.add(metadata);
        }
        for (AutoCloseable closeable : opened) {
            try {
                closeable.close();
            }
            catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }

    private static String defaultMaxMemory()
    {
        return (Runtime.getRuntime().maxMemory() * 7 / 10) + "B";
    }

    /** An engine with its own metadata store ({@link MetadataStore#open}), closed with the engine. */
    public static Engine create(EngineConfig config)
    {
        return new Engine(config, java.util.Optional.empty(), java.util.Optional.empty());
    }

    /** An engine whose CREATE/ALTER/DROP USER and SHOW USERS work on {@code userManagement}. */
    public static Engine create(EngineConfig config, io.ontul.engine.api.UserManagement userManagement)
    {
        return new Engine(config, java.util.Optional.empty(), java.util.Optional.of(requireNonNull(userManagement, "userManagement is null")));
    }

    /**
     * An engine over a metadata store its caller opened (and closes after the engine), with user
     * management: the server's shape, where users live in the same store.
     */
    public static Engine create(EngineConfig config, MetadataStore metadata, io.ontul.engine.api.UserManagement userManagement)
    {
        return new Engine(config, java.util.Optional.of(requireNonNull(metadata, "metadata is null")),
                java.util.Optional.of(requireNonNull(userManagement, "userManagement is null")));
    }

    public static Engine createEmbedded()
    {
        return create(EngineConfig.embeddedDefaults());
    }

    /** Runtime catalogs, connector entries, users. */
    public MetadataStore metadata()
    {
        return metadata;
    }

    public Session createSession(String user)
    {
        return new Session(this, user);
    }

    /** The users behind CREATE USER and friends; empty outside the server. */
    public java.util.Optional<io.ontul.engine.api.UserManagement> userManagement()
    {
        return userManagement;
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

    /** Spill files and checkpoints: everything that leaves memory. */
    public io.ontul.engine.exchange.ExchangeManager exchange()
    {
        return exchange;
    }

    String nextQueryId()
    {
        return queryIds.next();
    }

    /** CREATE STREAMING JOB and friends: the jobs running in this engine. */
    public io.ontul.engine.streaming.StreamingJobManager streamingJobs()
    {
        return streamingJobs;
    }

    /**
     * Stops a statement of this engine whose client went away or gave up (a cancelled or dropped
     * call): it ends CANCELLED, and whatever still runs it fails with QUERY_CANCELLED. Nothing
     * happens for an unknown or finished statement.
     */
    public void cancel(String queryId)
    {
        queries.cancelByClient(queryId);
    }

    /** The longest statement text accepted, in characters ({@code ontul.query.max-sql-length}). */
    public int maxStatementLength()
    {
        return queries.limits().maxSqlLength();
    }

    /** How many statements the engine parsed and planned. */
    public StatementStatistics statementStatistics()
    {
        return statementCounters;
    }

    /** Every statement being run and the recent ones, with the engine's concurrency and run-time limits. */
    public QueryRegistry queries()
    {
        return queries;
    }

    /** Who sees and may kill every query: {@code admin}, or whom the user management names. */
    private boolean isAdministrator(String user)
    {
        return userManagement.map(users -> users.isAdmin(user)).orElse(user.equals("admin"));
    }

    /**
     * Cancels running and queued queries and waits (up to 10 s) for their owners to close them, so
     * their memory is released before the root allocator closes; then stops the workers and catalogs.
     */
    @Override
    public void close()
    {
        streamingJobs.close();
        queries.cancelAll("the engine is shutting down", java.time.Duration.ofSeconds(10));
        queries.close();
        workers.shutdownNow();
        catalogs.close();
        exchange.close();
        rootAllocator.close();
        if (ownsMetadata) {
            metadata.close();
        }
    }
}
