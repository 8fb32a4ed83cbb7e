package io.ontul.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;
import io.ontul.engine.testing.TpchQueries;
import io.ontul.server.testing.TestCluster;

/**
 * Queries on a cluster of one coordinator and two worker processes: their scans and the
 * pipelines above them run on the workers, and the results equal DuckDB's over the same data.
 */
class ClusterQueriesIT
{
    private static final String SCHEMA = "sf0_1";

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
        duckDb = DuckDbTpch.openInMemory();
        DuckDbTpch.load(duckDb, "tpch", SCHEMA, 0.1);
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
    void theTpchQueriesRunOnTheWorkersAndEqualDuckDb()
            throws Exception
    {
        long[] before = {fragmentsRun(0), fragmentsRun(1)};
        List<String> failures = new ArrayList<>();
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            for (Map.Entry<String, String> query : TpchQueries.load().entrySet()) {
                String sql = TpchQueries.withTablePrefix(query.getValue(), "tpch." + SCHEMA + ".");
                List<String> columns;
                List<List<Object>> actual;
                try (ResultSet result = statement.executeQuery(sql)) {
                    columns = ResultRows.columnNames(result.getMetaData());
                    actual = ResultRows.drain(result);
                }
                catch (SQLException e) {
                    throw new AssertionError(query.getKey() + " failed: " + e.getMessage() + "\n" + cluster.logs(), e);
                }
                List<List<Object>> expected;
                try (Statement reference = duckDb.createStatement(); ResultSet result = reference.executeQuery(sql)) {
                    expected = ResultRows.drain(result);
                }
                assertThat(expected).as("%s: DuckDB's rows", query.getKey()).isNotEmpty();
                Optional<String> difference = ResultComparison.compare(sql, columns, expected, actual);
                difference.ifPresent(text -> failures.add(query.getKey() + ": " + text));
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        // every query has at least one fragment, and each fragment runs on both workers
        assertThat(fragmentsRun(0) - before[0]).isGreaterThanOrEqualTo(22);
        assertThat(fragmentsRun(1) - before[1]).isGreaterThanOrEqualTo(22);
        // what came back from the workers is counted per query: q10 returns customers' rows through the gather
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT min(exchanged_bytes) FROM system.runtime.queries WHERE query LIKE '%from tpch." + SCHEMA + ".%' AND state = 'FINISHED'")) {
            rows.next();
            assertThat(rows.getLong(1)).as("the least any TPC-H query received from the workers").isPositive();
        }
    }

    /** The coordinator's REST API lists the cluster's nodes as system.runtime.nodes does; workers run no HTTP server. */
    @Test
    void theCoordinatorsRestApiListsTheNodes()
    {
        io.ontul.server.testing.HttpTestClient http = io.ontul.server.testing.HttpTestClient.onPort(cluster.coordinator().httpPort());
        String token = http.login("admin", io.ontul.server.testing.ServerProcess.PASSWORD);
        com.fasterxml.jackson.databind.JsonNode nodes = http.get("/v1/nodes", java.util.Optional.of(io.ontul.server.testing.HttpTestClient.bearer(token))).json().get("nodes");
        java.util.List<String> roles = new java.util.ArrayList<>();
        nodes.forEach(node -> roles.add(node.get("role").asText() + "/" + node.get("state").asText()));
        assertThat(roles).containsExactlyInAnyOrder("coordinator/active", "worker/active", "worker/active");
        assertThat(cluster.worker(0).output()).doesNotContain("HTTP (REST API");
    }

