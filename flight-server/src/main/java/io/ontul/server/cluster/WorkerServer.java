package io.ontul.server.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.cluster.ClusterConfig;
import io.ontul.server.OntulServer;
import io.ontul.server.auth.ClientAddress;
import io.ontul.server.tls.ServerCertificate;
import io.ontul.server.tls.ServerCertificates;
import io.ontul.server.tls.TlsConfig;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A worker process ({@code ontul start --role worker}): an engine without users and without
 * streaming jobs of its own, behind a Flight endpoint that accepts the members of its cluster
 * only, registered with its coordinator and reporting to it every
 * {@code ontul.cluster.heartbeat-interval}. When the coordinator restarts and no longer knows it,
 * it registers again; while the coordinator cannot be reached it keeps trying.
 */
public final class WorkerServer
        implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(WorkerServer.class);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(5);

    private final Engine engine;
    private final BufferAllocator allocator;
    private final FlightServer server;
    private final CoordinatorClient coordinator;
    private final FlightRemoteTasks peers;
    private final ScheduledExecutorService heartbeats;
    private final WorkerProducer producer;
    private final CountDownLatch firstAnswer = new CountDownLatch(1);
    private volatile boolean registered;
    private volatile String refusal;
    private String lastProblem;
    private boolean closed;

    private WorkerServer(Engine engine, BufferAllocator allocator, FlightServer server, CoordinatorClient coordinator, FlightRemoteTasks peers, WorkerProducer producer)
    {
        this.engine = engine;
        this.allocator = allocator;
        this.server = server;
        this.coordinator = coordinator;
        this.peers = peers;
        this.producer = producer;
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ontul-cluster-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts the engine and the worker's endpoint and begins registering with the coordinator
     * ({@link #awaitRegistered} waits for it).
     *
     * @param port the port to listen on, overriding {@value OntulServer#FLIGHT_PORT}; 0 picks a free one
     */
    public static WorkerServer start(EngineConfig config, Path dataDirectory, Optional<Integer> port)
            throws IOException
    {
        String host = config.property(OntulServer.FLIGHT_HOST, OntulServer.DEFAULT_HOST);
        int listenPort = port.orElseGet(() -> Integer.parseInt(config.property(OntulServer.FLIGHT_PORT, String.valueOf(OntulServer.DEFAULT_PORT))));
        OntulServer.prepareDataDirectory(dataDirectory);
        Engine engine = Engine.create(config.withProperty(EngineConfig.DATA_DIRECTORY, dataDirectory.toString()));
        ClusterConfig cluster = engine.clusterConfig();
        BufferAllocator allocator = null;
        FlightServer server = null;
        CoordinatorClient coordinator = null;
        FlightRemoteTasks peers = null;
        try {
            Location coordinatorLocation = CoordinatorClient.parseLocation(cluster.coordinator().orElseThrow(), ClusterConfig.COORDINATOR);
            ClusterTokens tokens = new ClusterTokens(cluster.secret().orElseThrow(), Clock.systemUTC());
            allocator = engine.rootAllocator().newChildAllocator("worker-flight", 0, Long.MAX_VALUE);
            TlsConfig tls = TlsConfig.from(config);
            Location location = tls.enabled() ? Location.forGrpcTls(host, listenPort) : Location.forGrpcInsecure(host, listenPort);
            // the advertised address is known once the port is: the producer reads it then
            String[] advertised = {""};
            WorkerProducer producer = new WorkerProducer(engine, () -> advertised[0], allocator);
            FlightServer.Builder builder = FlightServer.builder(allocator, location, producer)
                    .headerAuthenticator(new ClusterCallAuthenticator(Optional.of(tokens), Optional.empty()))
                    .transportHint("grpc.builderConsumer", (java.util.function.Consumer<io.grpc.netty.NettyServerBuilder>) netty -> netty.callExecutor(new ClientAddress()));
            if (tls.enabled()) {
                ServerCertificate certificate = ServerCertificates.obtain(tls, dataDirectory, host, Instant.now());
                builder.useTls(certificate.certificateChain(), certificate.privateKey());
            }
            server = builder.build().start();
            advertised[0] = AdvertisedAddress.of(config, host, server.getPort(), tls.enabled());
            engine.cluster().advertise(advertised[0]);
            Optional<Path> rootCertificates = Optional.ofNullable(config.property(CoordinatorClient.TLS_ROOT_CERTIFICATES, null)).map(Path::of);
            coordinator = new CoordinatorClient(allocator, coordinatorLocation, rootCertificates, tokens, cluster.nodeId());
            // a worker reads its peers' shares of the build sides of the fragments it runs
            peers = new FlightRemoteTasks(allocator, tokens, cluster.nodeId(),
                    (peer, message) -> LOG.warn("Lost peer {}: {}", peer, message), rootCertificates);
            engine.useRemoteTasks(peers);
            // a worker's streaming tasks send to the tasks of other workers
            engine.useStreamTransport(new FlightStreamTransport(peers, allocator));
            WorkerServer worker = new WorkerServer(engine, allocator, server, coordinator, peers, producer);
            worker.heartbeats.scheduleWithFixedDelay(worker::report, 0, cluster.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
            return worker;
        }
        catch (IOException | RuntimeException e) {
            for (AutoCloseable opened : new AutoCloseable[] {peers, coordinator, server, allocator}) {
                if (opened != null) {
                    try {
                        opened.close();
                    }
                    catch (Exception suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            engine.close();
            throw e;
        }
    }

    /** One registration or heartbeat; failures are logged when they change, and tried again next time. */
    private void report()
    {
        engine.reapIdleFragmentOutputs();
        ClusterMessages.Report report = producer.report();
        try {
            if (!registered) {
                coordinator.register(report);
                registered = true;
                refusal = null;
                LOG.info("Registered with the coordinator at {} as worker {}", coordinator.location().getUri(), engine.clusterConfig().nodeId());
            }
            else if (!coordinator.heartbeat(report)) {
                LOG.info("The coordinator at {} does not know this worker (it restarted): registering again", coordinator.location().getUri());
                coordinator.register(report);
            }
            lastProblem = null;
        }
        catch (FlightRuntimeException e) {
            boolean refused = e.status().code() == FlightStatusCode.UNAUTHENTICATED || e.status().code() == FlightStatusCode.INVALID_ARGUMENT;
            registered = registered && e.status().code() != FlightStatusCode.UNAUTHENTICATED;
            String problem = refused
                    ? "The coordinator at " + coordinator.location().getUri() + " refused this worker: " + e.getMessage()
                    : "Cannot reach the coordinator at " + coordinator.location().getUri() + " (" + e.status().code() + ": " + e.getMessage() + "); trying again";
            if (refused) {
                refusal = problem;
            }
            if (!problem.equals(lastProblem)) {
                LOG.warn(problem);
                lastProblem = problem;
            }
        }
        catch (RuntimeException e) {
            LOG.error("Reporting to the coordinator failed", e);
        }
        finally {
            if (registered || refusal != null) {
                firstAnswer.countDown();
            }
        }
    }

    /**
     * Waits until the coordinator has accepted this worker.
     *
     * @throws OntulException PERMISSION_DENIED with the coordinator's reason when it refused
     */
    public void awaitRegistered()
            throws InterruptedException
    {
        firstAnswer.await();
        String refused = refusal;
        if (!registered && refused != null) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, refused);
        }
    }

    public Location location()
    {
        return server.getLocation();
    }

    public Location coordinator()
    {
        return coordinator.location();
    }

    public Engine engine()
    {
        return engine;
    }

    /** Blocks until the server has stopped. */
    public void awaitTermination()
            throws InterruptedException
    {
        server.awaitTermination();
    }

    @Override
    public synchronized void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        heartbeats.shutdownNow();
        // the streaming tasks' sessions would hold the server's shutdown for its whole grace period
        engine.stopStreamTasks();
        server.shutdown();
        try {
            server.awaitTermination(SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            server.close();
            peers.close();
            coordinator.close();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            allocator.close();
        }
        catch (RuntimeException e) {
            LOG.warn("Worker Flight memory still in use at shutdown: {}", e.getMessage());
        }
        engine.close();
    }
}
