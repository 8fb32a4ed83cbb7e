package io.ontul.engine.plan;

import static io.ontul.engine.testing.ManyTableJoins.chain;
import static io.ontul.engine.testing.ManyTableJoins.from;
import static io.ontul.engine.testing.ManyTableJoins.shuffled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ManyTableJoins;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;

/**
 * Joins of more than {@value GreedyJoinOrder#MIN_TABLES} tables are ordered greedily
 * ({@link GreedyJoinOrder}); their answers equal DuckDB's on the same 64 tables (the shape of the
 * many-table joins in public SQL conformance suites: {@code tN(aN primary key, bN, cN, xN)}),
 * every equality condition becomes a hash join (no cross product with a filter above it), and
 * joins the greedy order does not take (outer joins) still plan and answer correctly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestGreedyJoinOrder
{
    private static final int TABLES = ManyTableJoins.TABLES;

    private DuckDBConnection duckDb;
    private Engine engine;
    private Session session;

    @BeforeAll
    void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openInMemory();
        engine = Engine.createEmbedded();
        session = engine.createSession("test");
        session.execute("USE memory.default").close();
        try (Statement duck = duckDb.createStatement()) {
            for (String statement : ManyTableJoins.tableStatements("", 64)) {
                session.execute(statement).close();
                duck.execute(statement);
            }
        }
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
    void aChainOf64TablesEqualsDuckDbWithAHashJoinPerCondition()
            throws SQLException
    {
        String sql = chain("", TABLES, new Random(1), "");
        assertThat(assertMatchesDuckDb(sql)).isNotEmpty();
        assertThat(joins(sql, "HashJoin")).isEqualTo(TABLES - 1);
        assertThat(joins(sql, "NestedLoopJoin")).isZero();
    }

    @Test
    void aRandomTreeOf40TablesWithConditionsOnSeveralTablesEqualsDuckDb()
            throws SQLException
    {
        Random random = new Random(2);
        List<Integer> tables = shuffled(40, random);
        List<String> conditions = new ArrayList<>();
        for (int i = 1; i < tables.size(); i++) {
            // each table is looked up by the key of one that came before it: a tree, not a chain
            int parent = tables.get(random.nextInt(i));
            conditions.add("a%d = b%d".formatted(tables.get(i), parent));
        }
        int t1 = tables.get(3);
        int t2 = tables.get(17);
        int t3 = tables.get(29);
        // conditions on three tables, a non-equality between two, one on a single table and a constant one
        conditions.add("c%d + c%d >= c%d".formatted(t1, t2, t3));
        conditions.add("c%d <> c%d".formatted(tables.get(5), tables.get(9)));
        conditions.add("c%d < 3".formatted(tables.get(0)));
        conditions.add("1 = 1");
        Collections.shuffle(conditions, random);
        String sql = "SELECT count(*), sum(a%d), min(x%d), max(x%d) FROM %s WHERE %s".formatted(
                tables.get(0), tables.get(39), tables.get(20), from("", tables, random), String.join(" AND ", conditions));
        assertThat(assertMatchesDuckDb(sql).get(0).get(0)).isNotEqualTo(0L);
    }

    @Test
    void tablesNoConditionConnectsAreJoinedLast()
            throws SQLException
    {
        // two chains of 12 tables that nothing connects: a cross product of the two, each filtered small first
        Random random = new Random(3);
        List<Integer> tables = shuffled(24, random);
        List<String> conditions = new ArrayList<>();
        for (int i = 1; i < 24; i++) {
            if (i != 12) {
                conditions.add("a%d = b%d".formatted(tables.get(i - 1), tables.get(i)));
            }
        }
        conditions.add("a%d = 7".formatted(tables.get(0)));
        conditions.add("a%d IN (3, 4)".formatted(tables.get(12)));
        String sql = "SELECT x%d, x%d, x%d FROM %s WHERE %s ORDER BY 1, 2, 3".formatted(
                tables.get(0), tables.get(11), tables.get(23), from("", tables, random), String.join(" AND ", conditions));
        assertMatchesDuckDb(sql);
        assertThat(joins(sql, "HashJoin")).isEqualTo(22);
        assertThat(joins(sql, "NestedLoopJoin")).isEqualTo(1);
    }

    @Test
    void outerJoinsAmongManyTablesKeepCalcitesOrdering()
            throws SQLException
    {
        // 24 tables joined in a chain, the last one LEFT JOINed to a 25th: one multi-join with a
        // null-generating table, which the greedy order leaves to Calcite's
        List<String> conditions = new ArrayList<>();
        List<String> from = new ArrayList<>();
        for (int table = 1; table <= 24; table++) {
            from.add("t" + table);
            if (table > 1) {
                conditions.add("a%d = b%d".formatted(table - 1, table));
            }
        }
        from.set(23, "t24 LEFT JOIN t64 ON a24 = b64 AND c64 = 0");
        String sql = "SELECT count(*), count(x64), min(x64), max(x1) FROM %s WHERE %s".formatted(String.join(", ", from), String.join(" AND ", conditions));
        assertThat(assertMatchesDuckDb(sql).get(0).get(1)).isNotEqualTo(0L);
    }

    @Test
    void theJoinAtTheThresholdStillPlansExhaustively()
            throws SQLException
    {
        assertMatchesDuckDb(chain("", GreedyJoinOrder.MIN_TABLES, new Random(5), " AND c%d < 4".formatted(3)));
        assertMatchesDuckDb(chain("", GreedyJoinOrder.MIN_TABLES + 1, new Random(6), ""));
    }

    /** How many joins of the kind ({@code HashJoin}, {@code NestedLoopJoin}) the plan of the query has. */
    private long joins(String sql, String kind)
    {
        try (QueryResult result = session.execute("EXPLAIN " + sql)) {
            return ResultRows.drain(result).stream().filter(row -> ((String) row.get(0)).trim().startsWith("- " + kind + " ")).count();
        }
    }

    private List<List<Object>> assertMatchesDuckDb(String sql)
            throws SQLException
    {
        List<String> columnNames;
        List<List<Object>> expected;
        try (Statement statement = duckDb.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            columnNames = ResultRows.columnNames(resultSet.getMetaData());
            expected = ResultRows.drain(resultSet);
        }
        List<List<Object>> actual;
        try (QueryResult result = session.execute(sql)) {
            actual = ResultRows.drain(result);
        }
        Optional<String> difference = ResultComparison.compare(sql, columnNames, expected, actual);
        if (difference.isPresent()) {
            fail("result differs from DuckDB: " + difference.get() + "\n" + sql);
        }
        return actual;
    }
}
