package io.ontul.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import io.ontul.engine.spill.SpillTesting;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultRows;
import io.trino.tpch.TpchTable;

/**
 * A subplan a query reads more than once (a WITH query named twice) is computed once and read by
 * every parent ({@link CommonSubplans}, {@link SharedSubplanNode}): EXPLAIN shows it once, its
 * tables are scanned once, and the answers equal DuckDB's on the same data (TPC-H scale 0.1),
 * also when a reader stops early, when the shared result must spill, and when computing it fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestSharedSubplans
{
    private static final String BIG_BUDGET = "2GB";

    @TempDir
    static Path dataDirectory;

    private DuckDBConnection duckDb;
    private Engine engine;
    private SpillTesting check;

    @BeforeAll
    void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.CUSTOMER, TpchTable.NATION);
        engine = Engine.create(EngineConfig.embeddedDefaults().withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.toString()));
        check = new SpillTesting(engine, duckDb);
    }

    @AfterAll
    void tearDown()
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
    void aWithQueryNamedTwiceIsComputedOnce()
            throws SQLException, IOException
    {
        String sql = """
                WITH revenue AS (
                    SELECT o_custkey AS custkey, sum(l_extendedprice * (1 - l_discount)) AS total
                    FROM tpch.sf0_1.orders JOIN tpch.sf0_1.lineitem ON o_orderkey = l_orderkey
                    GROUP BY o_custkey)
                SELECT custkey, total
                FROM revenue
                WHERE total > (SELECT 1.5 * avg(total) FROM revenue)
                ORDER BY total DESC, custkey
                LIMIT 20""";
        List<String> plan = explain("EXPLAIN ANALYZE " + sql);
        String text = String.join("\n", plan);
        assertThat(count(text, "- SharedSubplan #1 \\(computed once, read by 2\\)")).as(text).isEqualTo(2);
        assertThat(count(text, "\\[shown above\\]")).as(text).isEqualTo(1);
        assertThat(count(text, "Scan tpch\\.sf0_1\\.lineitem")).as("lineitem scanned once:\n" + text).isEqualTo(1);
        // both readers read all of it: twice the groups the aggregate made
        long groups = rowsOf(plan, "HashAggregate \\(final\\)");
        assertThat(rowsOf(plan, "SharedSubplan #1")).as(text).isEqualTo(2 * groups);
        assertThat(check.assertMatches(sql, BIG_BUDGET)).hasSize(20);
    }

    @Test
    void readersThatStopEarlyAndOnesThatReadEverything()
            throws SQLException, IOException
    {
        String sql = """
                WITH big AS (
                    SELECT c_nationkey, o_orderpriority, count(*) AS orders, sum(o_totalprice) AS total
                    FROM tpch.sf0_1.customer JOIN tpch.sf0_1.orders ON c_custkey = o_custkey
                    GROUP BY c_nationkey, o_orderpriority)
                (SELECT 'first' AS kind, c_nationkey, o_orderpriority, orders FROM big ORDER BY c_nationkey, o_orderpriority LIMIT 3)
                UNION ALL
                (SELECT 'all', c_nationkey, o_orderpriority, orders FROM big)
                UNION ALL
                (SELECT 'top', n_nationkey, n_name, (SELECT max(orders) FROM big WHERE c_nationkey = n_nationkey) FROM tpch.sf0_1.nation)""";
        assertThat(String.join("\n", explain("EXPLAIN " + sql))).contains("SharedSubplan #1");
        assertThat(check.assertMatches(sql, BIG_BUDGET)).hasSize(3 + 125 + 25);
    }

    @Test
    void aSharedResultLargerThanTheBudgetSpills()
            throws SQLException, IOException
    {
        String sql = """
                WITH wide AS (
                    SELECT l_partkey, l_comment || o_comment AS comments
                    FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey
                    WHERE l_quantity > 10)
                SELECT 'low', min(comments), max(l_partkey) FROM wide
                UNION ALL
                SELECT 'high', max(comments), min(l_partkey) FROM wide""";
        assertThat(String.join("\n", explain("EXPLAIN " + sql))).contains("SharedSubplan #1 (computed once, read by 2)");
        check.assertSpillsAndMatches(sql, "24MB");
    }

    @Test
    void aFailureWhileComputingItReachesTheClientAndTheEngineGoesOn()
            throws SQLException, IOException
    {
        String sql = """
                WITH ratio AS (
                    SELECT o_orderpriority, sum(o_totalprice) / (count(*) - count(*)) AS r
                    FROM tpch.sf0_1.orders GROUP BY o_orderpriority)
                SELECT * FROM ratio a JOIN ratio b ON a.o_orderpriority = b.o_orderpriority""";
        Session session = engine.createSession("test");
        assertThatThrownBy(() -> {
            try (QueryResult result = session.execute(sql)) {
                ResultRows.drain(result);
            }
        }).hasMessageContaining("Division by zero");
        check.assertNoSpillFilesLeft();
        assertThat(check.assertMatches("SELECT count(*) FROM tpch.sf0_1.orders", BIG_BUDGET)).containsExactly(List.of(150000L));
    }

    @Test
    void subplansThatAreNotDeterministicOrCheapAreNotShared()
    {
        String random = """
                WITH r AS (SELECT o_orderpriority, sum(random()) AS s FROM tpch.sf0_1.orders GROUP BY o_orderpriority)
                SELECT * FROM r a JOIN r b ON a.o_orderpriority = b.o_orderpriority""";
        assertThat(String.join("\n", explain("EXPLAIN " + random))).doesNotContain("SharedSubplan");
        String scanOnly = """
                WITH urgent AS (SELECT o_orderkey, o_custkey FROM tpch.sf0_1.orders WHERE o_orderpriority = '1-URGENT')
                SELECT count(*) FROM urgent a JOIN urgent b ON a.o_custkey = b.o_custkey""";
        assertThat(String.join("\n", explain("EXPLAIN " + scanOnly))).doesNotContain("SharedSubplan");
    }

    private List<String> explain(String sql)
    {
        try (QueryResult result = engine.createSession("test").execute(sql)) {
            return ResultRows.drain(result).stream().map(row -> (String) row.get(0)).toList();
        }
    }

    private static int count(String text, String regex)
    {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    /** The rows= figure of the first line of {@code plan} matching {@code operator}. */
    private static long rowsOf(List<String> plan, String operator)
    {
        Pattern pattern = Pattern.compile("- " + operator + ".*\\(rows=(\\d+) ");
        for (String line : plan) {
            Matcher matcher = pattern.matcher(line);
            if (matcher.find()) {
                return Long.parseLong(matcher.group(1));
            }
        }
        throw new AssertionError("no " + operator + " in\n" + String.join("\n", plan));
    }
}
