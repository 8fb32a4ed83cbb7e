package io.ontul.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.iceberg.IcebergTesting;
import io.ontul.catalog.iceberg.write.IcebergBatchSink;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.server.testing.TestCluster;
import io.trino.tpch.TpchTable;

/**
 * Iceberg on a coordinator and two workers that share the warehouse. CREATE TABLE AS and INSERT:
 * each worker writes its own share of the rows into data files, the coordinator commits them all
 * in ONE snapshot (read back with Iceberg's own reader, equal to DuckDB); a worker killed with
 * SIGKILL in the middle of the write leaves no table, no snapshot and no file. Queries: the
 * workers scan the snapshot the coordinator planned with.
 */
class ClusterIcebergIT
{
    private static final String ORDERS = "SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate, o_comment FROM tpch.sf0_1.orders WHERE o_orderkey % 7 <> 0";
    /** The file names Ontul's writers give (partition/thread, writer task, operation id, counter): the task is the worker's number, 0 on the coordinator. */
    private static final Pattern DATA_FILE = Pattern.compile("\\d{5}-(\\d+)-([0-9a-f-]{36})-\\d{5}\\.parquet");

    @TempDir
    static Path directory;

    private static Path warehouse;
    private static TestCluster cluster;
    private static DuckDBConnection duckDb;
    private static HadoopCatalog iceberg;

