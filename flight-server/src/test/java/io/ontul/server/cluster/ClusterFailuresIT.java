package io.ontul.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.server.testing.ServerProcess;
import io.ontul.server.testing.TestCluster;
import io.trino.tpch.TpchTable;

/**
 * A worker killed with SIGKILL while it runs part of a query: the query fails naming the worker,
 * the cluster keeps serving on the worker that is left, and under {@code retry_policy = 'query'}
 * the same query runs again on the live workers and answers as DuckDB does.
 */
class ClusterFailuresIT
{
    /** Seconds of work on two workers: every order against every customer of tpch.tiny, no key to hash on. */
    static final String LONG_QUERY = "SELECT count(*), sum(c.c_custkey) FROM tpch.sf0_1.orders o JOIN tpch.tiny.customer c ON MOD(o.o_orderkey + c.c_custkey, 1000) = 7";
    /** CPU seconds per second an idle server process may use (gRPC keep-alives, heartbeats, the JIT); a busy one uses about 1. */
    static final double IDLE_CPU_SECONDS = 0.3;

    @TempDir
    static Path directory;

    private static TestCluster cluster;
    private static BufferAllocator allocator;
    private static DuckDBConnection duckDb;

    @BeforeAll
    static void startCluster()
            throws SQLException
    {
        cluster = TestCluster.start(directory, 2, Map.of());
        allocator = new RootAllocator();
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.ORDERS);
        try (Statement statement = duckDb.createStatement()) {
            statement.execute("CREATE SCHEMA tpch.tiny");
        }
        DuckDbTpch.loadTable(duckDb, "tpch", "tiny", TpchTable.CUSTOMER, 0.01);
    }

    @AfterAll
    static void stopCluster()
            throws SQLException
    {
        if (cluster != null) {
            cluster.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        if (duckDb != null) {
            duckDb.close();
        }
    }

    @Test
    void aWorkerKilledUnderAQueryFailsItNamingTheWorkerAndARetryAnswersOnTheLiveWorker()
            throws Exception
    {
        String expected = reference();
        String killed = nodeId(1);
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            CompletableFuture<String> failing = CompletableFuture.supplyAsync(() -> run(statement));
            awaitBothWorkersBusy(cluster);
            cluster.killWorker(1);
            assertThatThrownBy(() -> failing.get(2, TimeUnit.MINUTES))
                    .hasMessageContaining("Lost worker " + killed + " at grpc+tcp://127.0.0.1:" + cluster.worker(1).port() + " while it ran part of the query");

            // the cluster serves on: the next query runs on the worker that is left
            long before = ClusterFailuresIT.status(allocator, cluster, 0).fragmentsRun();
            assertThat(run(statement)).isEqualTo(expected);
            assertThat(ClusterFailuresIT.status(allocator, cluster, 0).fragmentsRun()).isGreaterThan(before);
        }
        assertThat(cluster.coordinator().output()).contains("Worker " + killed + " at grpc+tcp://127.0.0.1:" + cluster.worker(1).port() + " declared dead: Lost worker");

        // back with both workers; under retry_policy = 'query' the same loss costs a second run, not the query
        cluster.restartWorker(1);
        cluster.awaitActiveWorkers(2);
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION retry_policy = 'query'");
            CompletableFuture<String> retried = CompletableFuture.supplyAsync(() -> run(statement));
            awaitBothWorkersBusy(cluster);
            cluster.killWorker(1);
            assertThat(retried.get(3, TimeUnit.MINUTES)).isEqualTo(expected);
            assertThatThrownBy(() -> statement.execute("SET SESSION retry_policy = 'task'"))
                    .hasMessageContaining("Invalid value 'task' for session property retry_policy: expected 'none' or 'query'");
        }
        assertThat(cluster.coordinator().output()).contains("running it again on the live workers (retry_policy = 'query')");
        cluster.restartWorker(1);
    }

    private static String run(Statement statement)
    {
        try (ResultSet rows = statement.executeQuery(LONG_QUERY)) {
            rows.next();
            return rows.getLong(1) + "," + rows.getLong(2);
        }
        catch (SQLException e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    private static String reference()
            throws SQLException
    {
        try (Statement statement = duckDb.createStatement(); ResultSet rows = statement.executeQuery(LONG_QUERY)) {
            rows.next();
            assertThat(rows.getLong(1)).isPositive();
            return rows.getLong(1) + "," + rows.getLong(2);
        }
    }

    private static String nodeId(int worker)
            throws java.io.IOException
    {
        return java.nio.file.Files.readString(directory.resolve("worker-" + worker).resolve("data").resolve(io.ontul.engine.api.cluster.ClusterConfig.NODE_ID_FILE)).trim();
    }

    /** Waits until both workers run a task of a query (as their status says). */
    static void awaitBothWorkersBusy(TestCluster cluster)
            throws Exception
    {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        try (BufferAllocator allocator = new RootAllocator()) {
            while (status(allocator, cluster, 0).runningTasks() == 0 || status(allocator, cluster, 1).runningTasks() == 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("The workers never both ran the query:\n" + cluster.logs());
                }
                Thread.sleep(50);
            }
        }
    }

    /** A worker's figures, asked with the cluster secret. */
    static ClusterMessages.Report status(BufferAllocator allocator, TestCluster cluster, int worker)
            throws InterruptedException
    {
        try (FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", cluster.worker(worker).port())).build()) {
            CallHeaders headers = new FlightCallHeaders();
            headers.insert(ClusterTokens.HEADER, new ClusterTokens(TestCluster.SECRET, Clock.systemUTC()).issue("test"));
            Result result = client.doAction(new Action(ClusterMessages.STATUS, new byte[0]), new HeaderCallOption(headers)).next();
            return ClusterMessages.read(result.getBody(), ClusterMessages.Report.class);
        }
    }

    /** CPU seconds the process uses over the next {@code millis} (user and system time of all its threads). */
    static double cpuSeconds(ServerProcess process, long millis)
            throws InterruptedException
    {
        ProcessHandle handle = ProcessHandle.of(process.pid()).orElseThrow();
        Duration before = handle.info().totalCpuDuration().orElseThrow();
        Thread.sleep(millis);
        Duration after = handle.info().totalCpuDuration().orElseThrow();
        return after.minus(before).toNanos() / 1e9;
    }
}
