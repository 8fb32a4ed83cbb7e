package io.ontul.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
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
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;
import io.trino.tpch.TpchTable;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestWindowAndSetOperations
{
    private Engine engine;
    private Session session;
    private DuckDBConnection duckDb;

    @BeforeAll
    public void setUp()
            throws SQLException
    {
        engine = Engine.createEmbedded();
        session = engine.createSession("test");
        execute("CREATE TABLE memory.default.wso_t (grp VARCHAR, ord INTEGER, val INTEGER, price DECIMAL(10, 2), score DOUBLE)");
        execute("INSERT INTO memory.default.wso_t VALUES "
                + "('a', 1, 10, 1.50, 0.5), ('a', 2, 20, 2.25, 1.5), ('a', 2, 30, 3.00, 2.5), ('a', 3, NULL, NULL, NULL), ('a', 5, 40, 4.75, 4.0), "
                + "('b', 1, 5, 10.00, 1.0), ('b', 2, 5, 20.00, 2.0), ('b', 4, 15, 30.00, 3.0), "
                + "(NULL, 1, 7, 0.10, 7.0)");
        execute("CREATE TABLE memory.default.wso_left (a INTEGER, b VARCHAR)");
        execute("INSERT INTO memory.default.wso_left VALUES (1, 'x'), (1, 'x'), (1, 'x'), (2, 'y'), (NULL, 'z'), (NULL, 'z'), (3, NULL), (4, 'w')");
        execute("CREATE TABLE memory.default.wso_right (a INTEGER, b VARCHAR)");
        execute("INSERT INTO memory.default.wso_right VALUES (1, 'x'), (1, 'x'), (NULL, 'z'), (3, NULL), (3, NULL), (5, 'v')");
        execute("CREATE TABLE memory.default.wso_third (a INTEGER, b VARCHAR)");
        execute("INSERT INTO memory.default.wso_third VALUES (1, 'x'), (3, NULL), (9, 'q')");

        duckDb = DuckDbTpch.openWithTables("tiny", 0.01, TpchTable.ORDERS, TpchTable.NATION, TpchTable.CUSTOMER, TpchTable.LINE_ITEM);
    }

    @AfterAll
    public void tearDown()
            throws SQLException
    {
        duckDb.close();
        engine.close();
    }

    @Test
    public void testRanking()
    {
        assertRows("SELECT grp, ord, val, row_number() OVER (PARTITION BY grp ORDER BY ord, val), rank() OVER (PARTITION BY grp ORDER BY ord), "
                        + "dense_rank() OVER (PARTITION BY grp ORDER BY ord) FROM memory.default.wso_t ORDER BY grp NULLS FIRST, ord, val",
                row(null, 1L, 7L, 1L, 1L, 1L),
                row("a", 1L, 10L, 1L, 1L, 1L),
                row("a", 2L, 20L, 2L, 2L, 2L),
                row("a", 2L, 30L, 3L, 2L, 2L),
                row("a", 3L, null, 4L, 4L, 3L),
                row("a", 5L, 40L, 5L, 5L, 4L),
                row("b", 1L, 5L, 1L, 1L, 1L),
                row("b", 2L, 5L, 2L, 2L, 2L),
                row("b", 4L, 15L, 3L, 3L, 3L));
        assertRows("SELECT ord, val, percent_rank() OVER (ORDER BY ord), cume_dist() OVER (ORDER BY ord), ntile(2) OVER (ORDER BY ord, val) "
                        + "FROM memory.default.wso_t WHERE grp = 'a' ORDER BY ord, val",
                row(1L, 10L, 0.0, 0.2, 1L),
                row(2L, 20L, 0.25, 0.6, 1L),
                row(2L, 30L, 0.25, 0.6, 1L),
                row(3L, null, 0.75, 0.8, 2L),
                row(5L, 40L, 1.0, 1.0, 2L));
    }

    @Test
    public void testLagLead()
    {
        assertRows("SELECT ord, val, lag(val) OVER (ORDER BY ord, val), lead(val, 2) OVER (ORDER BY ord, val), lag(val, 1, -1) OVER (ORDER BY ord, val), "
                        + "lead(grp, 1, 'none') OVER (ORDER BY ord, val) FROM memory.default.wso_t WHERE grp = 'a' ORDER BY ord, val",
                row(1L, 10L, null, 30L, -1L, "a"),
                row(2L, 20L, 10L, null, 10L, "a"),
                row(2L, 30L, 20L, 40L, 20L, "a"),
                row(3L, null, 30L, null, 30L, "a"),
                row(5L, 40L, null, null, null, "none"));
    }

    @Test
    public void testDefaultFrameIncludesPeers()
    {
        assertRows("SELECT ord, val, sum(val) OVER w, count(val) OVER w, count(*) OVER w, min(val) OVER w, max(val) OVER w, avg(val) OVER w "
                        + "FROM memory.default.wso_t WHERE grp = 'a' WINDOW w AS (ORDER BY ord) ORDER BY ord, val",
                row(1L, 10L, 10L, 1L, 1L, 10L, 10L, 10.0),
                row(2L, 20L, 60L, 3L, 3L, 10L, 30L, 20.0),
                row(2L, 30L, 60L, 3L, 3L, 10L, 30L, 20.0),
                row(3L, null, 60L, 3L, 4L, 10L, 30L, 20.0),
                row(5L, 40L, 100L, 4L, 5L, 10L, 40L, 25.0));
        assertRows("SELECT grp, val, sum(val) OVER (PARTITION BY grp), avg(val) OVER (PARTITION BY grp), sum(val) OVER () FROM memory.default.wso_t "
                        + "WHERE grp = 'b' ORDER BY val",
                row("b", 5L, 25L, 25.0 / 3, 25L),
                row("b", 5L, 25L, 25.0 / 3, 25L),
                row("b", 15L, 25L, 25.0 / 3, 25L));
    }

    @Test
    public void testRowsFrames()
    {
        assertRows("SELECT ord, val, sum(val) OVER (ORDER BY ord, val ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                        + "min(val) OVER (ORDER BY ord, val ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                        + "count(*) OVER (ORDER BY ord, val ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), "
                        + "max(val) OVER (ORDER BY ord, val ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING), "
                        + "sum(val) OVER (ORDER BY ord, val ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), "
                        + "first_value(val) OVER (ORDER BY ord, val ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), "
                        + "last_value(val) OVER (ORDER BY ord, val ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) "
                        + "FROM memory.default.wso_t WHERE grp = 'a' ORDER BY ord, val",
                row(1L, 10L, 30L, 10L, 3L, null, 90L, 10L, 40L),
                row(2L, 20L, 60L, 10L, 3L, 10L, 70L, 10L, 40L),
                row(2L, 30L, 50L, 20L, 3L, 20L, 40L, 20L, 40L),
                row(3L, null, 70L, 30L, 2L, 30L, 40L, 30L, 40L),
                row(5L, 40L, 40L, 40L, 1L, 30L, null, null, 40L));
    }

    @Test
    public void testRangeOffsetFrames()
    {
        assertRows("SELECT ord, val, sum(val) OVER (ORDER BY ord RANGE BETWEEN 1 PRECEDING AND CURRENT ROW), "
                        + "count(*) OVER (ORDER BY ord RANGE BETWEEN CURRENT ROW AND 2 FOLLOWING), "
                        + "sum(val) OVER (ORDER BY ord DESC RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) "
                        + "FROM memory.default.wso_t WHERE grp = 'a' ORDER BY ord, val",
                row(1L, 10L, 10L, 4L, 60L),
                row(2L, 20L, 60L, 3L, 60L),
                row(2L, 30L, 60L, 3L, 60L),
                row(3L, null, 50L, 2L, 50L),
                row(5L, 40L, 40L, 1L, 40L));
        assertRows("SELECT price, sum(price) OVER (ORDER BY price RANGE BETWEEN 0.75 PRECEDING AND CURRENT ROW), "
                        + "avg(price) OVER (ORDER BY price RANGE BETWEEN 0.75 PRECEDING AND CURRENT ROW) "
                        + "FROM memory.default.wso_t WHERE grp = 'a' AND price IS NOT NULL ORDER BY price",
                row(new BigDecimal("1.50"), new BigDecimal("1.50"), 1.5),
                row(new BigDecimal("2.25"), new BigDecimal("3.75"), 1.875),
                row(new BigDecimal("3.00"), new BigDecimal("5.25"), 2.625),
                row(new BigDecimal("4.75"), new BigDecimal("4.75"), 4.75));
    }

    @Test
    public void testDecimalAndDoubleAggregates()
    {
        assertRows("SELECT grp, ord, sum(price) OVER (PARTITION BY grp ORDER BY ord, val ROWS 1 PRECEDING), sum(score) OVER (PARTITION BY grp ORDER BY ord, val), "
                        + "max(price) OVER (PARTITION BY grp) FROM memory.default.wso_t WHERE grp = 'b' ORDER BY ord",
                row("b", 1L, new BigDecimal("10.00"), 1.0, new BigDecimal("30.00")),
                row("b", 2L, new BigDecimal("30.00"), 3.0, new BigDecimal("30.00")),
                row("b", 4L, new BigDecimal("50.00"), 6.0, new BigDecimal("30.00")));
    }

    @Test
    public void testWindowOverAggregateAndFilterOnRowNumber()
    {
        assertRows("SELECT grp, sum(val), rank() OVER (ORDER BY sum(val) DESC) FROM memory.default.wso_t GROUP BY grp ORDER BY grp NULLS FIRST",
                row(null, 7L, 3L),
                row("a", 100L, 1L),
                row("b", 25L, 2L));
        assertRows("SELECT grp, val FROM (SELECT grp, val, row_number() OVER (PARTITION BY grp ORDER BY val DESC NULLS LAST) AS rn FROM memory.default.wso_t) AS t "
                        + "WHERE rn = 1 ORDER BY grp NULLS FIRST",
                row(null, 7L),
                row("a", 40L),
                row("b", 15L));
    }

    @Test
    public void testEmptyInput()
    {
        assertRows("SELECT val, row_number() OVER (ORDER BY val) FROM memory.default.wso_t WHERE val > 1000");
        assertRows("SELECT a FROM memory.default.wso_left WHERE a > 100 INTERSECT SELECT a FROM memory.default.wso_right");
    }

    @Test
    public void testIntersect()
    {
        assertRows("SELECT a, b FROM memory.default.wso_left INTERSECT SELECT a, b FROM memory.default.wso_right ORDER BY a NULLS FIRST",
                row(null, "z"),
                row(1L, "x"),
                row(3L, null));
        assertRows("SELECT a, b FROM memory.default.wso_left INTERSECT ALL SELECT a, b FROM memory.default.wso_right ORDER BY a NULLS FIRST",
                row(null, "z"),
                row(1L, "x"),
                row(1L, "x"),
                row(3L, null));
        assertRows("SELECT a, b FROM memory.default.wso_left INTERSECT ALL SELECT a, b FROM memory.default.wso_right INTERSECT ALL SELECT a, b FROM memory.default.wso_third ORDER BY a",
                row(1L, "x"),
                row(3L, null));
    }

    @Test
    public void testExcept()
    {
        assertRows("SELECT a, b FROM memory.default.wso_left EXCEPT SELECT a, b FROM memory.default.wso_right ORDER BY a",
                row(2L, "y"),
                row(4L, "w"));
        assertRows("SELECT a, b FROM memory.default.wso_left EXCEPT ALL SELECT a, b FROM memory.default.wso_right ORDER BY a NULLS FIRST",
                row(null, "z"),
                row(1L, "x"),
                row(2L, "y"),
                row(4L, "w"));
        assertRows("SELECT a, b FROM memory.default.wso_left EXCEPT ALL SELECT a, b FROM memory.default.wso_right EXCEPT ALL SELECT a, b FROM memory.default.wso_third ORDER BY a NULLS FIRST",
                row(null, "z"),
                row(2L, "y"),
                row(4L, "w"));
        assertRows("SELECT a, b FROM memory.default.wso_left EXCEPT SELECT a, b FROM memory.default.wso_right EXCEPT SELECT a, b FROM memory.default.wso_third ORDER BY a",
                row(2L, "y"),
                row(4L, "w"));
    }

    @Test
    public void testAgainstDuckDb()
            throws SQLException
    {
        List<String> queries = List.of(
                "SELECT o_orderkey, o_custkey, row_number() OVER (PARTITION BY o_custkey ORDER BY o_orderdate, o_orderkey) AS rn, "
                        + "rank() OVER (PARTITION BY o_orderpriority ORDER BY o_totalprice DESC) AS rk, "
                        + "dense_rank() OVER (ORDER BY o_orderstatus, o_orderpriority) AS dr FROM tpch.tiny.orders ORDER BY o_orderkey",
                "SELECT o_orderkey, sum(o_totalprice) OVER (PARTITION BY o_custkey ORDER BY o_orderdate, o_orderkey) AS run_sum, "
                        + "count(*) OVER (PARTITION BY o_custkey) AS cnt, avg(o_totalprice) OVER (PARTITION BY o_orderpriority) AS av "
                        + "FROM tpch.tiny.orders ORDER BY o_orderkey",
                "SELECT o_orderkey, sum(o_totalprice) OVER (ORDER BY o_orderkey ROWS BETWEEN 5 PRECEDING AND 3 FOLLOWING) AS s, "
                        + "min(o_totalprice) OVER (ORDER BY o_orderkey ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) AS mn, "
                        + "max(o_comment) OVER (PARTITION BY o_orderstatus ORDER BY o_orderkey ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING) AS mx "
                        + "FROM tpch.tiny.orders ORDER BY o_orderkey",
                "SELECT o_orderkey, count(*) OVER (ORDER BY o_orderdate RANGE BETWEEN INTERVAL '3' DAY PRECEDING AND INTERVAL '1' DAY FOLLOWING) AS c, "
                        + "sum(o_shippriority) OVER (PARTITION BY o_orderpriority ORDER BY o_custkey RANGE BETWEEN 10 PRECEDING AND 10 FOLLOWING) AS s "
                        + "FROM tpch.tiny.orders ORDER BY o_orderkey",
                "SELECT o_orderkey, lag(o_orderdate, 3) OVER (PARTITION BY o_custkey ORDER BY o_orderkey) AS lg, "
                        + "lead(o_clerk) OVER (PARTITION BY o_custkey ORDER BY o_orderkey) AS ld, "
                        + "first_value(o_totalprice) OVER (PARTITION BY o_custkey ORDER BY o_orderkey) AS fv "
                        + "FROM tpch.tiny.orders ORDER BY o_orderkey",
                "SELECT c_nationkey, c_mktsegment FROM tpch.tiny.customer INTERSECT SELECT n_nationkey, 'BUILDING' FROM tpch.tiny.nation ORDER BY 1, 2",
                "SELECT c_nationkey, c_mktsegment FROM tpch.tiny.customer EXCEPT ALL SELECT c_nationkey, c_mktsegment FROM tpch.tiny.customer WHERE c_acctbal > 0 ORDER BY 1, 2",
                "SELECT l_orderkey, l_linenumber, sum(l_quantity) OVER (PARTITION BY l_suppkey ORDER BY l_orderkey, l_linenumber ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS s, "
                        + "rank() OVER (ORDER BY l_extendedprice DESC) AS rk, avg(l_discount) OVER (PARTITION BY l_shipmode ORDER BY l_shipdate) AS ad "
                        + "FROM tpch.tiny.lineitem ORDER BY l_orderkey, l_linenumber",
                "SELECT l_suppkey, l_returnflag FROM tpch.tiny.lineitem EXCEPT ALL SELECT l_suppkey, l_returnflag FROM tpch.tiny.lineitem WHERE l_quantity > 10 ORDER BY 1, 2",
                "SELECT o_custkey FROM tpch.tiny.orders INTERSECT ALL SELECT c_custkey FROM tpch.tiny.customer WHERE c_nationkey < 10 ORDER BY 1");
        for (String sql : queries) {
            List<List<Object>> expected;
            List<String> names;
            try (Statement statement = duckDb.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
                names = ResultRows.columnNames(resultSet.getMetaData());
                expected = ResultRows.drain(resultSet);
            }
            List<List<Object>> actual;
            try (QueryResult result = session.execute(sql)) {
                actual = ResultRows.drain(result);
            }
            Optional<String> difference = ResultComparison.compare(sql, names, expected, actual);
            assertThat(difference).as(sql).isEmpty();
        }
    }

    private void execute(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            ResultRows.drain(result);
        }
    }

    @SafeVarargs
    private void assertRows(String sql, List<Object>... expected)
    {
        List<List<Object>> actual;
        try (QueryResult result = session.execute(sql)) {
            actual = ResultRows.drain(result);
        }
        assertThat(actual).as(sql).containsExactly(expected);
    }

    private static List<Object> row(Object... values)
    {
        return Arrays.asList(values);
    }
}
