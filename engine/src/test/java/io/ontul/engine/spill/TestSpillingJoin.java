package io.ontul.engine.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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
import io.ontul.engine.exchange.ExchangeManager;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

import io.trino.tpch.TpchTable;

/**
 * Hash joins whose build side does not fit the query's memory budget spill in partitions (a
 * grace hash join) and still answer exactly as DuckDB does on the same data (TPC-H scale 0.1):
 * inner joins, outer joins whose unmatched rows come from either side, semi and anti joins
 * (with NOT IN's NULL rules), and a build side dominated by one key, which re-partitioning
 * cannot split. Spill files are gone once each query ends, however it ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestSpillingJoin
{
    @TempDir
    static Path dataDirectory;

    private DuckDBConnection duckDb;
    private Engine engine;
    private SpillTesting spill;

    @BeforeAll
    public void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.PART);
        engine = Engine.create(EngineConfig.embeddedDefaults().withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.toString()));
        spill = new SpillTesting(engine, duckDb);
    }

    @AfterAll
    public void tearDown()
            throws SQLException
    {
        if (engine != null) {
            engine.close();
        }
        if (duckDb != null) {
            duckDb.close();
        }
    }

    @Test
    public void innerJoinWithAggregate()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o_orderpriority, count(*), sum(l_extendedprice), min(o_comment)
                FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey
                GROUP BY o_orderpriority""");
    }

    @Test
    public void innerJoinOfAllRows()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("24MB", """
                SELECT l_orderkey, l_linenumber, l_quantity, l_shipmode, o_custkey, o_orderdate, o_totalprice, o_comment
                FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey""");
    }

    @Test
    public void selfJoinWhosePartitionsExceedTheBuildBudget()
            throws SQLException, IOException
    {
        // the whole of lineitem on both sides: each first-level partition is still too large, and is joined in chunks
        // (TestSpillingHashJoin drives partitions large enough to be split again)
        assertSpillsAndMatchesDuckDb("12MB", """
                SELECT l1.l_returnflag, count(*), sum(l2.l_quantity), max(l2.l_comment), min(l1.l_shipinstruct), max(l1.l_shipmode)
                FROM tpch.sf0_1.lineitem l1 JOIN tpch.sf0_1.lineitem l2 ON l1.l_orderkey = l2.l_orderkey AND l1.l_linenumber = l2.l_linenumber
                GROUP BY l1.l_returnflag""");
    }

    @Test
    public void leftJoinKeepsOrdersWithoutBigItems()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o_orderkey, o_custkey, o_comment, l_linenumber, l_quantity, l_comment
                FROM tpch.sf0_1.orders LEFT JOIN tpch.sf0_1.lineitem ON l_orderkey = o_orderkey AND l_quantity > 45""");
    }

    @Test
    public void rightJoinKeepsUnmatchedBuildRows()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT l_orderkey, l_linenumber, o_orderkey, o_orderstatus, o_comment
                FROM (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity > 45) l
                RIGHT JOIN tpch.sf0_1.orders o ON l_orderkey = o_orderkey""");
    }

    @Test
    public void fullJoinKeepsUnmatchedRowsOfBothSides()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT l_orderkey, l_linenumber, l_comment, o_orderkey, o_comment
                FROM (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity > 40 AND l_orderkey % 3 = 0) l
                FULL JOIN (SELECT * FROM tpch.sf0_1.orders WHERE o_orderkey % 2 = 0) o ON l_orderkey = o_orderkey""");
    }

    @Test
    public void existsAsSemiJoin()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o_orderkey, o_orderpriority FROM tpch.sf0_1.orders
                WHERE EXISTS (SELECT 1 FROM tpch.sf0_1.lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 10)""");
    }

    @Test
    public void notExistsAsAntiJoin()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("8MB", """
                SELECT o_orderkey, o_orderpriority FROM tpch.sf0_1.orders
                WHERE NOT EXISTS (SELECT 1 FROM tpch.sf0_1.lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 10)""");
    }

    @Test
    public void existsWithTheSmallSideHashed()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o_orderkey, o_comment FROM tpch.sf0_1.orders
                WHERE o_orderdate < DATE '1996-06-01' AND EXISTS (SELECT 1 FROM tpch.sf0_1.lineitem WHERE l_orderkey = o_orderkey AND l_discount > 0.09)""");
    }

    @Test
    public void notExistsWithTheSmallSideHashed()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("12MB", """
                SELECT o_orderkey, o_comment FROM tpch.sf0_1.orders
                WHERE o_orderdate < DATE '1996-06-01' AND NOT EXISTS (SELECT 1 FROM tpch.sf0_1.lineitem WHERE l_orderkey = o_orderkey AND l_discount > 0.09)""");
    }

    @Test
    public void notInWithoutNulls()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o_orderkey, o_comment FROM tpch.sf0_1.orders
                WHERE o_orderkey NOT IN (SELECT l_orderkey FROM tpch.sf0_1.lineitem WHERE l_quantity > 10)""");
    }

    @Test
    public void nestedLoopJoinSpillsAndJoinsInChunks()
            throws SQLException, IOException
    {
        // no equality: a nested-loop join whose build side (part, 20,000 wide rows) does not fit
        // the budget; the filtered orders are fewer than estimated, so they are the probe side
        String inner = "SELECT count(*), sum(p_retailprice), min(o_orderkey), max(p_comment), max(p_type), min(p_name) FROM tpch.sf0_1.orders JOIN tpch.sf0_1.part "
                + "ON o_totalprice BETWEEN p_retailprice * 100 AND p_retailprice * 100 + 20000 AND p_name <> o_comment WHERE o_orderkey < 40";
        String plan = explain(inner);
        assertThat(plan).contains("NestedLoopJoin INNER");
        assertThat(plan.indexOf("Scan tpch.sf0_1.part")).as("part is the build side (second input)").isGreaterThan(plan.indexOf("Scan tpch.sf0_1.orders"));
        assertSpillsAndMatchesDuckDb("6MB", inner);
        // probe rows without a match in any chunk still come out once
        assertSpillsAndMatchesDuckDb("4MB", "SELECT o_orderkey, count(p_partkey), max(p_comment) FROM tpch.sf0_1.orders LEFT JOIN tpch.sf0_1.part "
                + "ON o_totalprice BETWEEN p_retailprice * 100 AND p_retailprice * 100 + 300 AND p_type <> o_comment WHERE o_orderkey < 40 GROUP BY o_orderkey");
    }

    @Test
    public void budgetsFromTooSmallToEnoughAnswerOrFailCleanly()
            throws SQLException
    {
        // tables replacing a spilled one are sized up front: a refused reservation must fail
        // the query without leaving a buffer behind, and a budget that fits must answer
        String sql = "SELECT o_orderkey, o_comment FROM tpch.sf0_1.orders WHERE o_orderkey NOT IN (SELECT l_orderkey FROM tpch.sf0_1.lineitem WHERE l_quantity > 10)";
        long expected;
        try (Statement statement = duckDb.createStatement();
                ResultSet count = statement.executeQuery("SELECT count(*) FROM (" + sql + ")")) {
            count.next();
            expected = count.getLong(1);
        }
        long before = engine.rootAllocator().getAllocatedMemory();
        for (String budget : List.of("2MB", "4MB", "6MB", "8MB", "10MB", "12MB", "14MB", "16MB")) {
            try (QueryResult result = spill.session(budget).execute(sql)) {
                assertThat(ResultRows.drain(result)).as("rows under %s", budget).hasSize((int) expected);
            }
            catch (OntulException e) {
                assertThat(e.code()).as("failure under %s: %s", budget, e.getMessage()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                assertThat(budget).isNotEqualTo("16MB");
            }
            assertThat(engine.rootAllocator().getAllocatedMemory()).as("memory held after the query under %s", budget).isEqualTo(before);
        }
    }

    @Test
    public void notInWithNullInSubqueryIsEmpty()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o_orderkey, o_comment FROM tpch.sf0_1.orders
                WHERE o_orderkey NOT IN (SELECT CASE WHEN l_orderkey = 7 AND l_linenumber = 1 THEN NULL ELSE l_orderkey END FROM tpch.sf0_1.lineitem WHERE l_quantity > 10)""");
    }

    @Test
    public void outerJoinWithNullKeysOnBothSides()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o.k, o_comment, l.k, l_linenumber, l_comment
                FROM (SELECT CASE WHEN o_orderkey % 7 = 0 THEN NULL ELSE o_orderkey END AS k, o_comment FROM tpch.sf0_1.orders) o
                FULL JOIN (SELECT CASE WHEN l_linenumber = 1 THEN NULL ELSE l_orderkey END AS k, l_linenumber, l_comment FROM tpch.sf0_1.lineitem WHERE l_quantity > 40) l
                ON o.k = l.k""");
    }

    @Test
    public void leftJoinWithBuildSideDominatedByOneKey()
            throws SQLException, IOException
    {
        // every returned lineitem has line status F: one key holds the whole build side, which splitting cannot spread
        assertSpillsAndMatchesDuckDb("12MB", """
                SELECT o_orderkey, o_orderstatus, count(l_linestatus), sum(l_quantity), max(l_comment)
                FROM (SELECT * FROM tpch.sf0_1.orders WHERE o_orderkey <= 40) o
                LEFT JOIN (SELECT * FROM tpch.sf0_1.lineitem WHERE l_returnflag = 'R' AND l_quantity > 25) l ON l_linestatus = o_orderstatus
                GROUP BY o_orderkey, o_orderstatus""");
    }

    @Test
    public void fullJoinWithBuildSideDominatedByOneKey()
            throws SQLException, IOException
    {
        // the residual condition leaves build rows of the hot key unmatched
        assertSpillsAndMatchesDuckDb("16MB", """
                SELECT o_orderkey, o_orderstatus, count(*), count(l_linestatus), sum(l_quantity), max(l_comment)
                FROM (SELECT * FROM tpch.sf0_1.orders WHERE o_orderkey <= 40) o
                FULL JOIN (SELECT * FROM tpch.sf0_1.lineitem WHERE l_returnflag = 'R' AND l_quantity > 25) l
                ON l_linestatus = o_orderstatus AND l_quantity < o_orderkey + 10
                GROUP BY o_orderkey, o_orderstatus""");
    }

    @Test
    public void semiJoinWithBuildSideDominatedByOneKey()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("4MB", """
                SELECT o_orderkey, o_orderstatus FROM tpch.sf0_1.orders
                WHERE o_orderkey <= 40 AND EXISTS (
                    SELECT 1 FROM tpch.sf0_1.lineitem WHERE l_returnflag = 'R' AND l_quantity > 25 AND l_linestatus = o_orderstatus AND l_quantity < o_orderkey + 10)""");
    }

    @Test
    public void cancelledSpillingJoinLeavesNothing()
            throws IOException
    {
        Session session = session("16MB");
        long before = engine.exchange().spillStore().writtenBytes();
        QueryResult result = session.execute("""
                SELECT l_orderkey, l_comment, o_comment FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey""");
        Thread canceller = new Thread(() -> {
            while (engine.exchange().spillStore().writtenBytes() == before) {
                Thread.onSpinWait();
            }
            result.cancel();
        });
        canceller.start();
        assertThatThrownBy(() -> {
            while (result.nextBatch() != null) {
                // drain until cancelled
            }
        }).isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_CANCELLED));
        result.close();
        assertNoSpillFilesLeft();
        try (QueryResult next = session.execute("SELECT count(*) FROM tpch.tiny.nation")) {
            assertThat(ResultRows.drain(next)).containsExactly(List.of(25L));
        }
    }

    @Test
    public void limitOverSpillingJoinLeavesNothing()
            throws IOException
    {
        long before = engine.exchange().spillStore().writtenBytes();
        try (QueryResult result = session("16MB").execute("""
                SELECT l_orderkey, l_comment, o_comment FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey LIMIT 10""")) {
            assertThat(ResultRows.drain(result)).hasSize(10);
        }
        assertThat(engine.exchange().spillStore().writtenBytes()).as("bytes spilled").isGreaterThan(before);
        assertNoSpillFilesLeft();
    }

    @Test
    public void joinOutOfSpillSpaceFailsClearlyAndLeavesNothing()
            throws IOException
    {
        Path directory = dataDirectory.resolve("small-spill");
        try (Engine small = Engine.create(EngineConfig.embeddedDefaults()
                .withProperty(ExchangeManager.DATA_DIRECTORY, directory.toString())
                .withProperty(ExchangeManager.SPILL_MAX_BYTES, "6MB"))) {
            Session session = small.createSession("test");
            session.properties().put("query_max_memory", "16MB");
            assertThatThrownBy(() -> {
                try (QueryResult result = session.execute("""
                        SELECT l_orderkey, l_comment, o_comment FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey""")) {
                    ResultRows.drain(result);
                }
            }).isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_SPILL_LIMIT));
            assertThat(small.exchange().spillStore().usedBytes()).isZero();
            try (Stream<Path> files = Files.walk(small.exchange().spillStore().directory())) {
                assertThat(files.filter(Files::isRegularFile)).isEmpty();
            }
        }
    }

    @Test
    public void explainAnalyzeShowsTheJoinsSpill()
            throws IOException
    {
        String plan;
        try (QueryResult result = session("16MB").execute("""
                EXPLAIN ANALYZE SELECT count(*), sum(o_totalprice) FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey""")) {
            plan = ResultRows.drain(result).stream().map(row -> String.valueOf(row.get(0))).collect(Collectors.joining("\n"));
        }
        assertThat(plan).containsPattern("HashJoin .*spilled=");
        assertNoSpillFilesLeft();
    }

    @Test
    public void buildSideJustOverTheLimitKeepsPartitionsInMemory()
            throws SQLException, IOException
    {
        // the build partitions that fit stay in memory (a hybrid hash join): their probe rows are
        // joined as they come and their build rows' outcomes (RIGHT, FULL) decided with the others'
        String budget = "16MB";
        for (String sql : List.of("""
                SELECT l_orderkey, l_linenumber, l_comment, o_orderkey, o_comment
                FROM (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity > 40 AND l_orderkey % 3 = 0) l
                FULL JOIN (SELECT * FROM tpch.sf0_1.orders WHERE o_orderkey % 2 = 0) o ON l_orderkey = o_orderkey""", """
                SELECT l_orderkey, l_linenumber, o_orderkey, o_orderstatus, o_comment
                FROM (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity > 45) l
                RIGHT JOIN tpch.sf0_1.orders o ON l_orderkey = o_orderkey""", """
                SELECT o_orderkey, o_comment FROM tpch.sf0_1.orders o
                WHERE NOT EXISTS (SELECT 1 FROM tpch.sf0_1.lineitem l WHERE l.l_orderkey = o.o_orderkey AND l_quantity > 5)""", """
                SELECT l_orderkey, l_linenumber, l_comment, o_comment
                FROM tpch.sf0_1.lineitem LEFT JOIN (SELECT * FROM tpch.sf0_1.orders WHERE o_orderkey % 5 <> 0) o ON l_orderkey = o_orderkey""")) {
            String plan;
            try (QueryResult result = session(budget).execute("EXPLAIN ANALYZE " + sql)) {
                plan = ResultRows.drain(result).stream().map(row -> String.valueOf(row.get(0))).collect(Collectors.joining("\n"));
            }
            assertThat(plan).as(sql).containsPattern("HashJoin .*spilled=.* resident=[1-9]");
            assertSpillsAndMatchesDuckDb(budget, sql);
        }
    }

    @Test
    public void partitionsTooLargeForOneWorkerAreJoinedByBothTogether()
            throws SQLException, IOException
    {
        // lineitem on both sides under 6 MB with two workers: each partition's build rows take
        // more than one worker's quarter of the memory, so both workers join each partition
        // together, its build read back once, instead of each reading its probe rows once per chunk
        try (Engine twoWorkers = Engine.create(EngineConfig.embeddedDefaults()
                .withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.resolve("two-workers").toString())
                .withProperty(EngineConfig.TASK_CONCURRENCY, "2"))) {
            SpillTesting twoWorkerSpill = new SpillTesting(twoWorkers, duckDb);
            for (String join : List.of("JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN")) {
                String sql = """
                        SELECT count(*), count(l1.l_orderkey), count(l2.l_orderkey), sum(l1.l_quantity), sum(l2.l_extendedprice), max(l2.l_comment), min(l1.l_shipmode), max(l2.l_shipinstruct)
                        FROM (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity > 10) l1 %s (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity < 40) l2
                        ON l1.l_orderkey = l2.l_orderkey AND l1.l_linenumber = l2.l_linenumber""".formatted(join);
                String plan;
                try (QueryResult result = twoWorkerSpill.session("6MB").execute("EXPLAIN ANALYZE " + sql)) {
                    plan = ResultRows.drain(result).stream().map(row -> String.valueOf(row.get(0))).collect(Collectors.joining("\n"));
                }
                assertThat(plan).as(sql).containsPattern("HashJoin .*spilled=.* shared=[1-9]");
                twoWorkerSpill.assertSpillsAndMatches(sql, "6MB");
            }
            // a LIMIT met early (while partitioning or joining together): both workers stop, nothing is left
            try (QueryResult result = twoWorkerSpill.session("6MB").execute("""
                    SELECT l1.l_orderkey, l2.l_comment
                    FROM tpch.sf0_1.lineitem l1 JOIN tpch.sf0_1.lineitem l2 ON l1.l_orderkey = l2.l_orderkey AND l1.l_linenumber = l2.l_linenumber
                    LIMIT 10""")) {
                assertThat(ResultRows.drain(result)).hasSize(10);
            }
            twoWorkerSpill.assertNoSpillFilesLeft();
            try (QueryResult next = twoWorkerSpill.session("6MB").execute("SELECT count(*) FROM tpch.tiny.nation")) {
                assertThat(ResultRows.drain(next)).containsExactly(List.of(25L));
            }
        }
    }

    @Test
    public void spilledJoinsBelowASpilledJoinShareTheLimit()
            throws SQLException, IOException
    {
        // a spilled join in the probe input of another spilled join, directly and in the later
        // branch of a UNION ALL: the lower join builds and loads its partitions while the upper
        // one holds its probe buffers, so those take only a quarter's share of the memory
        // (GraceHashJoin.probeBufferBytes: half of what is free only over a streaming input).
        // Both must spill, answer as DuckDB does and stay within the limit together.
        String budget = "4MB";
        for (String sql : List.of("""
                SELECT count(*), sum(l1.l_extendedprice), max(o_comment), max(l3.l_comment), min(l3.l_shipinstruct)
                FROM tpch.sf0_1.lineitem l1 JOIN tpch.sf0_1.orders ON l1.l_orderkey = o_orderkey
                JOIN (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity < 25) l3 ON l1.l_orderkey = l3.l_orderkey AND l1.l_linenumber = l3.l_linenumber""", """
                SELECT count(*), sum(x.price), max(x.note), max(l3.l_comment), min(l3.l_shipinstruct)
                FROM (SELECT l_orderkey AS orderkey, l_linenumber AS linenumber, l_extendedprice AS price, l_comment AS note FROM tpch.sf0_1.lineitem
                      UNION ALL
                      SELECT l1.l_orderkey, l1.l_linenumber, l2.l_extendedprice, l2.l_comment
                      FROM tpch.sf0_1.lineitem l1 JOIN tpch.sf0_1.lineitem l2 ON l1.l_orderkey = l2.l_orderkey AND l1.l_linenumber = l2.l_linenumber) x
                JOIN (SELECT * FROM tpch.sf0_1.lineitem WHERE l_quantity < 25) l3 ON x.orderkey = l3.l_orderkey AND x.linenumber = l3.l_linenumber""")) {
            String plan;
            try (QueryResult result = session(budget).execute("EXPLAIN ANALYZE " + sql)) {
                plan = ResultRows.drain(result).stream().map(row -> String.valueOf(row.get(0))).collect(Collectors.joining("\n"));
            }
            assertThat(Pattern.compile("HashJoin .*spilled=").matcher(plan).results().count()).as(plan).isEqualTo(2);
            assertSpillsAndMatchesDuckDb(budget, sql);
        }
    }

    private void assertSpillsAndMatchesDuckDb(String budget, String sql)
            throws SQLException, IOException
    {
        spill.assertSpillsAndMatches(sql, budget);
    }

    private String explain(String sql)
    {
        StringBuilder plan = new StringBuilder();
        try (QueryResult result = session("1GB").execute("EXPLAIN " + sql)) {
            for (List<Object> row : ResultRows.drain(result)) {
                plan.append(row.get(0)).append('\n');
            }
        }
        return plan.toString();
    }

    private Session session(String budget)
    {
        return spill.session(budget);
    }

    private void assertNoSpillFilesLeft()
            throws IOException
    {
        spill.assertNoSpillFilesLeft();
    }
}
