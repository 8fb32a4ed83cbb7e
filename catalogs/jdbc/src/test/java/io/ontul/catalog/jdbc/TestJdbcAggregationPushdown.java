package io.ontul.catalog.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.Session;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Aggregations PostgreSQL computes for the engine: catalog {@code pg} pushes them, catalog
 * {@code plain} ({@code read.aggregate-pushdown=false}) on the same database has the engine
 * aggregate the rows, and both must give the same rows for every type, NULLs, empty inputs and
 * filters; what the connector cannot compute exactly stays in the engine.
 */
class TestJdbcAggregationPushdown
{
    private static final String SCHEMA = "aggregate_test";
    private static final String ITEMS = SCHEMA + ".items";

    private static TestingPostgres postgres;
    private static Engine engine;
    private static Session session;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE",
                "CREATE SCHEMA " + SCHEMA,
                // a linguistic collation, where 'a' < 'B': MIN, MAX and groups must still follow code points
                "CREATE TABLE " + ITEMS + " (id integer, small smallint, big bigint, price numeric(12, 2), ratio double precision, score real, day date, "
                        + "ts timestamp(6), tstz timestamptz, name text COLLATE \"en-x-icu\", flag boolean, code char(3), rough numeric, u uuid)",
                "INSERT INTO " + ITEMS + " VALUES "
                        + "(1, 1, 10000000000, 10.50, 0.5, 0.25, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.123456', TIMESTAMPTZ '2024-01-01 10:00:00+02', 'a', true, 'x', 1.000000000001, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), "
                        + "(2, 1, -5, 20.25, 1.25, 1.5, DATE '2024-01-02', TIMESTAMP '2024-01-02 10:00:00', TIMESTAMPTZ '2024-01-01 08:00:00+00', 'B', false, 'y', 1.000000000002, NULL), "
                        + "(3, 2, NULL, NULL, -3.75, NULL, NULL, NULL, NULL, 'b', NULL, NULL, NULL, NULL), "
                        + "(4, NULL, 7, 0.01, 2.0, 0.5, DATE '2023-12-31', TIMESTAMP '1999-12-31 23:59:59.999999', TIMESTAMPTZ '2030-06-01 00:00:00-05', NULL, true, 'x', 3, NULL), "
                        + "(5, 2, 7, 99.99, NULL, 2.25, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.123456', TIMESTAMPTZ '2024-01-01 09:00:00+01', 'a', false, 'y', 4.5, NULL), "
                        + "(6, 3, 1, 5.00, 4.0, -1.0, DATE '2024-01-03', TIMESTAMP '2024-01-03 00:00:00', TIMESTAMPTZ '2024-01-03 00:00:00+00', 'ä', true, 'z', 0.1, NULL)",
                "CREATE TABLE " + SCHEMA + ".blank (id integer, price numeric(12, 2), name text)",
                "CREATE TABLE " + SCHEMA + ".huge (id integer, big bigint, wide numeric(20, 0))",
                "INSERT INTO " + SCHEMA + ".huge VALUES (1, 4611686018427387904, 6000000000000000000), (2, 4611686018427387904, 6000000000000000000), (3, NULL, 1)");
        Map<String, String> pushed = new HashMap<>(postgres.catalogProperties());
        // a split column: an aggregation must still be one statement over the whole table
        pushed.put("read.split-column." + ITEMS, "id");
        pushed.put("read.splits", "3");
        Map<String, String> plain = new HashMap<>(pushed);
        plain.put("read.aggregate-pushdown", "false");
        engine = Engine.create(new EngineConfig(Map.of(), Map.of("pg", pushed, "plain", plain)));
        session = engine.createSession("test");
    }

    @AfterAll
    static void tearDown()
    {
        engine.close();
    }

    @Test
    void countsSumsMinimaMaximaAndAveragesMatchTheEngine()
    {
        assertPushed("SELECT count(*), count(small), count(name), count(rough), count(u), count(code) FROM %s.items");
        assertPushed("SELECT sum(id), sum(small), sum(big), sum(price), avg(id), avg(small), avg(big), avg(price), min(price), max(price), min(big), max(small) FROM %s.items");
        // exactly representable values: the order of additions cannot change the sums
        assertPushed("SELECT sum(ratio), avg(ratio), sum(score), avg(score) FROM %s.items");
        assertPushed("SELECT min(day), max(day), min(ts), max(ts), min(tstz), max(tstz), min(name), max(name) FROM %s.items");
        // code point order, not the column's collation
        assertThat(rows("SELECT min(name), max(name) FROM pg." + ITEMS)).containsExactly(List.of("B", "ä"));
        assertThat(postgres.query("SELECT min(name), max(name) FROM " + ITEMS)).containsExactly(List.of("a", "B"));
        assertThat(rows("SELECT count(*), sum(big), avg(price), max(day) FROM pg." + ITEMS))
                .isEqualTo(postgres.query("SELECT count(*), sum(big)::bigint, avg(price)::double precision, max(day) FROM " + ITEMS));
    }

    @Test
    void groupsIncludingNullsMatchTheEngine()
    {
        assertPushed("SELECT name, count(*), sum(price), avg(big), min(ts) FROM %s.items GROUP BY name");
        assertPushed("SELECT flag, day, count(id), max(name) FROM %s.items GROUP BY flag, day");
        assertPushed("SELECT tstz, count(*) FROM %s.items GROUP BY tstz");
        assertPushed("SELECT DISTINCT small FROM %s.items");
        assertPushed("SELECT count(DISTINCT name) FROM %s.items");
        assertPushed("SELECT small, sum(big) FROM %s.items GROUP BY small HAVING sum(big) > 0");
        assertThat(rows("SELECT name, count(*) FROM pg." + ITEMS + " GROUP BY name ORDER BY name NULLS FIRST"))
                .containsExactly(Arrays.asList(null, 1L), List.of("B", 1L), List.of("a", 2L), List.of("b", 1L), List.of("ä", 1L));
    }

    @Test
    void filtersApplyBeforeAggregating()
    {
        assertPushed("SELECT name, count(*), sum(price) FROM %s.items WHERE price > 10 AND name LIKE 'a%%' GROUP BY name");
        assertPushed("SELECT count(*), sum(big) FROM %s.items WHERE (id = 2 OR day >= DATE '2024-01-03') AND name IS NOT NULL");
        assertPushed("SELECT count(*), sum(price), min(name), avg(id) FROM %s.items WHERE id > 1000");
        assertPushed("SELECT name, count(*) FROM %s.items WHERE id > 1000 GROUP BY name");
        assertThat(rows("SELECT count(*), sum(price), min(name), avg(id) FROM pg." + ITEMS + " WHERE id > 1000"))
                .containsExactly(Arrays.asList(0L, null, null, null));
    }

    @Test
    void emptyTablesGiveOneGlobalRowAndNoGroups()
    {
        assertPushed("SELECT count(*), count(price), sum(price), max(name), avg(id) FROM %s.blank");
        assertThat(rows("SELECT count(*), count(price), sum(price), max(name), avg(id) FROM pg." + SCHEMA + ".blank"))
                .containsExactly(Arrays.asList(0L, 0L, null, null, null));
        assertPushed("SELECT name, count(*) FROM %s.blank GROUP BY name");
        assertThat(rows("SELECT name, count(*) FROM pg." + SCHEMA + ".blank GROUP BY name")).isEmpty();
    }

    @Test
    void whatPostgresWouldComputeDifferentlyStaysInTheEngine()
    {
        // floating point groups and extremes (-0.0, NaN), char(n) padding, rounded numeric without precision, uuid text
        assertNotPushed("SELECT ratio, count(*) FROM %s.items GROUP BY ratio");
        assertNotPushed("SELECT min(ratio), max(score) FROM %s.items");
        assertNotPushed("SELECT code, count(*) FROM %s.items GROUP BY code");
        assertNotPushed("SELECT sum(rough), avg(rough) FROM %s.items");
        assertNotPushed("SELECT min(rough) FROM %s.items");
        assertNotPushed("SELECT u, count(*) FROM %s.items GROUP BY u");
        // a filter PostgreSQL would not evaluate exactly, or that the engine cannot send
        assertNotPushed("SELECT count(*) FROM %s.items WHERE code = 'x'");
        assertNotPushed("SELECT count(*) FROM %s.items WHERE id + small > 3");
        // expressions, FILTER, grouping sets
        assertNotPushed("SELECT sum(id * 2) FROM %s.items");
        assertNotPushed("SELECT count(*) FILTER (WHERE flag) FROM %s.items");
        assertNotPushed("SELECT name, flag, count(*) FROM %s.items GROUP BY ROLLUP (name, flag)");
    }

    @Test
    void postgresReceivesOneGroupByStatement()
    {
        postgres.resetStatements();
        List<List<Object>> result = rows("SELECT name, count(*), sum(price), avg(big) FROM pg." + ITEMS + " WHERE price > 10 GROUP BY name");
        List<List<Object>> statements = postgres.statements("SELECT %FROM \"aggregate_test\".\"items\"%");
        assertThat(statements).hasSize(1);
        assertThat(statements.get(0).get(0)).isEqualTo("SELECT \"name\" COLLATE \"C\", count(*), sum(\"price\"), sum(\"big\"), count(\"big\")"
                + " FROM \"aggregate_test\".\"items\" WHERE \"price\" > $1 GROUP BY \"name\" COLLATE \"C\"");
        // PostgreSQL returned the groups, not the rows
        assertThat(statements.get(0).get(2)).isEqualTo((long) result.size());
        assertThat(explain("SELECT name, count(*), sum(price), avg(big) FROM pg." + ITEMS + " WHERE price > 10 GROUP BY name"))
                .contains("aggregation=[GROUP BY name; COUNT(*), SUM(price), AVG(big)]");
    }

    @Test
    void sumsOutsideTheEngineRangeFailAsInTheEngine()
    {
        String table = SCHEMA + ".huge";
        assertThat(explain("SELECT sum(big) FROM pg." + table)).contains("aggregation=[SUM(big)]");
        for (String catalog : List.of("pg", "plain")) {
            assertThatThrownBy(() -> rows("SELECT sum(big) FROM " + catalog + "." + table))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW));
            // a DECIMAL sum is exact to 38 digits, pushed down or not (6e18 + 6e18 + 1 leaves 64 bits)
            assertThat(rows("SELECT sum(wide), avg(big) FROM " + catalog + "." + table))
                    .containsExactly(List.of(new java.math.BigDecimal("12000000000000000001"), 4.611686018427387904E18));
        }
        assertThatThrownBy(() -> rows("SELECT sum(big) FROM pg." + table))
                .hasMessage("Cannot read column 'SUM(big)' of table 'pg.aggregate_test.huge': numeric overflow: the sum does not fit BIGINT");
        // sums within the range are exact
        assertPushed("SELECT sum(big), sum(wide) FROM %s.huge WHERE id <> 2");
    }

    /** Runs the query ({@code %s}: the catalog and schema) pushed and not, and checks that it was pushed and that the rows agree. */
    private static void assertPushed(String sql)
    {
        String pushed = sql.formatted("pg." + SCHEMA);
        assertThat(explain(pushed)).as(pushed).contains("aggregation=[");
        assertThat(sorted(rows(pushed))).as(pushed).isEqualTo(sorted(rows(sql.formatted("plain." + SCHEMA))));
    }

    private static void assertNotPushed(String sql)
    {
        String pushed = sql.formatted("pg." + SCHEMA);
        assertThat(explain(pushed)).as(pushed).doesNotContain("aggregation=[");
        assertThat(sorted(rows(pushed))).as(pushed).isEqualTo(sorted(rows(sql.formatted("plain." + SCHEMA))));
    }

    private static String explain(String sql)
    {
        StringBuilder plan = new StringBuilder();
        for (List<Object> row : rows("EXPLAIN " + sql)) {
            plan.append(row.get(0)).append('\n');
        }
        return plan.toString();
    }

    private static List<List<Object>> rows(String sql)
    {
        return JdbcTesting.execute(session, sql);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
