package io.ontul.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.server.testing.ServerProcess;

/**
 * Spill files of a server killed in the middle of spilling (SIGKILL: no query end, no shutdown
 * hook) are removed by the next server started on the same data directory, before it serves.
 * The killed server's files are real: encrypted runs of a sort that was still running, which
 * hold none of the rows' text in plain.
 */
class SpillCrashIT
{
    private static final Duration SPILL_TIMEOUT = Duration.ofSeconds(120);

    @Test
    void spillFilesOfAKilledServerAreRemovedAtTheNextStart(@TempDir Path directory)
            throws Exception
    {
        Path data = directory.resolve("data");
        Path spill = data.resolve("exchange").resolve("spill");
        ServerProcess server = ServerProcess.start(data, directory.resolve("server-0.log"), List.of());
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Connection connection = server.connect();
            // a sort of SF1 lineitem under 16 MB writes runs for many seconds
            Future<?> sort = runner.submit(() -> {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET SESSION query_max_memory = '16MB'");
                    try (ResultSet rows = statement.executeQuery("SELECT * FROM tpch.sf1.lineitem ORDER BY l_comment")) {
                        while (rows.next()) {
                            // drained; the server dies first
                        }
                    }
                }
                return null;
            });
            List<Path> files = awaitSpillFiles(spill, sort);
            server.kill();
            assertThat(server.isAlive()).isFalse();
            assertThat(files).as("spill files the killed server left").allMatch(Files::exists);
            // TPC-H comments are made of such words; the runs hold thousands of comments
            assertThat(files).as("encrypted spill files").noneMatch(file -> contains(file, "furiously") || contains(file, "carefully"));

            server = ServerProcess.start(data, directory.resolve("server-1.log"), List.of());
            assertThat(files).as("spill files after the next start").noneMatch(Files::exists);
            assertThat(regularFiles(spill)).isEmpty();

            // and the new server spills and answers: one group per order, every line counted
            try (Connection restarted = server.connect(); Statement statement = restarted.createStatement()) {
                statement.execute("SET SESSION query_max_memory = '4MB'");
                String query = "SELECT count(*), sum(lines) FROM (SELECT l_orderkey, count(*) AS lines FROM tpch.sf0_1.lineitem GROUP BY l_orderkey)";
                try (ResultSet result = statement.executeQuery(query)) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getLong(1)).isEqualTo(150_000L);
                    assertThat(result.getLong(2)).isEqualTo(600_572L);
                }
                try (ResultSet result = statement.executeQuery("SELECT spilled_bytes FROM system.runtime.queries WHERE query = '" + query + "'")) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getLong(1)).as("bytes the aggregation spilled").isPositive();
                }
            }
            // the server deletes a query's files as the query closes, just after the client saw its last rows
            awaitNoSpillFiles(spill);
        }
        finally {
            runner.shutdownNow();
            server.close();
        }
    }

    /** Waits until the running sort has written spill files holding data; fails if it ends first. */
    private static List<Path> awaitSpillFiles(Path spill, Future<?> sort)
            throws Exception
    {
        long deadline = System.nanoTime() + SPILL_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                List<Path> files = regularFiles(spill);
                long bytes = 0;
                for (Path file : files) {
                    bytes += Files.size(file);
                }
                if (bytes > 8L * 1024 * 1024) {
                    return files;
                }
            }
            catch (NoSuchFileException | UncheckedIOException e) {
                // a run deleted while the folder was listed: look again
            }
            if (sort.isDone()) {
                sort.get();
                throw new AssertionError("the sort ended before it spilled 8 MB");
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no spill files within " + SPILL_TIMEOUT + " under " + spill);
    }

    private static void awaitNoSpillFiles(Path spill)
            throws Exception
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<Path> left = regularFiles(spill);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = regularFiles(spill);
        }
        assertThat(left).as("spill files once the query ended").isEmpty();
    }

    private static List<Path> regularFiles(Path directory)
            throws IOException
    {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            return new ArrayList<>(paths.filter(Files::isRegularFile).toList());
        }
    }

    private static boolean contains(Path file, String text)
    {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