    @Test
    void explainShowsTheFragmentsAndTheirExchanges()
            throws SQLException
    {
        String plan = explain("SELECT l_returnflag, count(*) FROM tpch." + SCHEMA + ".lineitem GROUP BY l_returnflag");
        // partial aggregation on every worker, each worker's final aggregation over its own keys, gathered
        assertThat(plan).containsSubsequence("Exchange gather from fragment 0 on 2 workers", "Aggregate", "Exchange repartition (hash [k0]) from fragment 1 on 2 workers",
                "Scan tpch." + SCHEMA + ".lineitem");
        plan = explain("SELECT count(*) FROM tpch." + SCHEMA + ".lineitem JOIN tpch." + SCHEMA + ".orders ON l_orderkey = o_orderkey WHERE o_orderstatus = 'F'");
        // the build side is a fragment of its own: computed once over the workers, every worker reading all of it
        assertThat(plan).containsSubsequence("Exchange gather from fragment 0 on 2 workers", "HashJoin", "Exchange broadcast from fragment 1 on 2 workers", "Scan tpch." + SCHEMA + ".orders");
        // a top-N: each worker sends only its own best rows
        plan = explain("SELECT o_orderkey, o_totalprice FROM tpch." + SCHEMA + ".orders ORDER BY o_totalprice DESC LIMIT 5");
        assertThat(plan).containsSubsequence("TopN limit=5", "Exchange gather from fragment 0 on 2 workers", "TopN partial limit=5", "Scan tpch." + SCHEMA + ".orders");
        // memory tables live in the coordinator: their scans stay there
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE memory.default.local_nation AS SELECT * FROM tpch." + SCHEMA + ".nation");
        }
        assertThat(explain("SELECT count(*) FROM memory.default.local_nation")).doesNotContain("Exchange").contains("Gather (parallel)");

