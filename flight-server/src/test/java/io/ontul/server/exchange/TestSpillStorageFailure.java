package io.ontul.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * The spill directory failing under a running query (made read-only, or a file put where a
 * query's folder was) fails that query with an EXTERNAL error (Flight's UNAVAILABLE) naming the
 * folder, not an internal one; the server keeps serving, and spills again once the directory is
 * usable.
 */
class TestSpillStorageFailure
{
    private static final String PASSWORD = "spill-failure-admin-password";
    /** Sorts SF1 lineitem under 4 MB: writes runs for many seconds. */
    private static final String LONG_SORT = "SELECT * FROM tpch.sf1.lineitem ORDER BY l_comment";
    /** 150,000 orders with 600,572 lines in all (TPC-H SF0.1), aggregated under 4 MB with spilling. */
    private static final String SPILLING_AGGREGATION = "SELECT count(*), sum(lines) FROM (SELECT l_orderkey, count(*) AS lines FROM tpch.sf0_1.lineitem GROUP BY l_orderkey)";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static BufferAllocator allocator;
    private static FlightClient client;
    private static FlightSqlClient sql;
    private static CallOption admin;

    @BeforeAll
    static void start()
            throws IOException
    {
        EngineConfig config = EngineConfig.embeddedDefaults().withProperty(EngineConfig.QUERY_MAX_MEMORY, "4MB");
        server = OntulServer.start(config, dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        allocator = new RootAllocator();
        client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
        sql = new FlightSqlClient(client);
        admin = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
    }

    @AfterAll
    static void stop()
            throws Exception
    {
        if (sql != null) {
            sql.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aSpillDirectoryThatFailsDuringAQueryIsAnExternalErrorNamingIt()
            throws Exception
    {
        Path spill = dataDirectory.resolve("exchange").resolve("spill");
        assertThat(countAndSum(SPILLING_AGGREGATION)).as("before").containsExactly(150_000L, 600_572L);

        CompletableFuture<Long> sort = CompletableFuture.supplyAsync(() -> drain(LONG_SORT));
        Path folder = awaitQueryFolder(spill, sort);
        Path moved = folder.resolveSibling(folder.getFileName() + ".moved");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            // permissions do not stop root: a file in the way of the query's folder does
            Files.move(folder, moved);
            Files.writeString(folder, "not a folder");
        }
        else {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-x------"));
        }
        // a bystander is served while the sort fails
        assertThat(countAndSum("SELECT count(*), sum(n_regionkey) FROM tpch.tiny.nation")).containsExactly(25L, 50L);
        try {
            sort.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            throw new AssertionError("the sort ended without an error although its spill folder failed");
        }
        catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOfSatisfying(FlightRuntimeException.class, flight -> {
                assertThat(flight.status().code()).as(flight.getMessage()).isEqualTo(FlightStatusCode.UNAVAILABLE);
                assertThat(flight.status().description())
                        .startsWith("Exchange storage failed: ")
                        .contains(folder.toString())
                        .contains(root ? "a file is in the way" : "permission denied")
                        .contains("check free space and permissions there: ontul.exchange.base.dir")
                        .doesNotContain("bug")
                        .hasSizeLessThan(4096);
            });
        }
        finally {
            if (root) {
                Files.deleteIfExists(folder);
                deleteTree(moved);
            }
            else if (Files.exists(folder)) {
                Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
            }
        }

        // the server keeps serving and spills again
        assertThat(countAndSum(SPILLING_AGGREGATION)).as("after").containsExactly(150_000L, 600_572L);
        assertThat(countAndSum("SELECT count(*), sum(spilled_bytes) FROM system.runtime.queries WHERE query = '" + SPILLING_AGGREGATION + "'").get(1))
                .as("bytes the aggregation spilled, before and after")
                .isPositive();
        try (FlightStream rows = stream("SELECT state, error FROM system.runtime.queries WHERE query = '" + LONG_SORT + "'")) {
            List<String> states = new ArrayList<>();
            while (rows.next()) {
                for (int row = 0; row < rows.getRoot().getRowCount(); row++) {
                    states.add(rows.getRoot().getVector(0).getObject(row) + " " + rows.getRoot().getVector(1).getObject(row));
                }
            }
            assertThat(states).singleElement().asString().startsWith("FAILED Exchange storage failed: ");
        }
    }

    /** Waits for the running query's spill folder to hold a run; fails if the query ends first. */
    private static Path awaitQueryFolder(Path spill, CompletableFuture<?> query)
            throws Exception
    {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Stream<Path> folders = Files.list(spill)) {
                for (Path folder : folders.filter(Files::isDirectory).toList()) {
                    try (Stream<Path> files = Files.list(folder)) {
                        if (files.findAny().isPresent()) {
                            return folder;
                        }
                    }
                    catch (IOException e) {
                        // the folder went as a query ended: look again
                    }
                }
            }
            if (query.isDone()) {
                query.get();
                throw new AssertionError("the query ended before it spilled");
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no spill folder within " + TIMEOUT + " under " + spill);
    }

    private static List<Long> countAndSum(String query)
    {
        try (FlightStream rows = stream(query)) {
            assertThat(rows.next()).isTrue();
            return List.of(((BigIntVector) rows.getRoot().getVector(0)).get(0), ((Number) rows.getRoot().getVector(1).getObject(0)).longValue());
        }
        catch (Exception e) {
            throw new AssertionError(query, e);
        }
    }

    private static long drain(String query)
    {
        long rowCount = 0;
        try (FlightStream rows = stream(query)) {
            while (rows.next()) {
                rowCount += rows.getRoot().getRowCount();
            }
        }
        catch (FlightRuntimeException e) {
            throw e;
        }
        catch (Exception e) {
            throw new AssertionError(query, e);
        }
        return rowCount;
    }

    private static FlightStream stream(String query)
    {
        FlightInfo info = sql.execute(query, admin);
        return sql.getStream(info.getEndpoints().get(0).getTicket(), admin);
    }

    private static void deleteTree(Path root)
            throws IOException
    {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
