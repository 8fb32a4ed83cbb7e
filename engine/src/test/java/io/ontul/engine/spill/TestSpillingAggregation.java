package io.ontul.engine.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

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
 * Hash aggregations whose groups do not fit the memory budget spill their states, partitioned by
 * key hash, through the Exchange Manager, aggregate the partitions one by one and still answer
 * exactly as DuckDB does on the same data (TPC-H lineitem at scale 0.2: about 1.2 million
 * (l_orderkey, l_linenumber) groups, and the distinct comments of orders at scale 1); their spill files are gone once the query ends, however it
 * ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestSpillingAggregation
{
    // the two-step plan keeps about 25MB of batches in flight (partial results queued for the
    // final step), so the budget leaves room for that next to the final step's half
    private static final String SMALL_BUDGET = "96MB";
    private static final String MANY_GROUPS = "SELECT l_orderkey, l_linenumber, sum(l_quantity), count(*), avg(l_extendedprice), min(l_shipdate), max(l_comment) "
            + "FROM tpch.sf0_2.lineitem GROUP BY l_orderkey, l_linenumber";

    @TempDir
    static Path dataDirectory;

    private DuckDBConnection duckDb;
    private Engine engine;
    private SpillTesting spill;

    @BeforeAll
    public void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openWithTables("sf0_2", 0.2, TpchTable.LINE_ITEM);
        try (Statement statement = duckDb.createStatement()) {
            statement.execute("CREATE SCHEMA tpch.sf1");
        }
        DuckDbTpch.loadTable(duckDb, "tpch", "sf1", TpchTable.ORDERS, 1);
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
    public void overOneMillionGroupsSpillInTheFinalStep()
            throws SQLException, IOException
    {
        List<List<Object>> result = assertSpillsAndMatchesDuckDb(MANY_GROUPS, SMALL_BUDGET);
        assertThat(result).hasSizeGreaterThan(1_000_000);
        String plan = explainAnalyze(MANY_GROUPS);
        assertThat(plan.lines().filter(line -> line.contains("HashAggregate (final)")).findFirst().orElseThrow()).contains("spilled=");
        assertNoSpillFilesLeft();
    }

    @Test
    public void textKeySpills()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("SELECT l_comment, count(*), sum(l_extendedprice), min(l_orderkey), max(l_shipmode) FROM tpch.sf0_2.lineitem GROUP BY l_comment", SMALL_BUDGET);
    }

    @Test
    public void fewTextKeysUnderTheSmallBudget()
            throws SQLException, IOException
    {
        assertMatchesDuckDb("SELECT l_shipmode, l_returnflag, count(*), sum(l_extendedprice), avg(l_discount), min(l_comment), max(l_comment) "
                + "FROM tpch.sf0_2.lineitem GROUP BY l_shipmode, l_returnflag ORDER BY l_shipmode, l_returnflag", SMALL_BUDGET);
    }

    @Test
    public void rollupSpillsWithItsGroupingSets()
            throws SQLException, IOException
    {
        // a single-step aggregation: the grouping set is part of every spilled key
        assertSpillsAndMatchesDuckDb("SELECT l_orderkey, l_linenumber, count(*), sum(l_quantity), avg(l_discount), max(l_shipdate), GROUPING(l_orderkey, l_linenumber) "
                + "FROM tpch.sf0_2.lineitem GROUP BY ROLLUP (l_orderkey, l_linenumber)", SMALL_BUDGET);
    }

    @Test
    public void groupingSetsWithTheSameKeyValuesSpill()
            throws SQLException, IOException
    {
        // l_partkey and l_suppkey share values: only the grouping set tells their groups apart
        assertSpillsAndMatchesDuckDb("SELECT l_orderkey, l_partkey, l_suppkey, count(*), min(l_comment), GROUPING(l_orderkey, l_partkey, l_suppkey) "
                + "FROM tpch.sf0_2.lineitem GROUP BY GROUPING SETS ((l_orderkey), (l_partkey), (l_suppkey), ())", SMALL_BUDGET);
    }

    @Test
    public void distinctAggregateSpills()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("SELECT l_returnflag, count(DISTINCT l_comment), count(*) FROM tpch.sf0_2.lineitem GROUP BY l_returnflag", SMALL_BUDGET);
    }

    /** 1.48 million distinct comments, about 70 MB of text, under 32 MB: the keys' text counts. */
    @Test
    public void distinctAggregatesOfTextSpillUnderASmallBudget()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("SELECT count(DISTINCT o_comment) FROM tpch.sf1.orders", "32MB");
        assertSpillsAndMatchesDuckDb("SELECT count(DISTINCT o_comment), count(DISTINCT o_clerk), count(*) FROM tpch.sf1.orders", "32MB");
    }

    @Test
    public void partitionsSplitAgainUnderATighterBudget()
            throws SQLException, IOException
    {
        // single step (grouping sets), few batches in flight: a 16th of 1.5 million groups
        // still exceeds this budget, so partitions are split again one level deeper
        assertSpillsAndMatchesDuckDb("SELECT l_orderkey, l_linenumber, count(*), sum(l_quantity) FROM tpch.sf0_2.lineitem GROUP BY ROLLUP (l_orderkey, l_linenumber)", "16MB");
    }

    @Test
    public void cancelledSpillingAggregationLeavesNothing()
            throws IOException
    {
        Session session = session(SMALL_BUDGET);
        long before = engine.exchange().spillStore().writtenBytes();
        QueryResult result = session.execute(MANY_GROUPS);
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
    public void budgetTooSmallEvenToSpillFailsClearly()
            throws IOException
    {
        assertThatThrownBy(() -> {
            try (QueryResult result = session("2MB").execute(MANY_GROUPS)) {
                ResultRows.drain(result);
            }
        }).isInstanceOfSatisfying(OntulException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
            // names the operator that ran out: the final step, whose grow was refused (a partial step is
            // never refused, it emits its groups), or the one whose Arrow buffer no longer fit
            assertThat(e.getMessage()).matches("Query exceeded per-query memory limit of 2MB in (HashAggregate|[A-Za-z]+ \\(Arrow buffers\\)) \\(raise it with SET SESSION query_max_memory = '\\.\\.\\.'\\)");
        });
        assertNoSpillFilesLeft();
        try (QueryResult next = session(SMALL_BUDGET).execute("SELECT l_returnflag, count(*) FROM tpch.sf0_2.lineitem GROUP BY l_returnflag ORDER BY l_returnflag")) {
            assertThat(ResultRows.drain(next)).hasSize(3);
        }
    }

    private List<List<Object>> assertSpillsAndMatchesDuckDb(String sql, String budget)
            throws SQLException, IOException
    {
        return spill.assertSpillsAndMatches(sql, budget);
    }

    private List<List<Object>> assertMatchesDuckDb(String sql, String budget)
            throws SQLException, IOException
    {
        List<List<Object>> actual = spill.assertMatches(sql, budget);
        assertThat(actual).isNotEmpty();
        return actual;
    }

    private String explainAnalyze(String sql)
    {
        StringBuilder plan = new StringBuilder();
        try (QueryResult result = session(SMALL_BUDGET).execute("EXPLAIN ANALYZE " + sql)) {
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
