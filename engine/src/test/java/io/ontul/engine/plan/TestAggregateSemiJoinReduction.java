package io.ontul.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
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
import io.ontul.engine.testing.TpchQueries;
import io.trino.tpch.TpchTable;

/**
 * {@link AggregateSemiJoinReduction} over memory tables, which know no composite keys (so the
 * decorrelated subquery of TPC-H q20 aggregates lineitem per part and supplier, as it would over
 * Iceberg): the aggregate's input is semi-joined with the few keys the outer query keeps, before
 * join ordering moves that outer query's filter above the aggregate; a side that would cost as
 * much as the aggregate's input to evaluate twice is not used. Answers equal DuckDB's on the same
 * TPC-H scale 0.1 rows, which DuckDB holds under the same names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestAggregateSemiJoinReduction
{
    private static final String BUDGET = "2GB";
    private static final List<TpchTable<?>> TABLES = List.of(TpchTable.PART, TpchTable.PART_SUPPLIER, TpchTable.LINE_ITEM, TpchTable.SUPPLIER, TpchTable.NATION, TpchTable.REGION);

    @TempDir
    static Path dataDirectory;

    private DuckDBConnection duckDb;
    private Engine engine;
    private SpillTesting check;

    @BeforeAll
    void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openInMemory();
        try (Statement statement = duckDb.createStatement()) {
            statement.execute("CREATE SCHEMA memory.\"default\"");
        }
        for (TpchTable<?> table : TABLES) {
            DuckDbTpch.loadTable(duckDb, "memory", "default", table, 0.1);
        }
        engine = Engine.create(EngineConfig.embeddedDefaults().withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.toString()));
        Session session = engine.createSession("test");
        for (TpchTable<?> table : TABLES) {
            try (QueryResult result = session.execute("CREATE TABLE memory.\"default\"." + table.getTableName() + " AS SELECT * FROM tpch.sf0_1." + table.getTableName())) {
                ResultRows.drain(result);
            }
        }
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
    void q20AggregatesOnlyTheLineitemsOfTheForestParts()
            throws SQLException, IOException
    {
        String sql = TpchQueries.withTablePrefix(TpchQueries.load().get("q20"), "memory.\"default\".");
        List<String> plan = explain("EXPLAIN ANALYZE " + sql);
        String text = String.join("\n", plan);
        assertThat(text).contains("HashJoin SEMI on l_partkey = ps_partkey and l_suppkey = ps_suppkey");
        long lineitems1994 = rowsOf(plan, "FilterProject filter=AND\\(SEARCH\\(l_shipdate");
        long aggregated = rowsOf(plan, "HashJoin SEMI on l_partkey");
        // about 1 in 100 parts is named 'forest...': the aggregate sees their lineitems only
        assertThat(aggregated).as(text).isPositive().isLessThan(lineitems1994 / 20);
        assertThat(check.assertMatches(sql, BUDGET)).isNotEmpty();
    }

    @Test
    void q02AggregatesTheLowestCostOnlyForThePartsOfOneSizeAndType()
            throws SQLException, IOException
    {
        // the outer query (parts joined with partsupp, supplier, nation, region) costs more to
        // evaluate twice than the aggregate's input; the parts it takes its keys from do not
        String sql = TpchQueries.withTablePrefix(TpchQueries.load().get("q02"), "memory.\"default\".");
        List<String> plan = explain("EXPLAIN ANALYZE " + sql);
        String text = String.join("\n", plan);
        assertThat(text).contains("HashJoin SEMI on ps_partkey = p_partkey");
        long supplyCosts = rowsOf(plan, "HashJoin INNER on ps_suppkey = s_suppkey");
        long aggregated = rowsOf(plan, "HashJoin SEMI on ps_partkey");
        // about 1 in 270 parts has size 15 and a BRASS type
        assertThat(aggregated).as(text).isPositive().isLessThan(supplyCosts / 50);
        assertThat(check.assertMatches(sql, BUDGET)).isNotEmpty();
    }

    @Test
    void q15KeepsItsViewOneSubplanWhenTheOtherSideHoldsEveryKey()
            throws SQLException, IOException
    {
        // the view's groups are the suppliers, and the join is with all of them: a semi join would
        // keep every group, and make the view's two uses differ, so it is aggregated once
        String sql = TpchQueries.withTablePrefix(TpchQueries.load().get("q15"), "memory.\"default\".");
        String text = String.join("\n", explain("EXPLAIN " + sql));
        assertThat(text).doesNotContain("SEMI").contains("SharedSubplan");
        assertThat(check.assertMatches(sql, BUDGET)).hasSize(1);
    }

    @Test
    void aSideAsCostlyAsTheAggregatesInputIsNotEvaluatedTwice()
            throws SQLException, IOException
    {
        // the other side (the lineitems of one day and quantity) is estimated small, but reading it means scanning lineitem again
        String sql = """
                SELECT count(*), sum(a.total)
                FROM memory."default".lineitem
                JOIN (SELECT l_partkey AS partkey, sum(l_quantity) AS total FROM memory."default".lineitem GROUP BY l_partkey) a ON l_partkey = a.partkey
                WHERE l_shipdate = DATE '1994-01-01' AND l_quantity = 1""";
        String text = String.join("\n", explain("EXPLAIN " + sql));
        assertThat(text).doesNotContain("SEMI");
        assertThat(check.assertMatches(sql, BUDGET)).hasSize(1);
    }

    private List<String> explain(String sql)
    {
        try (QueryResult result = engine.createSession("test").execute(sql)) {
            return ResultRows.drain(result).stream().map(row -> (String) row.get(0)).toList();
        }
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
