package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Ontul server as its own OS process, {@code io.ontul.server.OntulMain start} on this JVM's
 * class path (the bench jar and target/lib, which holds the server), on 127.0.0.1, with its output
 * in a log file. {@link #kill()} is SIGKILL, as {@code kill -9}, of this process only.
 */
public final class OntulServerProcess
        implements AutoCloseable
{
    public static final String PASSWORD = "bench-admin";

    private final Process process;
    private final int port;
    private final Path log;

    private OntulServerProcess(Process process, int port, Path log)
    {
        this.process = requireNonNull(process, "process is null");
        this.port = port;
        this.log = requireNonNull(log, "log is null");
    }

    /** Starts the server with a 2 GB heap; returns at once, before it is ready ({@link #awaitReady}). */
    public static OntulServerProcess start(Path configurationDirectory, Path dataDirectory, int port, Path log)
            throws IOException
    {
        return start(configurationDirectory, dataDirectory, port, log, "2g", List.of());
    }

    /**
     * Starts the server with heap (and direct memory) {@code heap}, e.g. {@code 4g}, and more
     * arguments for {@code ontul start} such as {@code --role worker}; returns at once.
     */
    public static OntulServerProcess start(Path configurationDirectory, Path dataDirectory, int port, Path log, String heap, List<String> arguments)
            throws IOException
    {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-XX:MaxDirectMemorySize=" + heap, "-XX:+UseParallelGC", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Darrow.enable_unsafe_memory_access=true",
                "-Darrow.enable_null_check_for_get=false", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"),
                "io.ontul.server.OntulMain", "start", "--conf", configurationDirectory.toString(), "--data-dir", dataDirectory.toString(), "--port", String.valueOf(port), "--http-port", "0"));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("ONTUL_ADMIN_PASSWORD", PASSWORD);
        return new OntulServerProcess(builder.start(), port, log);
    }

    /** Waits until the server prints its ready line. */
    public void awaitReady(long timeoutMillis)
            throws IOException, InterruptedException
    {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!Files.readString(log, StandardCharsets.UTF_8).contains("Ontul ready")) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The server exited with " + process.exitValue() + " before it was ready: " + Files.readString(log, StandardCharsets.UTF_8));
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("The server was not ready within " + timeoutMillis + " ms: " + Files.readString(log, StandardCharsets.UTF_8));
            }
            Thread.sleep(10);
        }
    }

    public int port()
    {
        return port;
    }

    public Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + port + "/?useEncryption=false&user=admin&password=" + PASSWORD);
    }

    /** SIGKILL: no shutdown hook, no final checkpoint. */
    public void kill()
            throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then SIGKILL if it has not stopped within 30 s. */
    @Override
    public void close()
    {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    public static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
