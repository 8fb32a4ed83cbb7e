package io.ontul.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster for tests: one coordinator and N worker processes on 127.0.0.1, each with its own
 * configuration and data directory under one directory, started the way {@code bin/ontul start
 * --role ...} starts them (see {@link ServerProcess}). Workers report every 300 ms and count as
 * dead after 3 s of silence, so tests about deaths are quick. A worker can be killed (SIGKILL)
 * and started again on its data directory: it keeps its node id. {@link #close} stops every
 * process it started, workers first.
 */
public final class TestCluster
        implements AutoCloseable
{
    public static final String SECRET = "test-cluster-secret-0123456789-abcdef";
    public static final String WORKER_TIMEOUT = "3s";

    private final Path directory;
    private final Map<String, String> properties;
    private final Map<String, Map<String, String>> catalogs;
    private ServerProcess coordinator;
    private final List<ServerProcess> workers = new ArrayList<>();
    private int starts;

    private TestCluster(Path directory, Map<String, String> properties, Map<String, Map<String, String>> catalogs, ServerProcess coordinator)
    {
        this.directory = directory;
        this.properties = properties;
        this.catalogs = catalogs;
        this.coordinator = coordinator;
    }

    /**
     * Starts the coordinator, then {@code workers} workers, and waits until each has registered.
     *
     * @param properties more {@code ontul.properties} for every node (e.g. memory limits)
     */
    public static TestCluster start(Path directory, int workers, Map<String, String> properties)
    {
        return start(directory, workers, properties, Map.of());
    }

    /**
     * As {@link #start(Path, int, Map)}, every node with the same catalog files
     * ({@code conf/catalogs/NAME.properties}), as the README asks of a cluster.
     *
     * @param catalogs the properties of each catalog by name
     */
    public static TestCluster start(Path directory, int workers, Map<String, String> properties, Map<String, Map<String, String>> catalogs)
    {
        Map<String, String> common = new LinkedHashMap<>();
        common.put("ontul.cluster.secret", SECRET);
        common.put("ontul.cluster.worker-timeout", WORKER_TIMEOUT);
        common.put("ontul.cluster.heartbeat-interval", "300ms");
        common.putAll(properties);
        Map<String, String> coordinatorProperties = new LinkedHashMap<>(common);
        coordinatorProperties.put("ontul.cluster.role", "coordinator");
        ServerProcess coordinator = ServerProcess.start(data(directory, "coordinator"), directory.resolve("coordinator.log"), List.of(),
                List.of("--conf", conf(directory, "coordinator", coordinatorProperties, catalogs).toString()));
        TestCluster cluster = new TestCluster(directory, common, catalogs, coordinator);
        try {
            for (int index = 0; index < workers; index++) {
                cluster.workers.add(cluster.startWorker("worker-" + index, Map.of()));
            }
        }
        catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public ServerProcess coordinator()
    {
        return coordinator;
    }

    /** Worker {@code index} as last started. */
    public ServerProcess worker(int index)
    {
        return workers.get(index);
    }

    /** Kills the coordinator with SIGKILL, as {@code kill -9}; the workers keep running. */
    public void killCoordinator()
    {
        coordinator.kill();
    }

    /**
     * Starts the coordinator again on its data directory and its port (where the workers look for
     * it) after {@link #killCoordinator}, and waits until it is ready; the workers register again
     * with their next heartbeat.
     */
    public ServerProcess restartCoordinator()
    {
        coordinator.close();
        Map<String, String> coordinatorProperties = new LinkedHashMap<>(properties);
        coordinatorProperties.put("ontul.cluster.role", "coordinator");
        ServerProcess restarted = ServerProcess.launch(data(directory, "coordinator"), directory.resolve("coordinator-" + starts++ + ".log"), List.of(),
                List.of("--conf", conf(directory, "coordinator", coordinatorProperties, catalogs).toString()), coordinator.port());
        coordinator = restarted;
        restarted.awaitReady();
        return restarted;
    }

    /** Kills worker {@code index} with SIGKILL, as {@code kill -9}. */
    public void killWorker(int index)
    {
        workers.get(index).kill();
    }

    /** Starts worker {@code index} again on its data directory (after {@link #killWorker}) and waits until it has registered. */
    public ServerProcess restartWorker(int index)
    {
        workers.get(index).close();
        ServerProcess restarted = startWorker("worker-" + index, Map.of());
        workers.set(index, restarted);
        return restarted;
    }

    /**
     * Launches one more worker named {@code name} with {@code overrides} over the cluster's
     * properties, without waiting for it to be ready (a worker the coordinator refuses never is).
     * The caller closes it.
     */
    public ServerProcess launchWorker(String name, Map<String, String> overrides)
    {
        Map<String, String> workerProperties = new LinkedHashMap<>(properties);
        workerProperties.put("ontul.cluster.role", "worker");
        workerProperties.put("ontul.cluster.coordinator", (tls() ? "grpc+tls://" : "grpc+tcp://") + "127.0.0.1:" + coordinator.port());
        workerProperties.putAll(overrides);
        return ServerProcess.launch(data(directory, name), directory.resolve(name + "-" + starts++ + ".log"), List.of(),
                List.of("--conf", conf(directory, name, workerProperties, catalogs).toString()));
    }

    private ServerProcess startWorker(String name, Map<String, String> overrides)
    {
        ServerProcess worker = launchWorker(name, overrides);
        try {
            worker.awaitReady();
        }
        catch (RuntimeException | Error e) {
            worker.close();
            throw e;
        }
        return worker;
    }

    /** Waits until the coordinator counts {@code count} active workers. */
    public void awaitActiveWorkers(int count)
            throws SQLException, InterruptedException
    {
        long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
        while (true) {
            try (Connection connection = connect(); java.sql.Statement statement = connection.createStatement();
                    java.sql.ResultSet rows = statement.executeQuery("SELECT count(*) FROM system.runtime.nodes WHERE role = 'worker' AND state = 'active'")) {
                rows.next();
                if (rows.getLong(1) == count) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Never " + count + " active workers:\n" + logs());
            }
            Thread.sleep(200);
        }
    }

    /** A Flight SQL JDBC connection to the coordinator as admin (with TLS when the cluster has it, its certificate not checked). */
    public Connection connect()
            throws SQLException
    {
        if (!tls()) {
            return coordinator.connect();
        }
        return java.sql.DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + coordinator.port() + "/?useEncryption=true&disableCertificateVerification=true&user=admin&password="
                + ServerProcess.PASSWORD);
    }

    /** Whether the nodes serve Flight with TLS ({@code ontul.flight.tls.enabled}). */
    public boolean tls()
    {
        return Boolean.parseBoolean(properties.getOrDefault("ontul.flight.tls.enabled", "false"));
    }

    /** The last lines each process printed, for the message of a failed test. */
    public String logs()
    {
        StringBuilder text = new StringBuilder();
        text.append("---- coordinator\n").append(tail(coordinator.output()));
        for (int index = 0; index < workers.size(); index++) {
            text.append("---- worker-").append(index).append('\n').append(tail(workers.get(index).output()));
        }
        return text.toString();
    }

    private static String tail(String output)
    {
        String[] lines = output.split("\n");
        return String.join("\n", java.util.Arrays.asList(lines).subList(Math.max(0, lines.length - 80), lines.length)) + "\n";
    }

    private static Path data(Path directory, String node)
    {
        return directory.resolve(node).resolve("data");
    }

    private static Path conf(Path directory, String node, Map<String, String> properties, Map<String, Map<String, String>> catalogs)
    {
        Path conf = directory.resolve(node).resolve("conf");
        try {
            Files.createDirectories(conf.resolve("catalogs"));
            Files.writeString(conf.resolve("ontul.properties"), propertiesText(properties));
            for (Map.Entry<String, Map<String, String>> catalog : catalogs.entrySet()) {
                Files.writeString(conf.resolve("catalogs").resolve(catalog.getKey() + ".properties"), propertiesText(catalog.getValue()));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return conf;
    }

    private static String propertiesText(Map<String, String> properties)
    {
        StringBuilder text = new StringBuilder();
        properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        return text.toString();
    }

    @Override
    public void close()
    {
        for (ServerProcess worker : workers) {
            worker.close();
        }
        coordinator.close();
    }
}
