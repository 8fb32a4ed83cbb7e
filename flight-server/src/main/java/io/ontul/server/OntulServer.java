package io.ontul.server;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.UserAccounts;
import io.ontul.server.auth.JwtCallHeaderAuthenticator;
import io.ontul.server.auth.Logins;
import io.ontul.server.http.CatalogRoutes;
import io.ontul.server.http.HttpAuthentication;
import io.ontul.server.http.HttpConfig;
import io.ontul.server.http.HttpServer;
import io.ontul.server.http.JobRoutes;
import io.ontul.server.http.Json;
import io.ontul.server.http.StatementRoutes;
import io.ontul.server.http.SystemRoutes;
import io.ontul.server.metrics.OntulMetrics;
import io.ontul.server.cluster.ClusterCallAuthenticator;
import io.ontul.server.cluster.ClusterTokens;
import io.ontul.server.cluster.FlightRemoteTasks;
import io.ontul.server.flight.ConnectionMiddleware;
import io.ontul.server.flight.OntulFlightSqlProducer;
import io.ontul.server.tls.ServerCertificate;
import io.ontul.server.tls.ServerCertificates;
import io.ontul.server.tls.TlsConfig;

/**
 * The Ontul server: the engine behind an Arrow Flight SQL endpoint with password
 * authentication (basic credentials, then a signed bearer token per connection) and optional
 * TLS. {@link #start} returns once clients can connect; {@link #close} stops accepting calls,
 * cancels running queries and stops the engine.
 */
