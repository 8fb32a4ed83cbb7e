package io.ontul.server.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Ontul server as its own OS process, started the way {@code bin/ontul start} starts it (the
 * server jar and {@code target/lib/*}, from the system property {@value #CLASS_PATH} that
 * failsafe sets), on 127.0.0.1 and a free port, with its output in a log file. Tests kill it
 * with SIGKILL ({@link #kill}) or stop it with SIGTERM ({@link #close}); either way only this
 * process, by its handle.
 */
public final class ServerProcess
        implements AutoCloseable
{
    public static final String CLASS_PATH = "ontul.server.class-path";
    public static final String PASSWORD = "crash-test-admin";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path log;

    private ServerProcess(Process process, int port, Path log)
    {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts a server on {@code dataDirectory} and waits for its ready line.
     *
     * @param systemProperties extra {@code -Dname=value} options for the server JVM
     */
    public static ServerProcess start(Path dataDirectory, Path log, List<String> systemProperties)
    {
        return start(dataDirectory, log, systemProperties, List.of());
    }

    /**
     * As {@link #start(Path, Path, List)}, with more arguments for {@code ontul start}.
     *
     * @param arguments such as {@code --with-kafka} or {@code --conf DIR}
     */
    public static ServerProcess start(Path dataDirectory, Path log, List<String> systemProperties, List<String> arguments)
    {
        ServerProcess server = launch(dataDirectory, log, systemProperties, arguments);
        server.awaitReady();
        return server;
    }

    /** As {@link #start(Path, Path, List, List)} without waiting for the ready line ({@link #awaitReady}). */
    public static ServerProcess launch(Path dataDirectory, Path log, List<String> systemProperties, List<String> arguments)
    {
        return launch(dataDirectory, log, systemProperties, arguments, freePort());
    }

    /** As {@link #launch(Path, Path, List, List)} on {@code port} (a server started again where others expect it). */
    public static ServerProcess launch(Path dataDirectory, Path log, List<String> systemProperties, List<String> arguments, int port)
    {
        String classPath = requireNonNull(System.getProperty(CLASS_PATH), CLASS_PATH + " is not set: run this test with failsafe (mvn verify)");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx1g", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Darrow.enable_unsafe_memory_access=true", "-Darrow.enable_null_check_for_get=false"));
        for (String property : systemProperties) {
            command.add("-D" + property);
        }
        // any free HTTP port: several servers run side by side (the ready line names it)
        command.addAll(List.of("-cp", classPath, "io.ontul.server.OntulMain", "start", "--data-dir", dataDirectory.toString(), "--port", String.valueOf(port), "--http-port", "0"));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("ONTUL_ADMIN_PASSWORD", PASSWORD);
        Process process;
        try {
            process = builder.start();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ServerProcess(process, port, log);
    }

    /** Waits for the ready line; fails with the output when the process exits first or takes too long. */
    public void awaitReady()
    {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (output().contains("Ontul ready")) {
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError("The server exited with " + process.exitValue() + " before it was ready:\n" + output());
            }
            sleep(100);
        }
        process.destroyForcibly();
        throw new AssertionError("The server was not ready within " + START_TIMEOUT + ":\n" + output());
    }

    public int port()
    {
        return port;
    }

    /** The HTTP port the ready line names (REST API, metrics, Admin UI); a coordinator's or single server's only. */
    public int httpPort()
    {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("HTTP \\(REST API, metrics, Admin UI\\) on https?://[^ ]+:(\\d+)").matcher(output());
        if (!matcher.find()) {
            throw new AssertionError("The server did not name an HTTP port:\n" + output());
        }
        return Integer.parseInt(matcher.group(1));
    }

    public long pid()
    {
        return process.pid();
    }

    public boolean isAlive()
    {
        return process.isAlive();
    }

    /** A Flight SQL JDBC connection as admin. */
    public Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + port + "/?useEncryption=false&user=admin&password=" + PASSWORD);
    }

    /** Waits up to {@code timeout} for the process to end by itself; returns its exit code. */
    public int awaitExit(Duration timeout)
    {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("The server did not exit within " + timeout + ":\n" + output());
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return process.exitValue();
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook runs. */
    public void kill()
    {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** What the server printed so far. */
    public String output()
    {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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

    /** A port free on 127.0.0.1 now. */
    public static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis)
    {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
