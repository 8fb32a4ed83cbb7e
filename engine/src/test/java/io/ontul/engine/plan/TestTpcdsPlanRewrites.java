package io.ontul.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.DuckDbTpcds;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;
import io.trino.tpcds.Table;

/**
 * Plan rewrites the TPC-DS queries need, over TPC-DS tiny in memory, answers checked against
 * DuckDB loaded with the same generated rows. Around outer joins: a filter on an outer join's preserved side reaches the other
 * side through the join's equalities (the logical planner's transitive predicates), and an
 * inner join that keeps fewer rows moves below a left join it sat on ({@link InnerJoinBeforeOuterJoin}),
 * also through the outer join's IS NULL filter; an inner join that keeps every row does not move;
 * a left join whose unmatched rows a join above drops is an inner join ({@link NullRejectedOuterJoin}).
 * A ROLLUP written as a UNION ALL of aggregates ({@link UnionOfAggregatesToGroupingSets}) reads
 * its input once. A semi join that reduces an aggregate's input goes down to the join side its
 * keys come from.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestTpcdsPlanRewrites
{
    private static final List<Table> TABLES = List.of(Table.STORE_SALES, Table.STORE_RETURNS, Table.WEB_SALES, Table.DATE_DIM, Table.ITEM, Table.INVENTORY, Table.WAREHOUSE, Table.CATALOG_SALES, Table.REASON);

    private DuckDBConnection duckDb;
    private Engine engine;
    private Session session;

    @BeforeAll
    void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openInMemory();
        for (Table table : TABLES) {
            DuckDbTpcds.load(duckDb, table, 0.01);
        }
        engine = Engine.createEmbedded();
        session = engine.createSession("test");
        for (Table table : TABLES) {
            session.execute("CREATE TABLE memory.default." + table.getName() + " AS SELECT * FROM tpcds.tiny." + table.getName()).close();
        }
        session.execute("USE memory.default").close();
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
    void aFilteredDimensionIsJoinedBeforeTheReturns()
            throws SQLException
    {
        String sql = """
                SELECT ss_item_sk, count(*), sum(ss_quantity), min(d_date)
                FROM store_sales
                LEFT JOIN store_returns ON sr_ticket_number = ss_ticket_number AND sr_item_sk = ss_item_sk
                JOIN date_dim ON ss_sold_date_sk = d_date_sk
                WHERE sr_ticket_number IS NULL AND d_year = 2000
                GROUP BY ss_item_sk ORDER BY 3 DESC, 1 LIMIT 20""";
        List<String> plan = explain(sql);
        int outer = line(plan, "HashJoin LEFT on ss_ticket_number = sr_ticket_number");
        int inner = line(plan, "HashJoin INNER on ss_sold_date_sk = d_date_sk");
        assertThat(inner).as(String.join("\n", plan)).isGreaterThan(outer);
        assertThat(indent(plan.get(inner))).isGreaterThan(indent(plan.get(outer)));
        assertMatchesDuckDb(sql);
    }

    @Test
    void anInnerJoinThatKeepsEveryRowStaysAboveTheOuterJoin()
            throws SQLException
    {
        // every sale has an item: joining item first would not make the outer join's input smaller
        String sql = """
                SELECT i_category, count(*), count(sr_ticket_number), sum(ss_quantity)
                FROM store_sales
                LEFT JOIN store_returns ON sr_ticket_number = ss_ticket_number AND sr_item_sk = ss_item_sk
                JOIN item ON ss_item_sk = i_item_sk
                GROUP BY i_category ORDER BY 1""";
        List<String> plan = explain(sql);
        int outer = line(plan, "HashJoin LEFT on ss_ticket_number = sr_ticket_number");
        int inner = line(plan, "HashJoin INNER on ss_item_sk = i_item_sk");
        assertThat(inner).as(String.join("\n", plan)).isLessThan(outer);
        assertMatchesDuckDb(sql);
    }

    @Test
    void aYearOnThePreservedSideFiltersTheOtherSidesAggregate()
            throws SQLException
    {
        // TPC-DS q78's shape: web sales are aggregated for 2000 only, and sales of no web sale keep NULLs
        String sql = """
                WITH ss AS (SELECT d_year AS ss_year, ss_item_sk, sum(ss_quantity) AS ss_qty FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk GROUP BY d_year, ss_item_sk),
                     ws AS (SELECT d_year AS ws_year, ws_item_sk, sum(ws_quantity) AS ws_qty FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk GROUP BY d_year, ws_item_sk)
                SELECT count(*), count(ws_qty), sum(ss_qty), sum(ws_qty), sum(coalesce(ws_qty, 0) * ss_item_sk)
                FROM ss LEFT JOIN ws ON ws_year = ss_year AND ws_item_sk = ss_item_sk
                WHERE ss_year = 2000""";
        List<String> plan = explain(sql);
        long yearFilters = plan.stream().filter(text -> text.contains("FilterProject filter==(d_year, 2000)")).count();
        assertThat(yearFilters).as(String.join("\n", plan)).isEqualTo(2);
        List<List<Object>> rows = assertMatchesDuckDb(sql);
        // the check can fail: some store items of 2000 had no web sale that year, some had
        assertThat((Long) rows.get(0).get(0)).isGreaterThan((Long) rows.get(0).get(1)).isPositive();
        assertThat((Long) rows.get(0).get(1)).isPositive();
    }

    @Test
    void q22sRollupByHandJoinsItsInputOnce()
            throws SQLException
    {
        String sql = io.ontul.engine.testing.TpcdsQueries.load("q22");
        List<String> plan = explain(sql);
        String text = String.join("\n", plan);
        assertThat(text).contains("groupingSets=5").doesNotContain("UnionAll");
        assertThat(plan.stream().filter(line -> line.contains("HashJoin INNER on inv_item_sk = i_item_sk")).count()).as(text).isEqualTo(1);
        assertMatchesDuckDb(sql);
    }

    @Test
    void q02sWeeksOfOneYearFilterTheDatesBeforeTheSales()
            throws SQLException
    {
        String sql = io.ontul.engine.testing.TpcdsQueries.load("q02");
        List<String> plan = explain(sql);
        int inner = line(plan, "HashJoin INNER on sold_date_sk = d_date_sk");
        int semi = line(plan, "HashJoin SEMI on d_week_seq = d_week_seq");
        assertThat(semi).as(String.join("\n", plan)).isGreaterThan(inner);
        assertThat(indent(plan.get(semi))).isGreaterThan(indent(plan.get(inner)));
        assertMatchesDuckDb(sql);
    }

    @Test
    void q93sReturnsOfOneReasonAreAnInnerJoin()
            throws SQLException
    {
        // q93's shape (its reason has no returns at tiny)
        String sql = """
                SELECT ss_customer_sk, sum(CASE WHEN sr_return_quantity IS NOT NULL THEN (ss_quantity - sr_return_quantity) * ss_sales_price ELSE ss_quantity * ss_sales_price END) act_sales
                FROM store_sales LEFT OUTER JOIN store_returns ON (sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number), reason
                WHERE sr_reason_sk = r_reason_sk AND r_reason_sk <= 5
                GROUP BY ss_customer_sk ORDER BY act_sales, ss_customer_sk LIMIT 100""";
        List<String> plan = explain(sql);
        assertThat(String.join("\n", plan)).doesNotContain("HashJoin LEFT").contains("HashJoin INNER on sr_reason_sk = r_reason_sk");
        assertMatchesDuckDb(sql);
    }

    @Test
    void aJoinConditionTrueForAMissingReturnKeepsTheLeftJoin()
            throws SQLException
    {
        // COALESCE makes the condition true for sales without a return (reason 1): they stay
        String sql = """
                SELECT r_reason_sk, count(*), count(sr_ticket_number), sum(ss_quantity)
                FROM store_sales
                LEFT JOIN store_returns ON sr_ticket_number = ss_ticket_number AND sr_item_sk = ss_item_sk
                JOIN reason ON coalesce(sr_reason_sk, 1) = r_reason_sk
                GROUP BY r_reason_sk ORDER BY 1 LIMIT 5""";
        List<String> plan = explain(sql);
        assertThat(String.join("\n", plan)).contains("HashJoin LEFT");
        List<List<Object>> rows = assertMatchesDuckDb(sql);
        // reason 1 holds every sale without a return: far more rows than returns
        assertThat((Long) rows.get(0).get(1)).isGreaterThan((Long) rows.get(0).get(2));
    }

    private List<String> explain(String sql)
    {
        try (QueryResult result = session.execute("EXPLAIN " + sql)) {
            return ResultRows.drain(result).stream().map(row -> (String) row.get(0)).toList();
        }
    }

    private static int line(List<String> plan, String operator)
    {
        for (int i = 0; i < plan.size(); i++) {
            if (plan.get(i).contains("- " + operator)) {
                return i;
            }
        }
        throw new AssertionError("no " + operator + " in\n" + String.join("\n", plan));
    }

    private static int indent(String line)
    {
        return line.indexOf('-');
    }

    private List<List<Object>> assertMatchesDuckDb(String sql)
            throws SQLException
    {
        List<String> columnNames;
        List<List<Object>> expected;
        try (PreparedStatement statement = duckDb.prepareStatement(sql); ResultSet resultSet = statement.executeQuery()) {
            columnNames = ResultRows.columnNames(resultSet.getMetaData());
            expected = ResultRows.drain(resultSet);
        }
        List<List<Object>> actual;
        try (QueryResult result = session.execute(sql)) {
            actual = ResultRows.drain(result);
        }
        Optional<String> difference = ResultComparison.compare(sql, columnNames, expected, actual);
        if (difference.isPresent()) {
            fail("differs from DuckDB: " + difference.get());
        }
        assertThat(actual).isNotEmpty();
        return actual;
    }
}
