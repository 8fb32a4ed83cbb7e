package io.ontul.catalog.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultRows;
import io.ontul.engine.testing.SqlValues;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The Iceberg catalog through the engine's SQL, on a Hadoop (directory) catalog on local disk:
 * CREATE TABLE AS from tpch, INSERT, metadata tables and time travel; results compared with
 * DuckDB over the same TPC-H data, and with Iceberg's own reader.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestIcebergSql
{
    @TempDir
    static Path directory;

    private Engine engine;
    private Session session;
    private DuckDBConnection duckDb;
    private HadoopCatalog catalog;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path warehouse = directory.resolve("warehouse");
        engine = Engine.create(new EngineConfig(Map.of(), Map.of("iceberg", Map.of("connector.name", "iceberg", IcebergConfig.WAREHOUSE, warehouse.toString()))));
        session = engine.createSession("test");
        duckDb = DuckDbTpch.openInMemory();
        DuckDbTpch.load(duckDb, "tpch", "tiny", 0.01);
        catalog = IcebergTesting.hadoopCatalog(warehouse);
        execute("CREATE SCHEMA iceberg.tpch");
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (duckDb != null) {
            duckDb.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void createTableAsSelectMatchesDuckDb()
            throws Exception
    {
        List<List<Object>> created = execute("CREATE TABLE iceberg.tpch.lineitem AS SELECT * FROM tpch.tiny.lineitem");
        assertThat(created).containsExactly(List.of(60_175L));
        String query = "SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice), min(l_shipdate), max(l_comment), count(*) FROM %s GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2";
        assertSameRows(execute(query.formatted("iceberg.tpch.lineitem")), duckDb(query.formatted("tpch.tiny.lineitem")));
        assertSameRows(execute("SELECT * FROM iceberg.tpch.lineitem WHERE l_orderkey < 100"), duckDb("SELECT * FROM tpch.tiny.lineitem WHERE l_orderkey < 100"));

        Table table = catalog.loadTable(TableIdentifier.of("tpch", "lineitem"));
        assertThat(table.snapshots()).hasSize(1);
        List<String> columns = List.of("l_orderkey", "l_linenumber", "l_quantity", "l_shipdate", "l_comment");
        assertSameRows(IcebergTesting.icebergRows(table, columns), duckDb("SELECT " + String.join(", ", columns) + " FROM tpch.tiny.lineitem"));
    }

    @Test
    void createTableAsCommitsTheTableWithItsRows()
            throws Exception
    {
        Path warehouse = directory.resolve("warehouse");
        // a query that fails after rows were written: no table, no metadata, no data file
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.tpch.failed AS SELECT l_orderkey, CAST(CASE WHEN l_orderkey > 59000 THEN 'x' ELSE '1' END AS INTEGER) AS v FROM tpch.tiny.lineitem"))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("'x'");
        assertThat(catalog.tableExists(TableIdentifier.of("tpch", "failed"))).isFalse();
        assertThat(IcebergTesting.dataFiles(warehouse.resolve("tpch").resolve("failed"))).isEmpty();
        assertThat(execute("SHOW TABLES FROM iceberg.tpch")).doesNotContain(List.of("failed"));

        // an empty result still creates the table, in one commit with no snapshot
        assertThat(execute("CREATE TABLE iceberg.tpch.no_rows AS SELECT * FROM tpch.tiny.nation WHERE n_nationkey < 0")).containsExactly(List.of(0L));
        Table empty = catalog.loadTable(TableIdentifier.of("tpch", "no_rows"));
        assertThat(empty.snapshots()).isEmpty();
        assertThat(empty.schema().columns()).hasSize(4);
        assertThat(execute("SELECT count(*) FROM iceberg.tpch.no_rows")).containsExactly(List.of(0L));

        // data files a killed server left for a table that was never created go; other files stay
        Path leftovers = warehouse.resolve("tpch").resolve("crashed").resolve("data");
        java.nio.file.Files.createDirectories(leftovers);
        Path leftover = leftovers.resolve("00000-3-0b6e1c7a-1111-4222-8333-944445555666-00001.parquet");
        Path foreign = leftovers.resolve("notes.parquet");
        java.nio.file.Files.writeString(leftover, "not really parquet");
        java.nio.file.Files.writeString(foreign, "not ours");
        assertThat(execute("CREATE TABLE iceberg.tpch.crashed AS SELECT * FROM tpch.tiny.nation")).containsExactly(List.of(25L));
        assertThat(leftover).doesNotExist();
        assertThat(foreign).exists();
        assertThat(execute("SELECT count(*), sum(n_regionkey) FROM iceberg.tpch.crashed")).containsExactly(List.of(25L, 50L));
        Table crashed = catalog.loadTable(TableIdentifier.of("tpch", "crashed"));
        assertThat(crashed.snapshots()).hasSize(1);
        assertThat(crashed.history()).hasSize(1);
    }

    @Test
    void scansReadSmallerBatchesUnderASmallMemoryLimit()
            throws Exception
    {
        execute("CREATE TABLE iceberg.tpch.lineitem_batches AS SELECT * FROM tpch.tiny.lineitem");
        String query = "SELECT l_returnflag, count(*), sum(l_quantity) FROM %s GROUP BY l_returnflag ORDER BY 1";
        String explain = "EXPLAIN ANALYZE " + query.formatted("iceberg.tpch.lineitem_batches");
        // 60175 rows in one file: 32768-row batches without a limit; under 4 MB a 64th of it per batch (about 3,000 rows of two columns)
        assertThat(scanBatches(explain)).isLessThanOrEqualTo(4);
        session.properties().put("query_max_memory", "4MB");
        try {
            assertThat(scanBatches(explain)).isGreaterThanOrEqualTo(15);
            assertSameRows(execute(query.formatted("iceberg.tpch.lineitem_batches")), duckDb(query.formatted("tpch.tiny.lineitem")));
        }
        finally {
            session.properties().remove("query_max_memory");
        }
    }

    /** The batches the Iceberg scan of an EXPLAIN ANALYZE returned. */
    private long scanBatches(String explainAnalyze)
    {
        String scan = execute(explainAnalyze).stream()
                .map(row -> String.valueOf(row.get(0)))
                .flatMap(String::lines)
                .filter(line -> line.contains("Scan iceberg."))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Iceberg scan in the plan"));
        Matcher batches = Pattern.compile("batches=(\\d+)").matcher(scan);
        assertThat(batches.find()).as("batches in %s", scan).isTrue();
        return Long.parseLong(batches.group(1));
    }

    @Test
    void insertAddsOneSnapshotPerStatement()
            throws Exception
    {
        execute("CREATE TABLE iceberg.tpch.orders_log (o_orderkey BIGINT NOT NULL, o_custkey BIGINT, o_totalprice DECIMAL(12, 2), o_orderdate DATE, o_comment VARCHAR)");
        Table table = catalog.loadTable(TableIdentifier.of("tpch", "orders_log"));
        assertThat(table.snapshots()).isEmpty();

        assertThat(execute("INSERT INTO iceberg.tpch.orders_log SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate, o_comment FROM tpch.tiny.orders WHERE o_orderkey < 10000"))
                .isEqualTo(duckDb("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderkey < 10000"));
        assertThat(execute("INSERT INTO iceberg.tpch.orders_log SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate, o_comment FROM tpch.tiny.orders WHERE o_orderkey >= 10000"))
                .isEqualTo(duckDb("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderkey >= 10000"));
        assertThat(execute("INSERT INTO iceberg.tpch.orders_log VALUES (1000000, NULL, 12.5, DATE '2026-01-02', 'by hand')")).containsExactly(List.of(1L));
        table.refresh();
        assertThat(table.snapshots()).hasSize(3);
        assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "15001").containsEntry("added-records", "1");

        assertSameRows(execute("SELECT count(*), sum(o_totalprice), min(o_orderdate), max(o_orderkey), count(o_custkey) FROM iceberg.tpch.orders_log"),
                duckDb("SELECT count(*) + 1, sum(o_totalprice) + 12.5, min(o_orderdate), 1000000, count(o_custkey) FROM tpch.tiny.orders"));
        assertThat(execute("SELECT o_custkey, o_comment FROM iceberg.tpch.orders_log WHERE o_orderkey = 1000000")).containsExactly(java.util.Arrays.asList(null, "by hand"));
        assertThat(catalog.loadTable(TableIdentifier.of("tpch", "orders_log")).newScan().planFiles()).isNotEmpty();
    }

    @Test
    void metadataTablesAndTimeTravel()
    {
        execute("CREATE TABLE iceberg.tpch.nations AS SELECT * FROM tpch.tiny.nation WHERE n_regionkey = 0");
        execute("INSERT INTO iceberg.tpch.nations SELECT * FROM tpch.tiny.nation WHERE n_regionkey <> 0");
        Table table = catalog.loadTable(TableIdentifier.of("tpch", "nations"));
        long first = table.currentSnapshot().parentId();
        long second = table.currentSnapshot().snapshotId();

        List<List<Object>> snapshots = execute("SELECT snapshot_id, parent_id, operation, summary FROM iceberg.tpch.\"nations$snapshots\" ORDER BY committed_at");
        assertThat(snapshots).hasSize(2);
        assertThat(snapshots.get(0).subList(0, 3)).containsExactly(first, null, "append");
        assertThat(snapshots.get(1).subList(0, 3)).containsExactly(second, first, "append");
        assertThat((String) snapshots.get(1).get(3)).contains("added-records=20").contains("total-records=25");

        List<List<Object>> files = execute("SELECT file_path, file_format, record_count, file_size_in_bytes FROM iceberg.tpch.\"nations$files\"");
        assertThat(files).isNotEmpty();
        assertThat(files.stream().mapToLong(row -> (Long) row.get(2)).sum()).isEqualTo(25);
        assertThat(files).allSatisfy(row -> {
            assertThat((String) row.get(0)).endsWith(".parquet");
            assertThat(row.get(1)).isEqualTo("PARQUET");
            assertThat((Long) row.get(3)).isPositive();
        });
        assertThat(execute("SELECT snapshot_id, is_current_ancestor FROM iceberg.tpch.\"nations$history\" ORDER BY made_current_at"))
                .containsExactly(List.of(first, true), List.of(second, true));

        // every metadata table reads, nested columns as text
        assertThat(execute("SELECT * FROM iceberg.tpch.\"nations$files\"")).hasSameSizeAs(files);
        assertThat(execute("SELECT name, type, snapshot_id FROM iceberg.tpch.\"nations$refs\"")).containsExactly(List.of("main", "BRANCH", second));
        assertThat(execute("SELECT added_data_files_count FROM iceberg.tpch.\"nations$manifests\"")).hasSize(2);
        assertThat(execute("SELECT * FROM iceberg.tpch.\"nations$entries\"")).hasSameSizeAs(files);
        assertThat(execute("SELECT record_count, file_count FROM iceberg.tpch.\"nations$partitions\"")).containsExactly(List.of(25L, (long) files.size()));

        assertThat(execute("SELECT count(*) FROM iceberg.tpch.\"nations@%d\"".formatted(first))).containsExactly(List.of(5L));
        assertThat(execute("SELECT count(*) FROM iceberg.tpch.\"nations@%d\"".formatted(second))).containsExactly(List.of(25L));
        assertThat(execute("SELECT n_name FROM iceberg.tpch.\"nations@%d\" WHERE n_nationkey = 0".formatted(first))).containsExactly(List.of("ALGERIA"));

        assertThatThrownBy(() -> execute("SELECT count(*) FROM iceberg.tpch.\"nations@42\""))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessageContaining("Snapshot 42 of table 'iceberg.tpch.nations' does not exist");
        assertThatThrownBy(() -> execute("SELECT * FROM iceberg.tpch.\"nations$bogus\""))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessageContaining("Metadata table 'bogus' of table 'iceberg.tpch.nations' does not exist");
        assertThatThrownBy(() -> execute("INSERT INTO iceberg.tpch.\"nations@%d\" SELECT * FROM tpch.tiny.nation".formatted(first)))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED));
    }

    @Test
    void partitionedTable()
            throws Exception
    {
        execute("CREATE TABLE iceberg.tpch.orders_by_month (o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus VARCHAR, o_totalprice DECIMAL(12, 2), o_orderdate DATE) "
                + "WITH (partitioning = ARRAY['year(o_orderdate)', 'bucket(4, o_custkey)', 'o_orderstatus'])");
        execute("INSERT INTO iceberg.tpch.orders_by_month SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate FROM tpch.tiny.orders");
        Table table = catalog.loadTable(TableIdentifier.of("tpch", "orders_by_month"));
        assertThat(table.spec().fields()).extracting(field -> field.transform().toString()).containsExactly("year", "bucket[4]", "identity");
        assertThat(table.snapshots()).hasSize(1);
        // every file holds one partition: many more files than writer threads
        assertThat(execute("SELECT count(*) FROM iceberg.tpch.\"orders_by_month$files\"").get(0).get(0)).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LONG).isGreaterThan(20);
        assertThat(execute("SELECT \"partition\" FROM iceberg.tpch.\"orders_by_month$files\" WHERE record_count > 0"))
                .allSatisfy(row -> assertThat((String) row.get(0)).matches("\\{o_orderdate_year=\\d+, o_custkey_bucket=[0-3], o_orderstatus=[FOP]}"));
        String query = "SELECT o_orderstatus, count(*), sum(o_totalprice) FROM %s WHERE o_orderdate BETWEEN DATE '1995-03-01' AND DATE '1995-03-31' AND o_custkey IN (10, 11, 12, 370) GROUP BY o_orderstatus";
        assertSameRows(execute(query.formatted("iceberg.tpch.orders_by_month")), duckDb(query.formatted("tpch.tiny.orders")));
        assertSameRows(IcebergTesting.icebergRows(table, List.of("o_orderkey", "o_orderdate")), duckDb("SELECT o_orderkey, o_orderdate FROM tpch.tiny.orders"));
    }

    /**
     * DELETE, UPDATE and MERGE run here and, the same statements, in DuckDB over the same TPC-H
     * orders: the same update counts and the same table after each, one overwrite snapshot per
     * statement, and Iceberg's own reader reads what Ontul reads.
     */
    @Test
    void rowLevelChangesMatchDuckDbWithOneCommitEach()
            throws Exception
    {
        execute("CREATE TABLE iceberg.tpch.orders_dml AS SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_clerk FROM tpch.tiny.orders");
        try (Statement statement = duckDb.createStatement()) {
            statement.execute("CREATE TABLE orders_dml AS SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_clerk FROM tpch.tiny.orders");
        }
        Table table = catalog.loadTable(TableIdentifier.of("tpch", "orders_dml"));
        List<String> statements = List.of(
                "DELETE FROM %s WHERE o_orderstatus = 'F' AND o_totalprice < 100000",
                "UPDATE %s SET o_totalprice = o_totalprice + 1.25, o_clerk = upper(o_clerk) || '!' WHERE o_orderdate >= DATE '1997-01-01'",
                "MERGE INTO %s t USING (SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate FROM tpch.tiny.orders WHERE o_orderkey %% 7 = 0) s "
                        + "ON t.o_orderkey = s.o_orderkey "
                        + "WHEN MATCHED AND s.o_orderstatus = 'P' THEN DELETE "
                        + "WHEN MATCHED THEN UPDATE SET o_clerk = 'merged' "
                        + "WHEN NOT MATCHED THEN INSERT (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_clerk) "
                        + "VALUES (s.o_orderkey, s.o_custkey, s.o_orderstatus, s.o_totalprice, s.o_orderdate, 'reinserted')");
        String contents = "SELECT * FROM %s ORDER BY o_orderkey";
        for (String statement : statements) {
            long snapshots = table.snapshots().spliterator().getExactSizeIfKnown();
            List<List<Object>> counted = execute(statement.formatted("iceberg.tpch.orders_dml"));
            long expected;
            try (Statement duckDbStatement = duckDb.createStatement()) {
                expected = duckDbStatement.executeLargeUpdate(statement.formatted("orders_dml"));
            }
            assertThat(counted).as(statement).containsExactly(List.of(expected));
            assertThat((Long) counted.get(0).get(0)).as(statement).isPositive();
            assertSameRows(execute(contents.formatted("iceberg.tpch.orders_dml")), duckDb(contents.formatted("orders_dml")));
            table.refresh();
            assertThat(table.snapshots().spliterator().getExactSizeIfKnown()).as(statement).isEqualTo(snapshots + 1);
            assertThat(table.currentSnapshot().operation()).isEqualTo("overwrite");
            assertSameRows(IcebergTesting.icebergRows(table, List.of("o_orderkey", "o_totalprice", "o_clerk")),
                    duckDb("SELECT o_orderkey, o_totalprice, o_clerk FROM orders_dml"));
        }
        // a failing statement leaves the table and its snapshots as they were
        long snapshots = table.snapshots().spliterator().getExactSizeIfKnown();
        assertThatThrownBy(() -> execute("UPDATE iceberg.tpch.orders_dml SET o_custkey = CAST(CASE WHEN o_orderkey > 50000 THEN 'x' ELSE '1' END AS INTEGER)"))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("'x'");
        table.refresh();
        assertThat(table.snapshots().spliterator().getExactSizeIfKnown()).isEqualTo(snapshots);
        assertSameRows(execute(contents.formatted("iceberg.tpch.orders_dml")), duckDb(contents.formatted("orders_dml")));
    }

    @Test
    void aPrimaryKeyIsRecordedAsIdentifierFields()
    {
        execute("CREATE TABLE iceberg.tpch.keyed (id BIGINT, region VARCHAR, name VARCHAR, PRIMARY KEY (id, region))");
        Table table = catalog.loadTable(TableIdentifier.of("tpch", "keyed"));
        assertThat(table.schema().identifierFieldNames()).containsExactlyInAnyOrder("id", "region");
        assertThat(table.schema().findField("id").isRequired()).isTrue();
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.tpch.unique_keyed (id BIGINT UNIQUE)"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(io.ontul.spi.ErrorCode.NOT_SUPPORTED))
                .hasMessage("line 1:51: Catalog 'iceberg' does not support UNIQUE in CREATE TABLE");
    }

    /**
     * TIMESTAMP WITH TIME ZONE is Iceberg's timestamptz both ways: written as instants (Iceberg's
     * reader agrees), read back as TIMESTAMP WITH TIME ZONE, and a filter on an instant reaches the
     * scan.
     */
    @Test
    void timestampsWithTimeZoneAreTimestamptz()
            throws Exception
    {
        execute("CREATE TABLE iceberg.tpch.events_tz (id BIGINT, at TIMESTAMP(6) WITH TIME ZONE)");
        execute("INSERT INTO iceberg.tpch.events_tz VALUES (1, TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00.000001 +02:00'), (3, NULL)");
        execute("INSERT INTO iceberg.tpch.events_tz VALUES (2, TIMESTAMP WITH TIME ZONE '2026-03-02 23:30:00 UTC')");
        Table table = catalog.loadTable(TableIdentifier.of("tpch", "events_tz"));
        assertThat(table.schema().findField("at").type()).isEqualTo(org.apache.iceberg.types.Types.TimestampType.withZone());
        assertThat(IcebergTesting.icebergRows(table, List.of("id", "at")).stream().sorted(SqlValues.ROW_ORDER).toList()).containsExactly(
                List.of(1L, java.time.Instant.parse("2026-03-01T08:00:00.000001Z")),
                List.of(2L, java.time.Instant.parse("2026-03-02T23:30:00Z")),
                java.util.Arrays.asList(3L, null));
        assertThat(execute("SELECT column_name, data_type FROM iceberg.information_schema.columns WHERE table_name = 'events_tz' AND column_name = 'at'"))
                .containsExactly(List.of("at", "TIMESTAMP(6) WITH TIME ZONE"));
        assertThat(execute("SELECT id, CAST(at AS VARCHAR) FROM iceberg.tpch.events_tz WHERE at IS NOT NULL ORDER BY id"))
                .containsExactly(List.of(1L, "2026-03-01 08:00:00.000001 UTC"), List.of(2L, "2026-03-02 23:30:00.000000 UTC"));
        String later = "SELECT id FROM iceberg.tpch.events_tz WHERE at > TIMESTAMP WITH TIME ZONE '2026-03-02 00:00:00 +01:00'";
        assertThat(execute(later)).containsExactly(List.of(2L));
        String plan = execute("EXPLAIN " + later).stream().map(row -> String.valueOf(row.get(0))).collect(java.util.stream.Collectors.joining("\n"));
        // the instant reaches the scan (TestIcebergInterop shows the file of the other day skipped by it)
        assertThat(plan).contains("predicates=[ColumnPredicate[column=at, operator=GREATER_THAN, values=[2026-03-01T23:00:00Z]]]");

        // in a session of Berlin's time: text without a zone is Berlin's time (the instant still reaches the scan), values print there
        execute("SET TIME ZONE 'Europe/Berlin'");
        try {
            String berlin = "SELECT id, CAST(at AS VARCHAR) FROM iceberg.tpch.events_tz WHERE at >= '2026-03-03 00:30:00'";
            assertThat(execute(berlin)).containsExactly(List.of(2L, "2026-03-03 00:30:00.000000 Europe/Berlin"));
            String berlinPlan = execute("EXPLAIN " + berlin).stream().map(row -> String.valueOf(row.get(0))).collect(java.util.stream.Collectors.joining("\n"));
            assertThat(berlinPlan).contains("predicates=[ColumnPredicate[column=at, operator=GREATER_THAN_OR_EQUAL, values=[2026-03-02T23:30:00Z]]]");
        }
        finally {
            execute("SET TIME ZONE LOCAL");
        }
    }

    @Test
    void arraysAreLists()
    {
        execute("CREATE TABLE iceberg.tpch.tagged (id BIGINT, tags VARCHAR ARRAY, scores INTEGER[], amounts ARRAY(DECIMAL(10, 2)))");
        execute("INSERT INTO iceberg.tpch.tagged VALUES (1, ARRAY['a', NULL, 'ünï'], ARRAY[3, 1, 2], ARRAY[1.50, -2.25]), (2, NULL, ARRAY[7], NULL)");
        execute("INSERT INTO iceberg.tpch.tagged SELECT n_nationkey + 10, ARRAY[n_name, CAST(n_regionkey AS VARCHAR)], ARRAY[n_regionkey], ARRAY[CAST(n_nationkey AS DECIMAL(10, 2))] FROM tpch.tiny.nation WHERE n_nationkey < 3");
        Table table = catalog.loadTable(TableIdentifier.of("tpch", "tagged"));
        org.apache.iceberg.types.Types.ListType tags = table.schema().findField("tags").type().asListType();
        assertThat(tags.elementType()).isEqualTo(org.apache.iceberg.types.Types.StringType.get());
        assertThat(tags.isElementOptional()).isTrue();
        assertThat(table.schema().findField("amounts").type().asListType().elementType()).isEqualTo(org.apache.iceberg.types.Types.DecimalType.of(10, 2));
        // Iceberg's own reader sees the lists written
        assertThat(IcebergTesting.icebergRows(table, List.of("id", "tags", "scores", "amounts")).stream().sorted(SqlValues.ROW_ORDER).toList()).containsExactly(
                List.of(1L, java.util.Arrays.asList("a", null, "ünï"), List.of(3L, 1L, 2L), List.of(new java.math.BigDecimal("1.50"), new java.math.BigDecimal("-2.25"))),
                java.util.Arrays.asList(2L, null, List.of(7L), null),
                List.of(10L, List.of("ALGERIA", "0"), List.of(0L), List.of(new java.math.BigDecimal("0.00"))),
                List.of(11L, List.of("ARGENTINA", "1"), List.of(1L), List.of(new java.math.BigDecimal("1.00"))),
                List.of(12L, List.of("BRAZIL", "1"), List.of(1L), List.of(new java.math.BigDecimal("2.00"))));
        // and the engine reads them back as arrays
        assertThat(execute("SELECT id, cardinality(tags), element_at(tags, 3), array_join(tags, '|', '?'), scores[1], contains(scores, 2), array_join(amounts, ';') "
                + "FROM iceberg.tpch.tagged WHERE id < 10 ORDER BY id")).containsExactly(
                List.of(1L, 3L, "ünï", "a|?|ünï", 3L, true, "1.50;-2.25"),
                java.util.Arrays.asList(2L, null, null, null, 7L, false, null));
        assertThat(execute("SELECT t, count(*) FROM iceberg.tpch.tagged CROSS JOIN UNNEST(tags) AS u(t) GROUP BY t ORDER BY t NULLS LAST"))
                .containsExactly(List.of("0", 1L), List.of("1", 2L), List.of("ALGERIA", 1L), List.of("ARGENTINA", 1L), List.of("BRAZIL", 1L),
                        List.of("a", 1L), List.of("ünï", 1L), java.util.Arrays.asList(null, 1L));
        assertThat(execute("SELECT column_name, data_type FROM iceberg.information_schema.columns WHERE table_name = 'tagged' ORDER BY ordinal_position"))
                .containsExactly(List.of("id", "BIGINT"), List.of("tags", "ARRAY(VARCHAR)"), List.of("scores", "ARRAY(INTEGER)"), List.of("amounts", "ARRAY(DECIMAL(10,2))"));
        // CREATE TABLE AS keeps the arrays; arrays of arrays have no Iceberg table here
        assertThat(execute("CREATE TABLE iceberg.tpch.tagged_copy AS SELECT id, tags FROM iceberg.tpch.tagged WHERE id = 1")).containsExactly(List.of(1L));
        assertThat(execute("SELECT array_join(tags, ',', 'NULL') FROM iceberg.tpch.tagged_copy")).containsExactly(List.of("a,NULL,ünï"));
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.tpch.nested AS SELECT ARRAY[ARRAY[1, 2]] AS grid"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("'grid'");
        assertThat(catalog.tableExists(TableIdentifier.of("tpch", "nested"))).isFalse();
    }

    @Test
    void schemasAndDrops()
    {
        execute("CREATE SCHEMA iceberg.scratch");
        assertThat(execute("SHOW SCHEMAS FROM iceberg")).contains(List.of("scratch"), List.of("tpch"));
        execute("CREATE TABLE iceberg.scratch.t AS SELECT * FROM tpch.tiny.region");
        Path tableLocation = IcebergTesting.localPath(catalog.loadTable(TableIdentifier.of("scratch", "t")).location());
        assertThat(IcebergTesting.dataFiles(tableLocation)).isNotEmpty();
        assertThatThrownBy(() -> execute("DROP SCHEMA iceberg.scratch"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("Schema 'iceberg.scratch' is not empty");
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.scratch.t AS SELECT * FROM tpch.tiny.region"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS));
        execute("DROP TABLE iceberg.scratch.t");
        assertThat(IcebergTesting.dataFiles(tableLocation)).isEmpty();
        execute("DROP SCHEMA iceberg.scratch");
        assertThat(execute("SHOW SCHEMAS FROM iceberg")).doesNotContain(List.of("scratch"));
    }

    @Test
    void badInput()
    {
        assertThatThrownBy(() -> execute("SELECT * FROM iceberg.tpch.missing"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.nowhere.t (x BIGINT)"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessageContaining("nowhere");
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.tpch.bad (x BIGINT, s VARCHAR) WITH (partitioning = ARRAY['day(s)'])"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("Invalid partitioning")
                .hasMessageContaining("day(s)");
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.tpch.bad (x BIGINT) WITH (partitioning = ARRAY['y'])"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("'y'");
        assertThatThrownBy(() -> execute("CREATE TABLE iceberg.tpch.bad (x BIGINT) WITH (colour = 'blue')"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("unknown property 'colour'");
        assertThat(catalog.tableExists(TableIdentifier.of("tpch", "bad"))).isFalse();
    }

    private List<List<Object>> execute(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private List<List<Object>> duckDb(String sql)
            throws Exception
    {
        try (Statement statement = duckDb.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
            return ResultRows.drain(resultSet);
        }
    }

    private static void assertSameRows(List<List<Object>> actual, List<List<Object>> expected)
    {
        List<List<Object>> sortedActual = actual.stream().sorted(SqlValues.ROW_ORDER).toList();
        List<List<Object>> sortedExpected = expected.stream().sorted(SqlValues.ROW_ORDER).toList();
        assertThat(sortedActual).hasSameSizeAs(sortedExpected);
        for (int i = 0; i < sortedExpected.size(); i++) {
            List<Object> expectedRow = sortedExpected.get(i);
            List<Object> actualRow = sortedActual.get(i);
            assertThat(SqlValues.rowsMatch(expectedRow, actualRow)).as("row %d: expected %s but was %s", i, expectedRow, actualRow).isTrue();
        }
    }
}
