package io.ontul.server.hardening;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.server.testing.ServerProcess;

/**
 * {@code CREATE TABLE ... AS SELECT} into Iceberg is one commit: a server killed with SIGKILL
 * while the statement writes its data files leaves no table, so after a restart the same
 * statement succeeds, and the files the killed server wrote are gone once it has.
 */
class CreateTableAsCrashIT
{
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(120);
    private static final String CTAS = "CREATE TABLE lake.s.orders AS SELECT * FROM tpch.sf1.orders";

    @Test
    void killedCreateTableAsLeavesNoTable(@TempDir Path directory)
            throws Exception
    {
        Path data = directory.resolve("data");
        Path tableData = data.resolve("warehouse").resolve("s").resolve("orders").resolve("data");
        ServerProcess server = ServerProcess.start(data, directory.resolve("server-0.log"), List.of());
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
                statement.execute("CREATE CATALOG lake USING iceberg");
                statement.execute("CREATE SCHEMA lake.s");
            }
            Connection writer = server.connect();
            Future<?> ctas = runner.submit(() -> {
                try (Statement statement = writer.createStatement()) {
                    statement.execute(CTAS);
                }
                return null;
            });
            List<Path> written = awaitDataFiles(tableData, ctas);
            server.kill();
            assertThat(server.isAlive()).isFalse();
            assertThat(written).as("data files of the killed statement").allMatch(Files::exists);

            server = ServerProcess.start(data, directory.resolve("server-1.log"), List.of());
            try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
                assertThat(rows(statement, "SHOW TABLES FROM lake.s")).as("tables after the crash").isEmpty();

                assertThat(statement.executeUpdate(CTAS)).isEqualTo(1_500_000);
                String totals = "SELECT count(*), sum(o_totalprice), count(DISTINCT o_custkey) FROM ";
                assertThat(rows(statement, totals + "lake.s.orders")).isEqualTo(rows(statement, totals + "tpch.sf1.orders"));
                assertThat(rows(statement, "SELECT count(*) FROM lake.s.\"orders$snapshots\"")).containsExactly(List.of(1L));

                // every Parquet file in the table's folder is one the table references
                Set<String> referenced = new HashSet<>();
                for (List<Object> row : rows(statement, "SELECT file_path FROM lake.s.\"orders$files\"")) {
                    referenced.add(Path.of(String.valueOf(row.get(0)).replaceFirst("^file:(//)?", "")).getFileName().toString());
                }
                assertThat(written).as("files of the killed statement after the next one committed").noneMatch(Files::exists);
                assertThat(parquetFiles(tableData)).extracting(file -> file.getFileName().toString()).containsExactlyInAnyOrderElementsOf(referenced);
            }
        }
        finally {
            runner.shutdownNow();
            server.close();
        }
    }

    /** Waits until the running CTAS has written Parquet data; fails if the statement ends first. */
    private static List<Path> awaitDataFiles(Path tableData, Future<?> ctas)
            throws Exception
    {
        long deadline = System.nanoTime() + WRITE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<Path> files = parquetFiles(tableData);
            long bytes = 0;
            for (Path file : files) {
                bytes += Files.size(file);
            }
            if (bytes > 1024 * 1024) {
                return files;
            }
            if (ctas.isDone()) {
                ctas.get();
                throw new AssertionError("the CREATE TABLE AS committed before it wrote 1 MB that the test could see");
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no data files within " + WRITE_TIMEOUT + " under " + tableData);
    }

    private static List<Path> parquetFiles(Path directory)
    {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.filter(path -> path.toString().endsWith(".parquet") && Files.isRegularFile(path)).toList();
        }
        catch (IOException | UncheckedIOException e) {
            // a file renamed while listed: the next poll sees it
            return List.of();
        }
    }

    private static List<List<Object>> rows(Statement statement, String sql)
            throws SQLException
    {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    Object value = result.getObject(i);
                    row.add(value instanceof BigDecimal decimal ? decimal.stripTrailingZeros() : value);
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
