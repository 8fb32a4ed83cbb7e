package io.ontul.server.hardening;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.server.testing.ServerProcess;

/**
 * {@code bin/ontul start}, as users run it: every file and directory the server writes under its
 * data directory (metadata store, token secret, keys, Iceberg warehouse, spill files) is its
 * owner's only.
 */
class FileModesIT
{
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    @TempDir
    Path directory;

    @Test
    void everythingUnderTheDataDirectoryIsOwnerOnly()
            throws Exception
    {
        // the class path property names flight-server/target/ontul-flight-server-VERSION.jar: the checkout is three levels up
        Path jar = Path.of(System.getProperty(ServerProcess.CLASS_PATH).split(java.io.File.pathSeparator)[0]).toAbsolutePath();
        Path home = jar.getParent().getParent().getParent();
        Path dataDirectory = directory.resolve("data");
        Path log = directory.resolve("server.log");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin").resolve("ontul").toString(), "start", "--data-dir", dataDirectory.toString(), "--port", String.valueOf(port), "--http-port", "0")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("ONTUL_ADMIN_PASSWORD", ServerProcess.PASSWORD);
        builder.environment().put("ONTUL_JVM_OPTS", "-Xmx1g");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        try {
            awaitReady(process, log);
            try (Connection connection = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + port + "/?useEncryption=false&user=admin&password=" + ServerProcess.PASSWORD);
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE CATALOG lake USING iceberg");
                statement.execute("CREATE SCHEMA lake.modes");
                statement.execute("CREATE TABLE lake.modes.nation AS SELECT * FROM tpch.tiny.nation");
                try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM lake.modes.nation")) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getLong(1)).isEqualTo(25);
                }
            }
            List<String> exposed = new ArrayList<>();
            try (Stream<Path> paths = Files.walk(dataDirectory)) {
                paths.forEach(path -> {
                    try {
                        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
                        if (permissions.stream().anyMatch(OTHERS::contains)) {
                            exposed.add(PosixFilePermissions.toString(permissions) + " " + dataDirectory.relativize(path));
                        }
                    }
                    catch (IOException e) {
                        // a spill file deleted meanwhile
                    }
                });
            }
            assertThat(exposed).as("files and directories others may read").isEmpty();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDirectory))).isEqualTo("rwx------");
            try (Stream<Path> warehouse = Files.walk(dataDirectory)) {
                assertThat(warehouse.filter(path -> path.toString().endsWith(".parquet")).count()).as("Iceberg data files written").isPositive();
            }
        }
        finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static void awaitReady(Process process, Path log)
            throws Exception
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String output = Files.exists(log) ? Files.readString(log) : "";
            if (output.contains("Ontul ready")) {
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError("bin/ontul exited with " + process.exitValue() + " before it was ready:\n" + output);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("bin/ontul start was not ready within 120 s:\n" + Files.readString(log));
    }
}