public final class OntulServer
        implements AutoCloseable
{
    public static final String FLIGHT_HOST = "ontul.flight.host";
    public static final String FLIGHT_PORT = "ontul.flight.port";
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 47470;
    public static final String ADMIN_USER = "admin";
    public static final String ADMIN_PASSWORD_VARIABLE = "ONTUL_ADMIN_PASSWORD";

    private static final Logger LOG = LoggerFactory.getLogger(OntulServer.class);
    private static final Duration SESSION_IDLE_TIMEOUT = Duration.ofHours(12);
    private static final Duration UNFETCHED_RESULT_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(5);

    private final Engine engine;
    private final BufferAllocator allocator;
    private final OntulFlightSqlProducer producer;
    private final FlightServer server;
    private final ScheduledExecutorService maintenance;
    private final String host;
    private final Optional<HttpServer> http;
    private final Optional<OntulMetrics> metrics;
    private final Optional<StatementRoutes> statements;
    private boolean closed;

    private OntulServer(Engine engine, BufferAllocator allocator, OntulFlightSqlProducer producer, FlightServer server, ScheduledExecutorService maintenance, String host,
            Optional<HttpServer> http, Optional<OntulMetrics> metrics, Optional<StatementRoutes> statements)
    {
        this.statements = requireNonNull(statements, "statements is null");
        this.http = requireNonNull(http, "http is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.engine = requireNonNull(engine, "engine is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.producer = requireNonNull(producer, "producer is null");
        this.server = requireNonNull(server, "server is null");
        this.maintenance = requireNonNull(maintenance, "maintenance is null");
        this.host = requireNonNull(host, "host is null");
    }

    /**
     * Starts the engine, the Flight SQL endpoint and the HTTP server. With a Flight port of 0
     * (tests), the HTTP server takes a free port too.
     *
     * @param port the port to listen on, overriding {@value #FLIGHT_PORT}; 0 picks a free one
     * @param adminPassword the password of user {@value #ADMIN_USER}; when empty and the user
     *        does not exist yet, a password is generated and printed once to {@code console}
     */
    public static OntulServer start(EngineConfig config, Path dataDirectory, Optional<Integer> port, Optional<String> adminPassword, PrintStream console)
            throws IOException
    {
        return start(config, dataDirectory, port, port.filter(flightPort -> flightPort == 0), adminPassword, console);
    }

    /**
     * As {@link #start(EngineConfig, Path, Optional, Optional, PrintStream)}, with the HTTP port.
     *
     * @param httpPort the HTTP port, overriding {@value HttpConfig#HTTP_PORT}; 0 picks a free one, -1 runs no HTTP server
     */
    public static OntulServer start(EngineConfig config, Path dataDirectory, Optional<Integer> port, Optional<Integer> httpPort, Optional<String> adminPassword, PrintStream console)
            throws IOException
    {
        String host = config.property(FLIGHT_HOST, DEFAULT_HOST);
        int listenPort = port.orElseGet(() -> Integer.parseInt(config.property(FLIGHT_PORT, String.valueOf(DEFAULT_PORT))));
        HttpConfig httpConfig = new HttpConfig(host, httpPort.orElseGet(() -> HttpConfig.port(config)));
        prepareDataDirectory(dataDirectory);
        // exchange files (spill, checkpoints) default to <data-dir>/exchange, their keys to <data-dir>/kms,
        // the metadata store (users, runtime catalogs) to <data-dir>/metadata
        EngineConfig engineConfig = config.withProperty(EngineConfig.DATA_DIRECTORY, dataDirectory.toString());
        checkAdminPassword(adminPassword);
        Engine engine = Engine.createWithAccounts(engineConfig, ADMIN_USER);
        UserAccounts users = engine.accounts().orElseThrow();
        try {
            ensureAdmin(users, adminPassword, engine.metadataLocation(), console);
        }
        catch (RuntimeException e) {
            engine.close();
            throw e;
        }
        BufferAllocator allocator = null;
        OntulFlightSqlProducer producer = null;
        FlightServer server = null;
        OntulMetrics metrics = null;
        StatementRoutes statements = null;
        try {
            allocator = engine.rootAllocator().newChildAllocator("flight-server", 0, Long.MAX_VALUE);
            producer = new OntulFlightSqlProducer(engine, allocator, version(), SESSION_IDLE_TIMEOUT, UNFETCHED_RESULT_TIMEOUT);
            // workers register and report with the cluster secret; users log in as before
            Optional<ClusterTokens> clusterTokens = engine.clusterConfig().secret().map(secret -> new ClusterTokens(secret, java.time.Clock.systemUTC()));
            TlsConfig tls = TlsConfig.from(config);
            // one door for users over both protocols: the same tokens, the same failed-login counts
            Logins logins = Logins.create(config, dataDirectory, users);
            io.ontul.server.flight.ClientTransports transports = producer.transports();
            FlightServer.Builder builder = FlightServer.builder(allocator, tls.enabled() ? Location.forGrpcTls(host, listenPort) : Location.forGrpcInsecure(host, listenPort), producer)
                    .headerAuthenticator(new ClusterCallAuthenticator(clusterTokens, Optional.of(new JwtCallHeaderAuthenticator(logins))))
                    .middleware(ConnectionMiddleware.KEY, new ConnectionMiddleware.Factory())
                    // the client's address and connection into each call's headers (failed logins are
                    // counted per address); a connection that ends closes the results it left unfetched
                    .transportHint("grpc.builderConsumer", (java.util.function.Consumer<io.grpc.netty.NettyServerBuilder>) netty -> netty
                            .callExecutor(new io.ontul.server.auth.ClientAddress())
                            .addTransportFilter(transports));
            Optional<ServerCertificate> certificate = Optional.empty();
            if (tls.enabled()) {
                certificate = Optional.of(ServerCertificates.obtain(tls, dataDirectory, host, Instant.now()));
                builder.useTls(certificate.get().certificateChain(), certificate.get().privateKey());
                console.println("TLS certificate " + certificate.get());
                console.flush();
            }
            server = builder.build().start();
            ScheduledExecutorService maintenance = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "ontul-server-maintenance");
                thread.setDaemon(true);
                return thread;
            });
            OntulFlightSqlProducer scheduled = producer;
            maintenance.scheduleWithFixedDelay(scheduled::maintain, 30, 30, TimeUnit.SECONDS);
            engine.cluster().advertise(io.ontul.server.cluster.AdvertisedAddress.of(config, host, server.getPort(), tls.enabled()));
            if (clusterTokens.isPresent()) {
                // queries run their fragments on the registered workers
                FlightRemoteTasks remoteTasks = new FlightRemoteTasks(allocator, clusterTokens.get(), engine.clusterConfig().nodeId(), engine.cluster()::declareDead,
                        Optional.ofNullable(config.property(io.ontul.server.cluster.CoordinatorClient.TLS_ROOT_CERTIFICATES, null)).map(Path::of));
                engine.useRemoteTasks(remoteTasks);
                // streaming jobs run their tasks on the registered workers
                engine.useStreamTransport(new io.ontul.server.cluster.FlightStreamTransport(remoteTasks, allocator));
                engine.cluster().onWorkerDeath(node -> remoteTasks.forget(node.address()));
                producer.closeWith(remoteTasks);
            }
            maintenance.scheduleWithFixedDelay(engine.cluster()::checkHeartbeats, 1, 1, TimeUnit.SECONDS);
            Optional<HttpServer> http = Optional.empty();
            if (httpConfig.enabled()) {
                HttpAuthentication authentication = new HttpAuthentication(logins, engine);
                metrics = new OntulMetrics(engine, authentication);
                statements = new StatementRoutes(engine);
                maintenance.scheduleWithFixedDelay(statements::expire, 10, 10, TimeUnit.SECONDS);
                http = Optional.of(HttpServer.start(httpConfig, certificate, Json.MAPPER, List.of(authentication::register, metrics::register, statements::register,
                        new JobRoutes(engine)::register, new CatalogRoutes(engine)::register, new SystemRoutes(engine, authentication, version())::register)));
            }
            return new OntulServer(engine, allocator, producer, server, maintenance, host, http, Optional.ofNullable(metrics), Optional.ofNullable(statements));
        }
        catch (IOException | RuntimeException e) {
            if (statements != null) {
                statements.close();
            }
            if (metrics != null) {
                metrics.close();
            }
            if (server != null) {
                try {
                    server.close();
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            if (producer != null) {
                producer.close();
            }
            if (allocator != null) {
                allocator.close();
            }
            engine.close();
            throw e;
        }
    }

    /**
     * Creates the data directory, its owner's only. It holds the metadata store, keys, the
     * warehouse and spill files: nobody but its owner may enter it, whatever the modes of what is
     * inside ({@code bin/ontul} also sets umask 077, so what the server writes is 0600 and 0700 itself).
     */
    public static void prepareDataDirectory(Path dataDirectory)
            throws IOException
    {
        Files.createDirectories(dataDirectory);
        try {
            Files.setPosixFilePermissions(dataDirectory, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system
        }
    }

    private static void checkAdminPassword(Optional<String> adminPassword)
    {
        if (adminPassword.isPresent() && adminPassword.get().length() < io.ontul.engine.api.UserManagement.MINIMUM_PASSWORD_LENGTH) {
            throw new io.ontul.spi.OntulException(io.ontul.spi.ErrorCode.INVALID_ARGUMENT, ADMIN_PASSWORD_VARIABLE + " must have at least "
                    + io.ontul.engine.api.UserManagement.MINIMUM_PASSWORD_LENGTH + " characters, as every password");
        }
    }

    private static void ensureAdmin(UserAccounts users, Optional<String> adminPassword, String metadataLocation, PrintStream console)
    {
        if (adminPassword.isPresent()) {
            if (!users.verify(ADMIN_USER, adminPassword.get())) {
                users.setPassword(ADMIN_USER, adminPassword.get());
            }
            return;
        }
        if (!users.exists(ADMIN_USER)) {
            String generated = UserAccounts.generatePassword();
            users.setPassword(ADMIN_USER, generated);
            console.println("Generated password for user " + ADMIN_USER + ": " + generated);
            console.println("(shown only this once; the metadata store " + metadataLocation + " keeps only its hash; set "
                    + ADMIN_PASSWORD_VARIABLE + " to choose the password)");
            console.flush();
        }
    }

    static String version()
    {
        String version = OntulServer.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    public int port()
    {
        return server.getPort();
    }

    public String host()
    {
        return host;
    }

    /** Where clients connect: {@code grpc+tls://HOST:PORT} with TLS, else {@code grpc+tcp://HOST:PORT}. */
    public Location location()
    {
        return server.getLocation();
    }

    /** The HTTP server's port (REST API, metrics, Admin UI); -1 when it does not run. */
    public int httpPort()
    {
        return http.map(HttpServer::port).orElse(-1);
    }

    /** The HTTP routes served ({@code GET /v1/jobs/{name}}), for the test that holds the OpenAPI document to them. */
    public java.util.Set<String> httpEndpoints()
    {
        return http.map(HttpServer::endpoints).orElse(java.util.Set.of());
    }

    /** Where the HTTP server answers, {@code http(s)://HOST:PORT}, if it runs. */
    public Optional<java.net.URI> httpUri()
    {
        return http.map(server -> java.net.URI.create(server.scheme() + "://" + (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + server.port()));
    }

    public Engine engine()
    {
        return engine;
    }

    /** Prepared statements and unfetched results the server holds (over Flight SQL and HTTP), for tests. */
    public int openHandles()
    {
        return producer.openHandles() + statements.map(StatementRoutes::openResults).orElse(0);
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
        maintenance.shutdownNow();
        http.ifPresent(HttpServer::close);
        statements.ifPresent(StatementRoutes::close);
        metrics.ifPresent(OntulMetrics::close);
        server.shutdown();
        try {
            if (!server.awaitTermination(SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.info("Calls still running after {}: cancelling them", SHUTDOWN_GRACE);
            }
            server.close();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close();
        try {
            allocator.close();
        }
        catch (RuntimeException e) {
            LOG.warn("Flight server memory still in use at shutdown: {}", e.getMessage());
        }
        try {
            engine.close();
        }
        catch (RuntimeException e) {
            LOG.warn("Engine did not close cleanly: {}", e.getMessage());
        }
    }
}
