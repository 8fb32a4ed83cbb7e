package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.spi.DataSize;
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
    /** The environment variable that may hold the metadata store's password, over {@code ontul.metadata.password}. */
    public static final String METADATA_PASSWORD_VARIABLE = "ONTUL_METADATA_PASSWORD";

    private final EngineConfig config;
    private final java.util.Optional<io.ontul.engine.api.UserManagement> userManagement;
    private final java.util.Optional<UserAccounts> accounts;
    private final io.ontul.engine.security.AccessControl accessControl;
    private final BufferAllocator rootAllocator;
    private final CatalogManager catalogs;
    /** On a worker: its shares of fragments its peers read (broadcast and repartition exchanges between workers). */
    private final io.ontul.engine.scheduler.PeerOutputs peerOutputs;
    private final ExecutorService workers;
    private final int parallelism;
    private final QueryIds queryIds = new QueryIds();
    private final io.ontul.engine.execution.StatementCounters statementCounters = new io.ontul.engine.execution.StatementCounters();
    private final QueryRegistry queries;
    private final io.ontul.engine.exchange.ExchangeManager exchange;
    private final MetadataStore metadata;
    private final io.ontul.engine.stream.job.StreamingJobManager streamingJobs;
    private final io.ontul.engine.api.cluster.ClusterConfig clusterConfig;
    private final io.ontul.engine.api.cluster.ClusterMembership cluster;
    private final io.ontul.engine.scheduler.QueryScheduler scheduler;
    private final io.ontul.engine.scheduler.FragmentHistory fragmentHistory = new io.ontul.engine.scheduler.FragmentHistory();

    /**
     * @param userManagement the users CREATE USER changes, when someone else keeps them
     * @param administrator when present, the users live in the metadata store ({@link #accounts()})
     *        and this one administers them
     */
    private Engine(EngineConfig config, java.util.Optional<io.ontul.engine.api.UserManagement> userManagement, java.util.Optional<String> administrator)
    {
        this.config = requireNonNull(config, "config is null");
        this.clusterConfig = io.ontul.engine.api.cluster.ClusterConfig.from(config.properties(), dataDirectory(config),
                java.util.Optional.ofNullable(System.getenv(io.ontul.engine.api.cluster.ClusterConfig.SECRET_VARIABLE)));
        QueryLimits limits = QueryLimits.fromConfig(config);
        long maxMemory = DataSize.parse(config.property(EngineConfig.MEMORY_MAX, defaultMaxMemory()), EngineConfig.MEMORY_MAX);
        this.rootAllocator = new RootAllocator(maxMemory);
        this.peerOutputs = new io.ontul.engine.scheduler.PeerOutputs(rootAllocator.newChildAllocator("peer-outputs", 0, Long.MAX_VALUE));
        this.parallelism = Integer.parseInt(config.property(EngineConfig.TASK_CONCURRENCY, String.valueOf(Runtime.getRuntime().availableProcessors())));
        AtomicInteger threadIds = new AtomicInteger();
        this.workers = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "ontul-worker-" + threadIds.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.queries = new QueryRegistry(limits, this::isAdministrator);
        this.cluster = new io.ontul.engine.api.cluster.ClusterMembership(clusterConfig, this::localStatus, java.time.Clock.systemUTC());
        this.scheduler = new io.ontul.engine.scheduler.QueryScheduler(() -> cluster.activeWorkers().stream()
                .map(node -> new io.ontul.engine.scheduler.QueryScheduler.Worker(node.nodeId(), node.address(), node.status().catalogs()))
                .toList());
        this.exchange = io.ontul.engine.exchange.ExchangeManager.create(config,
                java.util.Optional.ofNullable(System.getenv(io.ontul.engine.exchange.ExchangeManager.MASTER_KEY_VARIABLE)),
                clusterConfig.role() == io.ontul.engine.api.cluster.NodeRole.ALL ? "spill" : "spill/" + clusterConfig.nodeId());
        // the metadata store, and the users in it, once the configuration is known to be good
        MetadataStore opened;
        try {
            // the password may come from the environment (a container's secret) rather than the file
            String password = System.getenv(METADATA_PASSWORD_VARIABLE);
            opened = MetadataStore.open(password == null || password.isEmpty() ? config : config.withProperty(MetadataStore.PASSWORD, password));
        }
        catch (RuntimeException e) {
            for (AutoCloseable closeable : List.<AutoCloseable>of(exchange, workers::shutdownNow, rootAllocator)) {
                try {
                    closeable.close();
                }
                catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        this.metadata = opened;
        try {
            if (administrator.isPresent()) {
                io.ontul.engine.security.UserStore users = io.ontul.engine.security.UserStore.open(metadata.users(), dataDirectory(config),
                        new io.ontul.engine.security.PasswordHasher());
                io.ontul.engine.security.AuditLog audit = dataDirectory(config).map(io.ontul.engine.security.AuditLog::in).orElse(io.ontul.engine.security.AuditLog.NONE);
                io.ontul.engine.security.Grants grants = new io.ontul.engine.security.Grants(metadata.grants(), administrator.get(),
                        config.property(io.ontul.engine.security.Grants.DEFAULT_GRANTS, null), audit);
                this.accounts = java.util.Optional.of(UserAccounts.over(users, audit));
                this.accessControl = grants;
                this.userManagement = java.util.Optional.of(new StoredUserManagement(users, grants));
            }
            else {
                this.accounts = java.util.Optional.empty();
                this.accessControl = io.ontul.engine.security.AccessControl.ALLOW_ALL;
                this.userManagement = requireNonNull(userManagement, "userManagement is null");
            }
        }
        catch (RuntimeException e) {
            closeAfterFailedStart(e);
            throw e;
        }
        // system.runtime.stream_tasks reads the streaming job manager, made after the catalogs
        java.util.concurrent.atomic.AtomicReference<io.ontul.engine.stream.job.StreamingJobManager> streamingJobsOnceMade = new java.util.concurrent.atomic.AtomicReference<>();
        CatalogManager catalogManager;
        try {
            catalogManager = new CatalogManager(config.catalogs(), rootAllocator, parallelism, java.util.Map.of(SystemConnector.CATALOG, new SystemConnector(queries, accessControl.audit(),
                    () -> streamTaskRows(streamingJobsOnceMade.get(), clusterConfig.nodeId()), this::nodeRows)),
                    this.metadata, dataDirectory(config),
                    io.ontul.spi.HostAccessPolicy.of(config.property(io.ontul.spi.HostAccessPolicy.ALLOWED_JDBC_DRIVERS, null),
                            config.property(io.ontul.spi.HostAccessPolicy.ALLOWED_PATHS, null),
                            dataDirectory(config),
                            config.property(io.ontul.spi.HostAccessPolicy.ALLOWED_CLIENT_PROPERTIES, null)),
                    io.ontul.engine.metadata.CatalogSecrets.sealedWith(exchange.streams()));
        }
        catch (RuntimeException e) {
            // a catalog file that cannot be loaded stops the start: release what was opened for it
            closeAfterFailedStart(e);
            throw e;
        }
        this.catalogs = catalogManager;
        this.streamingJobs = new io.ontul.engine.stream.job.StreamingJobManager(catalogs, rootAllocator, workers, this.metadata.streamingJobs(), exchange::checkpointStore,
                exchange::spillStore, io.ontul.engine.execution.SessionProperties.queryMaxMemory(java.util.Map.of(), config), accessControl,
                config.property(EngineConfig.STREAMING_DEFAULT_PARALLELISM, "1"),
                new io.ontul.engine.stream.job.StreamCluster(clusterConfig.role() == io.ontul.engine.api.cluster.NodeRole.COORDINATOR, scheduler::activeWorkers,
                        clusterConfig.workerTimeout(), clusterConfig.heartbeatInterval()));
        streamingJobsOnceMade.set(streamingJobs);
        if (clusterConfig.role() != io.ontul.engine.api.cluster.NodeRole.WORKER) {
            // the jobs are the coordinator's to run: a worker that shares the metadata store must not start them too
            streamingJobs.resumeJobs();
        }
    }

    /** This process's figures as a member of the cluster: its statements and streaming tasks count as its tasks. */
    public io.ontul.engine.api.cluster.NodeStatus localStatus()
    {
        io.ontul.engine.stream.job.StreamingJobManager jobs = streamingJobs;
        return new io.ontul.engine.api.cluster.NodeStatus(Runtime.getRuntime().availableProcessors(), rootAllocator.getLimit(), rootAllocator.getAllocatedMemory(),
                queries.running() + (jobs == null ? 0 : jobs.tasks().size()), catalogs == null ? java.util.Set.of() : new java.util.TreeSet<>(catalogs.names()));
    }

    /** The role, node id, coordinator and secret of this process ({@code ontul.cluster.*}). */
    public io.ontul.engine.api.cluster.ClusterConfig clusterConfig()
    {
        return clusterConfig;
    }

    /** The members of the cluster as this process knows them (on a worker: itself only). */
    public io.ontul.engine.api.cluster.ClusterMembership cluster()
    {
        return cluster;
    }

    /** The coordinator's scheduler: places the fragments of queries on the active workers. */
    public io.ontul.engine.scheduler.QueryScheduler scheduler()
    {
        return scheduler;
    }

    /**
     * The transport to the workers: once installed (by the server), queries whose tables every node
     * reads run their scans and the pipelines above them on the active workers.
     */
    public void useRemoteTasks(io.ontul.spi.cluster.RemoteTasks tasks)
    {
        scheduler.useRemoteTasks(tasks);
    }

    /**
     * The transport between the nodes for streaming jobs: once installed (by the server), a
     * coordinator places the tasks of its jobs on the active workers, and a worker's tasks reach
     * the tasks of other workers.
     */
    public void useStreamTransport(io.ontul.spi.cluster.StreamTransport transport)
    {
        streamingJobs.cluster().useTransport(transport);
    }

    /**
     * On a worker: prepares its tasks of one attempt of a streaming job its coordinator placed
     * here, and reports to {@code reports} ({@link io.ontul.spi.cluster.StreamReport.Kind#PREPARED}
     * first); the tasks run until the session is closed. {@code failed} is told when the session
     * cannot go on: the caller ends it with that failure.
     */
    public io.ontul.spi.cluster.StreamTransport.WorkerSession openStreamSession(io.ontul.spi.cluster.StreamAttemptRequest request,
            java.util.function.Consumer<io.ontul.spi.cluster.StreamReport> reports, java.util.function.Consumer<RuntimeException> failed)
    {
        return streamingJobs.host().open(request, reports, failed);
    }

    /** On a worker that shuts down: stops the streaming tasks its coordinators placed here and tells them. */
    public void stopStreamTasks()
    {
        streamingJobs.host().close();
    }

    /** On a worker: delivers a channel from a task on another worker into one of its window tasks, until the channel or the task's attempt ends. */
    public void receiveStreamChannel(io.ontul.spi.cluster.ChannelTarget target, io.ontul.spi.cluster.ChannelInbound inbound)
    {
        streamingJobs.host().receive(target, inbound);
    }

    /**
     * On a worker: runs its share of a fragment of a statement its coordinator planned, as the
     * coordinator's user, with the coordinator's session settings; the result streams the
     * fragment's rows.
     */
    public QueryResult runFragment(io.ontul.spi.cluster.FragmentRequest request)
    {
        return runFragment(request, () -> false);
    }

    /**
     * @param abandoned whether the caller no longer wants the rows (the coordinator cancelled its
     * call): planning, which takes a while on a cold worker, stops at its next check, and the
     * fragment does not start
     */
    public QueryResult runFragment(io.ontul.spi.cluster.FragmentRequest request, java.util.function.BooleanSupplier abandoned)
    {
        if (request.consumer() >= 0) {
            // a peer reads this worker's share of a fragment nested in its own: computed once, for every peer (one leaving does not stop it)
            io.ontul.engine.scheduler.PeerOutputs.Stream stream = peerOutputs.read(request, () -> streamOf(executeFragment(request, () -> false)));
            return new PeerResult(request.queryId() + ".f" + request.fragment(), stream);
        }
        return executeFragment(request, abandoned);
    }

    /** On a worker, periodically: stops its shares of fragments that no peer has read for a while (a peer's query failed first). */
    public void reapIdleFragmentOutputs()
    {
        peerOutputs.reapIdle();
    }

    private QueryResult executeFragment(io.ontul.spi.cluster.FragmentRequest request, java.util.function.BooleanSupplier abandoned)
    {
        Session session = createSession(request.user());
        session.setCatalog(request.catalog());
        session.setSchema(request.schema());
        // as the coordinator validated them
        session.properties().putAll(request.properties());
        // an id of its own (the query's, then the fragment's): two fragments of one query may run here at once
        return new io.ontul.engine.execution.StatementExecutor(session, request.queryId() + ".f" + request.fragment(), request.sql())
                .executeFragment(request, abandoned, root -> fragmentHistory.record(request.queryId(), request.fragment(), root));
    }

    private static io.ontul.engine.scheduler.PeerOutputs.Stream streamOf(QueryResult result)
    {
        return new io.ontul.engine.scheduler.PeerOutputs.Stream()
        {
            @Override
            public org.apache.arrow.vector.types.pojo.Schema schema()
            {
                return result.schema();
            }

            @Override
            public org.apache.arrow.vector.VectorSchemaRoot next()
            {
                return result.nextBatch();
            }

            @Override
            public long exchangedBytes()
            {
                return result.exchangedBytes();
            }

            @Override
            public void close()
            {
                result.close();
            }
        };
    }

    /** One peer's reading of this worker's share, as the result its DoGet streams. */
    private record PeerResult(String queryId, io.ontul.engine.scheduler.PeerOutputs.Stream stream)
            implements QueryResult
    {
        @Override
        public org.apache.arrow.vector.types.pojo.Schema schema()
        {
            return stream.schema();
        }

        @Override
        public boolean isUpdate()
        {
            return false;
        }

        @Override
        public org.apache.arrow.vector.VectorSchemaRoot nextBatch()
        {
            return stream.next();
        }

        @Override
        public long exchangedBytes()
        {
            return stream.exchangedBytes();
        }

        @Override
        public void close()
        {
            stream.close();
        }
    }

    /**
     * On a worker: what the operators of a fragment it ran (or runs) did, for the coordinator's
     * EXPLAIN ANALYZE; empty when it no longer remembers the fragment.
     */
    public java.util.List<io.ontul.spi.cluster.OperatorFigures> fragmentStatistics(String queryId, int fragment)
    {
        return fragmentHistory.figures(queryId, fragment);
    }

    /** The rows of system.runtime.nodes: the members of the cluster. */
    private java.util.List<io.ontul.engine.system.NodesTable.Row> nodeRows()
    {
        return cluster.nodes().stream()
                .map(node -> new io.ontul.engine.system.NodesTable.Row(node.nodeId(), node.role().configName(), node.address(),
                        node.state().name().toLowerCase(java.util.Locale.ROOT), node.registeredAt(), node.lastHeartbeat(), node.status().cores(),
                        node.status().memoryMax(), node.status().memoryUsed(), node.status().runningTasks()))
                .toList();
    }

    /** The rows of system.runtime.stream_tasks: the running jobs' tasks. */
    private static java.util.List<io.ontul.engine.system.StreamTasksTable.Row> streamTaskRows(io.ontul.engine.stream.job.StreamingJobManager jobs, String nodeId)
    {
        if (jobs == null) {
            return java.util.List.of();
        }
        return jobs.tasks().stream()
                .map(task -> new io.ontul.engine.system.StreamTasksTable.Row(task.job(), task.taskId(), task.kind(), task.assignment(), task.recordsIn(), task.recordsOut(),
                        task.watermark() == io.ontul.engine.stream.window.WatermarkTracker.NONE ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(task.watermark()),
                        task.blockedMillis(), task.lastCheckpointMillis(), task.lastCheckpointBytes(), task.node() == null ? nodeId : task.node()))
                .toList();
    }

    private void closeAfterFailedStart(RuntimeException failure)
    {
        List<AutoCloseable> opened = List.of(exchange, workers::shutdownNow, rootAllocator, metadata);
        for (AutoCloseable closeable : opened) {
            try {
                closeable.close();
            }
            catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }

    private static java.util.Optional<java.nio.file.Path> dataDirectory(EngineConfig config)
    {
        return java.util.Optional.ofNullable(config.property(EngineConfig.DATA_DIRECTORY, null)).map(java.nio.file.Path::of);
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

    /**
     * An engine that keeps its users in its metadata store: fronts log them in through
     * {@link #accounts()}, and CREATE/ALTER/DROP USER and SHOW USERS change and list them, run by
     * {@code administrator}. Users of a {@code users.properties} file in the data directory (kept
     * there by earlier versions) are imported once. The server's shape.
     */
    public static Engine createWithAccounts(EngineConfig config, String administrator)
    {
        return new Engine(config, java.util.Optional.empty(), java.util.Optional.of(requireNonNull(administrator, "administrator is null")));
    }

    /** An engine whose CREATE/ALTER/DROP USER and SHOW USERS work on {@code userManagement}. */
    public static Engine create(EngineConfig config, io.ontul.engine.api.UserManagement userManagement)
    {
        return new Engine(config, java.util.Optional.of(requireNonNull(userManagement, "userManagement is null")), java.util.Optional.empty());
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

    /** The users that log in: present for an engine {@linkplain #createWithAccounts created with accounts}. */
    public java.util.Optional<UserAccounts> accounts()
    {
        return accounts;
    }

    /** Where the metadata store lives (a JDBC URL without its password), for messages. */
    public String metadataLocation()
    {
        return metadata.location();
    }

    /**
     * Who may do what: grants and roles for an engine {@linkplain #createWithAccounts with accounts},
     * everything allowed otherwise.
     */
    public io.ontul.engine.security.AccessControl accessControl()
    {
        return accessControl;
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
    public io.ontul.engine.stream.job.StreamingJobManager streamingJobs()
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

    /** Statement {@code queryId}, while it runs and for a while after; empty when unknown or forgotten. */
    public java.util.Optional<QueryStatus> queryStatus(String queryId)
    {
        return queries.query(queryId).map(QueryStatus::of);
    }

    /** The statements {@code viewer} may see, running and recent, oldest first: an administrator sees all, others their own. */
    public List<QueryStatus> queryStatuses(String viewer)
    {
        return queries.queries(viewer).stream().map(QueryStatus::of).toList();
    }

    /** Statement counts, memory and spill figures now, for metrics. */
    public EngineFigures figures()
    {
        QueryRegistry.QueryCounts counts = queries.counts();
        io.ontul.exchange.spill.SpillStore spill = exchange.spillStore();
        return new EngineFigures(counts.started(), counts.finished(), counts.failed(), counts.cancelled(), counts.running(), counts.queued(),
                rootAllocator.getAllocatedMemory(), rootAllocator.getLimit(), spill.writtenBytes(), spill.readBytes(), spill.usedBytes(), spill.filesWritten());
    }

    /**
     * Calls {@code listener} with every statement that ends (finished, failed or cancelled), on the
     * thread that ends it and while the engine's statement registry is locked: record figures
     * (a timer, a counter) and return.
     */
    public void onStatementEnd(java.util.function.Consumer<QueryStatus> listener)
    {
        requireNonNull(listener, "listener is null");
        queries.onEnd(info -> listener.accept(QueryStatus.of(info)));
    }

    /** The figures of every streaming job this engine coordinates, by name; empty on a worker. */
    public List<StreamingJobFigures> streamingJobFigures()
    {
        io.ontul.engine.stream.job.StreamingJobManager jobs = streamingJobs;
        return jobs == null ? List.of() : jobs.figures().stream().map(StreamingJobFigures::of).toList();
    }

    /** Spill files: where they go, how they are compressed, how much was written. */
    public io.ontul.exchange.spill.SpillStore spillStore()
    {
        return exchange.spillStore();
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
        peerOutputs.close();
        rootAllocator.close();
        metadata.close();
    }
}