        // EXPLAIN ANALYZE: each worker's figures for the operators it ran; its scan read its share of the rows
        String analyzed = explain("ANALYZE SELECT count(*) FROM tpch." + SCHEMA + ".orders WHERE o_orderstatus = 'F'");
        String scan = analyzed.lines().filter(line -> line.contains("Scan tpch." + SCHEMA + ".orders")).findFirst().orElseThrow();
        java.util.regex.Matcher total = java.util.regex.Pattern.compile("on 2 workers: rows=(\\d+)").matcher(scan);
        assertThat(total.find()).as(scan).isTrue();
        java.util.regex.Matcher each = java.util.regex.Pattern.compile("; [0-9a-f-]{36}: rows=(\\d+)").matcher(scan);
        long sum = 0;
        int workers = 0;
        while (each.find()) {
            assertThat(Long.parseLong(each.group(1))).as(scan).isPositive();
            sum += Long.parseLong(each.group(1));
            workers++;
        }
        assertThat(workers).as(scan).isEqualTo(2);
        assertThat(sum).isEqualTo(Long.parseLong(total.group(1)));
    }

    @Test
    void bytesShuffledBetweenWorkersCountAsTheQuerysExchangedBytes()
            throws SQLException
    {
        // the final aggregation runs on the workers after a repartition between them: the coordinator gets one count per worker
        String sql = "SELECT count(*) AS shuffled_groups FROM (SELECT l_orderkey, count(*) AS c FROM tpch." + SCHEMA + ".lineitem GROUP BY l_orderkey)";
        assertThat(explain(sql)).containsSubsequence("Exchange gather from fragment 0 on 2 workers", "Aggregate", "Exchange repartition (hash [k0]) from fragment 1 on 2 workers");
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery(sql)) {
                rows.next();
                try (Statement reference = duckDb.createStatement(); ResultSet expected = reference.executeQuery(sql)) {
                    expected.next();
                    assertThat(rows.getLong(1)).as("DuckDB's count").isEqualTo(expected.getLong(1));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT exchanged_bytes FROM system.runtime.queries WHERE query LIKE 'SELECT count(*) AS shuffled_groups%' AND state = 'FINISHED'")) {
                assertThat(rows.next()).isTrue();
                // about 150,000 partial groups of 16 bytes cross between the workers; without them the query received a few hundred bytes
                assertThat(rows.getLong(1)).as("bytes the workers shuffled between them count too").isGreaterThan(500_000);
            }
            // the same repartition inside a build side, which is computed once and broadcast: its shuffle counts too, once
            String nested = "SELECT count(*) AS nested_shuffle FROM tpch." + SCHEMA + ".orders WHERE o_orderkey IN (SELECT l_orderkey FROM tpch." + SCHEMA
                    + ".lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 250)";
            assertThat(explain(nested)).containsSubsequence("Exchange broadcast from fragment 1 on 2 workers", "Exchange repartition (hash [k0]) from fragment 2 on 2 workers");
            try (ResultSet rows = statement.executeQuery(nested); Statement reference = duckDb.createStatement(); ResultSet expected = reference.executeQuery(nested)) {
                rows.next();
                expected.next();
                assertThat(rows.getLong(1)).as("DuckDB's count").isEqualTo(expected.getLong(1));
            }
            try (ResultSet rows = statement.executeQuery("SELECT exchanged_bytes FROM system.runtime.queries WHERE query LIKE 'SELECT count(*) AS nested_shuffle%' AND state = 'FINISHED'")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).as("bytes shuffled under a broadcast build side").isBetween(500_000L, 20_000_000L);
            }
        }
    }

    private static String explain(String sql)
            throws SQLException
    {
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("EXPLAIN " + sql)) {
            StringBuilder plan = new StringBuilder();
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
            return plan.toString();
        }
    }

    @Test
    void aJoinThatSpillsOnTheWorkersUnderASmallBudgetStillEqualsDuckDb()
            throws Exception
    {
        long[] before = {status(0).spilledBytes(), status(1).spilledBytes()};
        String sql = "SELECT o_orderpriority, count(*), sum(l_quantity), max(o_comment) FROM tpch." + SCHEMA + ".lineitem JOIN tpch." + SCHEMA + ".orders ON l_orderkey = o_orderkey "
                + "GROUP BY o_orderpriority";
        List<String> columns;
        List<List<Object>> actual;
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            // each worker builds the orders side itself, under the same budget as the query
            statement.execute("SET SESSION query_max_memory = '4MB'");
            try (ResultSet result = statement.executeQuery(sql)) {
                columns = ResultRows.columnNames(result.getMetaData());
                actual = ResultRows.drain(result);
            }
        }
        List<List<Object>> expected;
        try (Statement reference = duckDb.createStatement(); ResultSet result = reference.executeQuery(sql)) {
            expected = ResultRows.drain(result);
        }
        assertThat(expected).hasSize(5);
        assertThat(ResultComparison.compare(sql, columns, expected, actual)).isEmpty();
        assertThat(status(0).spilledBytes()).as("bytes worker 0 spilled").isGreaterThan(before[0]);
        assertThat(status(1).spilledBytes()).as("bytes worker 1 spilled").isGreaterThan(before[1]);
    }

    @Test
    void cancelStopsTheWorkersWithinASecond()
            throws Exception
    {
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            Thread query = new Thread(() -> {
                try (ResultSet rows = statement.executeQuery(ClusterFailuresIT.LONG_QUERY)) {
                    rows.next();
                }
                catch (SQLException expected) {
                    // cancelled
                }
            });
            query.start();
            ClusterFailuresIT.awaitBothWorkersBusy(cluster);
            statement.cancel();
            query.join(30_000);
            assertThat(query.isAlive()).as("the query's client thread still waits after the cancel").isFalse();
        }
        Thread.sleep(1000);
        for (int worker = 0; worker < 2; worker++) {
            assertThat(ClusterFailuresIT.cpuSeconds(cluster.worker(worker), 1000)).as("CPU seconds worker %s used in the second after the cancel", worker)
                    .isLessThan(ClusterFailuresIT.IDLE_CPU_SECONDS);
        }
    }

    private static long fragmentsRun(int worker)
            throws InterruptedException
    {
        return status(worker).fragmentsRun();
    }

    private static ClusterMessages.Report status(int worker)
            throws InterruptedException
    {
        return ClusterFailuresIT.status(allocator, cluster, worker);
    }
}