    @BeforeAll
    static void startCluster()
            throws SQLException
    {
        warehouse = directory.resolve("warehouse");
        cluster = TestCluster.start(directory, 2, Map.of("ontul.security.allowed-paths", warehouse.toString()),
                Map.of("lake", Map.of("connector.name", "iceberg", "iceberg.warehouse", warehouse.toString())));
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.ORDERS);
        iceberg = IcebergTesting.hadoopCatalog(warehouse);
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA lake.w");
        }
    }

    @AfterAll
    static void stopCluster()
            throws Exception
    {
        if (cluster != null) {
            cluster.close();
        }
        if (duckDb != null) {
            duckDb.close();
        }
        if (iceberg != null) {
            iceberg.close();
        }
    }

    @Test
    void createTableAsIsWrittenByBothWorkersAndCommittedOnce()
            throws Exception
    {
        List<String> expected = duckDbRows(ORDERS);
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            assertThat(explain(statement, ORDERS)).contains("Exchange gather from fragment 0 on 2 workers");
            assertThat(update(statement, "CREATE TABLE lake.w.orders AS " + ORDERS)).isEqualTo(expected.size());
        }

        Table table = iceberg.loadTable(TableIdentifier.of("w", "orders"));
        List<Snapshot> snapshots = new ArrayList<>();
        table.snapshots().forEach(snapshots::add);
        assertThat(snapshots).hasSize(1);
        Snapshot snapshot = snapshots.get(0);
        assertThat(snapshot.summary()).containsEntry("total-records", String.valueOf(expected.size()));
        // every committed file is one of this statement's, written by worker 1 or 2 (never the coordinator)
        assertThat(writersOf(table, snapshot)).containsExactly("1", "2");
        // and no other file lies in the table's location
        assertThat(IcebergTesting.dataFiles(IcebergTesting.localPath(table.location()))).hasSize(countAdded(table, snapshot));

        List<String> actual = new ArrayList<>();
        for (List<Object> row : IcebergTesting.icebergRows(table, List.of("o_orderkey", "o_custkey", "o_totalprice", "o_orderdate", "o_comment"))) {
            actual.add(render(row.get(0), row.get(1), row.get(2), row.get(3), row.get(4)));
        }
        actual.sort(null);
        assertThat(actual).isEqualTo(expected);

        // an INSERT is written by the workers too, and committed as the table's second snapshot
        String rest = ORDERS.replace("<> 0", "= 0");
        List<String> inserted = duckDbRows(rest, 10_000);
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate("INSERT INTO lake.w.orders " + rest)).isEqualTo(inserted.size());
        }
        table.refresh();
        assertThat(table.snapshots()).hasSize(2);
        assertThat(table.currentSnapshot().summary()).containsEntry("added-records", String.valueOf(inserted.size()))
                .containsEntry("total-records", String.valueOf(expected.size() + inserted.size()));
        assertThat(writersOf(table, table.currentSnapshot())).containsExactly("1", "2");

        // Ontul reads back the same rows, the workers scanning the table's current snapshot
        String readBack = "SELECT count(*), sum(o_orderkey), sum(o_totalprice) FROM lake.w.orders";
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            assertThat(explain(statement, readBack)).contains("from fragment 0 on 2 workers").contains("Scan lake.w.orders");
        }
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(readBack)) {
            rows.next();
            assertThat(rows.getLong(1)).isEqualTo(duckDbLong("SELECT count(*) FROM tpch.sf0_1.orders"));
            assertThat(rows.getLong(2)).isEqualTo(duckDbLong("SELECT sum(o_orderkey) FROM tpch.sf0_1.orders"));
            assertThat(rows.getBigDecimal(3)).isEqualByComparingTo(duckDbDecimal("SELECT sum(o_totalprice) FROM tpch.sf0_1.orders"));
        }
    }

    /** The numbers of the writers (1-based workers) whose files {@code snapshot} added, each file checked to be of the snapshot's statement. */
    private static Set<String> writersOf(Table table, Snapshot snapshot)
    {
        String operationId = snapshot.summary().get(IcebergBatchSink.OPERATION_ID);
        Set<String> writers = new TreeSet<>();
        snapshot.addedDataFiles(table.io()).forEach(file -> {
            String name = file.location().substring(file.location().lastIndexOf('/') + 1);
            Matcher matcher = DATA_FILE.matcher(name);
            assertThat(matcher.matches()).as(name).isTrue();
            assertThat(matcher.group(2)).isEqualTo(operationId);
            writers.add(matcher.group(1));
        });
        return writers;
    }

    @Test
    void aCatalogOnlyTheCoordinatorHasIsReadAndWrittenThere()
            throws Exception
    {
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE CATALOG solo USING iceberg WITH (\"iceberg.warehouse\" = '" + warehouse.resolve("solo") + "')");
            statement.execute("CREATE SCHEMA solo.s");
            // the rows come from the workers, the coordinator writes them
            assertThat(statement.executeUpdate("CREATE TABLE solo.s.nation AS SELECT * FROM tpch.tiny.nation")).isEqualTo(25);
            assertThat(explain(statement, "SELECT count(*) FROM solo.s.nation")).doesNotContain("fragment");
            try (ResultSet rows = statement.executeQuery("SELECT count(*), sum(n_regionkey) FROM solo.s.nation")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(25);
                assertThat(rows.getLong(2)).isEqualTo(50);
            }
        }
        try (HadoopCatalog solo = IcebergTesting.hadoopCatalog(warehouse.resolve("solo"))) {
            Table table = solo.loadTable(TableIdentifier.of("s", "nation"));
            assertThat(writersOf(table, table.currentSnapshot())).containsExactly("0");
        }
    }

    @Test
    void aWorkerKilledInTheMiddleOfTheWriteLeavesNoTableNoSnapshotAndNoFile()
            throws Exception
    {
        Path location = warehouse.resolve("w").resolve("big");
        String last;
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            CompletableFuture<Integer> failing = CompletableFuture.supplyAsync(() -> {
                try {
                    return statement.executeUpdate("CREATE TABLE lake.w.big AS SELECT * FROM tpch.sf1.lineitem");
                }
                catch (SQLException e) {
                    throw new CompletionException(e);
                }
            });
            // both write; the one that started last surely has rows left to write
            awaitFilesOfWorker(location, "1");
            awaitFilesOfWorker(location, "2");
            last = lastWriter(location);
            cluster.killWorker(workerOfWriter(last));
            Throwable failure = null;
            try {
                Integer rows = failing.get(3, TimeUnit.MINUTES);
                throw new AssertionError("The write went on without the killed worker (" + rows + " rows):\n" + cluster.logs());
            }
            catch (java.util.concurrent.ExecutionException e) {
                failure = e.getCause();
            }
            assertThat(failure).hasMessageContaining("Lost worker").hasMessageContaining("while it ran part of the query");
        }
        assertThat(iceberg.tableExists(TableIdentifier.of("w", "big"))).isFalse();
        // the coordinator deletes what the dead worker left (it cannot itself); the live worker, cancelled, deletes its own
        awaitNoFiles(location);

        // the cluster writes on, on both workers once the dead one is back
        cluster.restartWorker(workerOfWriter(last));
        cluster.awaitActiveWorkers(2);
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate("CREATE TABLE lake.w.big AS SELECT * FROM tpch.tiny.lineitem")).isEqualTo(60175);
        }
        Table table = iceberg.loadTable(TableIdentifier.of("w", "big"));
        assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "60175");
        assertThat(IcebergTesting.dataFiles(location)).hasSize(countAdded(table, table.currentSnapshot()));
    }

    /** Runs an update; a failure carries the nodes' logs. */
    private static int update(Statement statement, String sql)
    {
        try {
            return statement.executeUpdate(sql);
        }
        catch (SQLException e) {
            throw new AssertionError(e.getMessage() + "\n" + cluster.logs(), e);
        }
    }

    private static String explain(Statement statement, String query)
            throws SQLException
    {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = statement.executeQuery("EXPLAIN " + query)) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    private static int countAdded(Table table, Snapshot snapshot)
    {
        int count = 0;
        for (var ignored : snapshot.addedDataFiles(table.io())) {
            count++;
        }
        return count;
    }

    /** The writer whose first data file in {@code location} is the newest. */
    private static String lastWriter(Path location)
            throws IOException
    {
        java.util.Map<String, java.nio.file.attribute.FileTime> first = new java.util.HashMap<>();
        for (Path file : IcebergTesting.dataFiles(location)) {
            Matcher matcher = DATA_FILE.matcher(file.getFileName().toString());
            if (matcher.matches()) {
                java.nio.file.attribute.FileTime created = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).creationTime();
                first.merge(matcher.group(1), created, (a, b) -> a.compareTo(b) <= 0 ? a : b);
            }
        }
        return first.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /**
     * The cluster's index of the worker that is writer {@code writer}: the coordinator numbers
     * the active workers in the order of their node ids, from 1.
     */
    private static int workerOfWriter(String writer)
            throws IOException
    {
        List<String> ids = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            ids.add(Files.readString(directory.resolve("worker-" + index).resolve("data").resolve(io.ontul.engine.api.cluster.ClusterConfig.NODE_ID_FILE)).trim());
        }
        List<String> sorted = ids.stream().sorted().toList();
        return ids.indexOf(sorted.get(Integer.parseInt(writer) - 1));
    }

    /** Waits until the worker numbered {@code writer} (1-based) has data files in {@code location}. */
    private static void awaitFilesOfWorker(Path location, String writer)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (IcebergTesting.dataFiles(location).stream().noneMatch(file -> {
            Matcher matcher = DATA_FILE.matcher(file.getFileName().toString());
            return matcher.matches() && matcher.group(1).equals(writer);
        })) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Worker " + writer + " never wrote a data file into " + location + ":\n" + cluster.logs());
            }
            Thread.sleep(50);
        }
    }

    /** Waits until no regular file is left under {@code location}. */
    private static void awaitNoFiles(Path location)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!files(location).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Files left in " + location + ": " + files(location) + "\n" + cluster.logs());
            }
            Thread.sleep(100);
        }
    }

    private static List<Path> files(Path location)
    {
        if (!Files.exists(location)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(location)) {
            return walk.filter(Files::isRegularFile).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> duckDbRows(String sql)
            throws SQLException
    {
        return duckDbRows(sql, 100_000);
    }

    private static List<String> duckDbRows(String sql, int atLeast)
            throws SQLException
    {
        List<String> rows = new ArrayList<>();
        try (Statement statement = duckDb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(render(result.getLong(1), result.getLong(2), result.getBigDecimal(3), result.getString(4), result.getString(5)));
            }
        }
        assertThat(rows).hasSizeGreaterThan(atLeast);
        rows.sort(null);
        return rows;
    }

    private static long duckDbLong(String sql)
            throws SQLException
    {
        try (Statement statement = duckDb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    private static BigDecimal duckDbDecimal(String sql)
            throws SQLException
    {
        try (Statement statement = duckDb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getBigDecimal(1);
        }
    }

    private static String render(Object orderKey, Object customerKey, Object price, Object date, Object comment)
    {
        return orderKey + "|" + customerKey + "|" + ((BigDecimal) price).setScale(2).toPlainString() + "|" + date + "|" + comment;
    }
}
