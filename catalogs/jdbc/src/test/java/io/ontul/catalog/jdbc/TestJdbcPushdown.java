package io.ontul.catalog.jdbc;

import static io.ontul.catalog.jdbc.JdbcTesting.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.Connector;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * The SQL the connector sends: only the needed columns, the filters as a WHERE clause of bind
 * parameters, LIMIT only when every filter went along; each checked against the generated text,
 * against what PostgreSQL received (pg_stat_statements) and against direct PostgreSQL results.
 */
class TestJdbcPushdown
{
    private static final String SCHEMA = "pushdown_test";

    private static TestingPostgres postgres;
    private static BufferAllocator allocator;
    private static Connector connector;
    private static TableHandle orders;
    private static TableHandle words;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE",
                "CREATE SCHEMA " + SCHEMA,
                // a linguistic collation, where 'a' < 'B': ranges must still compare as the engine does
                "CREATE TABLE pushdown_test.words (id integer, word text COLLATE \"en-x-icu\", code char(3))",
                "INSERT INTO pushdown_test.words VALUES (1, 'a%b', 'x'), (2, 'a_b', 'y'), (3, 'axb', NULL), (4, 'a!b', 'x'), (5, 'a\\b', 'x'), "
                        + "(6, 'B', 'y'), (7, 'a', 'y'), (8, 'b', 'y'), (9, NULL, 'z')",
                "CREATE TABLE pushdown_test.numbers AS SELECT n AS id, n % 7 AS bucket FROM generate_series(1, 200000) n");
        try (Engine engine = JdbcTesting.createEngine(postgres)) {
            JdbcTesting.execute(engine.createSession("test"), "CREATE TABLE " + CATALOG + "." + SCHEMA + ".orders AS SELECT * FROM tpch.tiny.orders");
        }
        allocator = new RootAllocator();
        connector = JdbcTesting.createConnector(postgres, allocator);
        orders = connector.metadata().getTable(SCHEMA, "orders").orElseThrow();
        words = connector.metadata().getTable(SCHEMA, "words").orElseThrow();
    }

    @AfterAll
    static void tearDown()
    {
        connector.close();
        allocator.close();
    }

    @Test
    void selectsOnlyTheNeededColumns()
    {
        ScanSpec scan = new ScanSpec(List.of("o_totalprice", "o_orderkey"), List.of());
        assertThat(sql(orders, scan)).isEqualTo("SELECT \"o_totalprice\", \"o_orderkey\" FROM \"pushdown_test\".\"orders\"");
        assertSameRows(read(orders, scan), "SELECT o_totalprice, o_orderkey FROM pushdown_test.orders");
    }

    @Test
    void readsBatchesOfTheRowsTheScanAsksFor()
    {
        // under a small memory limit the engine asks for smaller batches (ScanSpec.maxBatchRows):
        // 15,000 orders come in batches of 1,000 at most, and are the same rows
        ScanSpec scan = new ScanSpec(List.of("o_orderkey", "o_comment"), List.of()).withMaxBatchRows(1_000);
        List<Integer> batchRows = new ArrayList<>();
        try (JdbcBatchSource source = source(orders, scan)) {
            for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                batchRows.add(batch.getRowCount());
                batch.close();
            }
        }
        assertThat(batchRows).allSatisfy(rows -> assertThat(rows).isBetween(1, 1_000));
        assertThat(batchRows.stream().mapToInt(Integer::intValue).sum()).isEqualTo(15_000);
        assertThat(batchRows).hasSizeGreaterThanOrEqualTo(15);
        assertSameRows(read(orders, scan), "SELECT o_orderkey, o_comment FROM pushdown_test.orders");
    }

    @Test
    void pushesComparisonsInNullChecksAndLikeAsBindParameters()
    {
        ScanSpec scan = new ScanSpec(List.of("o_orderkey", "o_orderdate"), List.of(
                predicate("o_orderstatus", Operator.EQUAL, "F"),
                predicate("o_totalprice", Operator.GREATER_THAN, new BigDecimal("200000.00")),
                predicate("o_orderdate", Operator.LESS_THAN_OR_EQUAL, LocalDate.of(1994, 1, 1)),
                new ColumnPredicate("o_orderpriority", Operator.IN, List.of("1-URGENT", "2-HIGH")),
                predicate("o_clerk", Operator.IS_NOT_NULL),
                predicate("o_comment", Operator.LIKE, "%furious%")));
        JdbcBatchSource source = source(orders, scan);
        assertThat(source.query().sql()).isEqualTo("SELECT \"o_orderkey\", \"o_orderdate\" FROM \"pushdown_test\".\"orders\" WHERE \"o_orderstatus\" = ?"
                + " AND \"o_totalprice\" > ? AND \"o_orderdate\" <= ? AND \"o_orderpriority\" IN (?, ?) AND \"o_clerk\" IS NOT NULL"
                + " AND \"o_comment\" LIKE ? ESCAPE '!'");
        assertThat(source.query().values()).containsExactly("F", new BigDecimal("200000.00"), LocalDate.of(1994, 1, 1), "1-URGENT", "2-HIGH", "%furious%");
        source.close();
        List<List<Object>> rows = read(orders, scan);
        assertThat(rows).isNotEmpty();
        assertSameRows(rows, "SELECT o_orderkey, o_orderdate FROM pushdown_test.orders WHERE o_orderstatus = 'F' AND o_totalprice > 200000"
                + " AND o_orderdate <= DATE '1994-01-01' AND o_orderpriority IN ('1-URGENT', '2-HIGH') AND o_clerk IS NOT NULL AND o_comment LIKE '%furious%'");
    }

    @Test
    void pushesDisjunctionsOnlyWhenEveryAlternativeGoesAlong()
    {
        List<List<ColumnPredicate>> disjunctions = List.of(
                List.of(predicate("o_orderstatus", Operator.EQUAL, "P"), predicate("o_totalprice", Operator.LESS_THAN, new BigDecimal("1000"))),
                // a LocalDate for a text column cannot be sent: this alternative stays in the engine, so the whole OR does
                List.of(predicate("o_orderkey", Operator.EQUAL, 1L), predicate("o_clerk", Operator.EQUAL, LocalDate.of(2000, 1, 1))));
        ScanSpec scan = new ScanSpec(List.of("o_orderkey"), List.of(), disjunctions, OptionalLong.of(10));
        JdbcBatchSource source = source(orders, scan);
        assertThat(source.query().sql()).isEqualTo("SELECT \"o_orderkey\" FROM \"pushdown_test\".\"orders\" WHERE (\"o_orderstatus\" = ? OR \"o_totalprice\" < ?)");
        source.close();
        assertSameRows(read(orders, new ScanSpec(List.of("o_orderkey"), List.of(), disjunctions.subList(0, 1), OptionalLong.empty())),
                "SELECT o_orderkey FROM pushdown_test.orders WHERE o_orderstatus = 'P' OR o_totalprice < 1000");
    }

    @Test
    void pushesLimitOnlyWhenEveryFilterIsExact()
    {
        ScanSpec exact = new ScanSpec(List.of("o_orderkey"), List.of(predicate("o_orderstatus", Operator.EQUAL, "O")), List.of(), OptionalLong.of(7));
        assertThat(sql(orders, exact)).isEqualTo("SELECT \"o_orderkey\" FROM \"pushdown_test\".\"orders\" WHERE \"o_orderstatus\" = ? LIMIT 7");
        assertThat(read(orders, exact)).hasSize(7);

        // TIME-like truncation, floating point NaN, unknown collations: filters the database does not evaluate exactly keep the LIMIT out
        ScanSpec inexact = new ScanSpec(List.of("id"), List.of(predicate("code", Operator.EQUAL, "x")), List.of(), OptionalLong.of(2));
        assertThat(sql(words, inexact)).isEqualTo("SELECT \"id\" FROM \"pushdown_test\".\"words\"");
        assertThat(read(words, inexact)).hasSize(9);

        ScanSpec noFilter = new ScanSpec(List.of("id"), List.of(), List.of(), OptionalLong.of(3));
        assertThat(sql(words, noFilter)).isEqualTo("SELECT \"id\" FROM \"pushdown_test\".\"words\" LIMIT 3");
    }

    @Test
    void likeUsesItsOwnEscapeWhateverTheDatabaseDefault()
    {
        assertThat(wordsMatching("a#%b", "#")).containsExactly(1L);
        assertThat(wordsMatching("a#_b", "#")).containsExactly(2L);
        // without an escape, a backslash is an ordinary character (PostgreSQL's LIKE would take it as escape)
        assertThat(wordsMatching("a\\b", null)).containsExactly(5L);
        assertThat(wordsMatching("a!b", null)).containsExactly(4L);
        assertThat(wordsMatching("a_b", null)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(sql(words, new ScanSpec(List.of("id"), List.of(new ColumnPredicate("word", Operator.LIKE, List.of("a#%b", "#"))))))
                .endsWith("WHERE \"word\" LIKE ? ESCAPE '!'");
    }

    @Test
    void comparesTextInCodePointOrder()
    {
        ScanSpec scan = new ScanSpec(List.of("id"), List.of(predicate("word", Operator.LESS_THAN, "a")));
        assertThat(sql(words, scan)).endsWith("WHERE \"word\" COLLATE \"C\" < ?");
        // 'B' sorts before 'a' in code point order, as in the engine, but after it in the column's collation
        assertThat(ids(read(words, scan))).containsExactly(6L);
        assertThat(postgres.query("SELECT id FROM pushdown_test.words WHERE word < 'a'")).isEmpty();
    }

    @Test
    void charColumnsOnlyTakeNullChecks()
    {
        ScanSpec scan = new ScanSpec(List.of("id"), List.of(predicate("code", Operator.EQUAL, "x"), predicate("code", Operator.IS_NULL)));
        assertThat(sql(words, scan)).isEqualTo("SELECT \"id\" FROM \"pushdown_test\".\"words\" WHERE \"code\" IS NULL");
        assertThat(ids(read(words, scan))).containsExactly(3L);
    }

    @Test
    void scanWithoutColumnsCountsRows()
    {
        ScanSpec scan = new ScanSpec(List.of(), List.of(predicate("o_orderstatus", Operator.EQUAL, "F")));
        List<Split> splits = connector.splits(orders, scan, 1);
        long rows = 0;
        try (BatchSource source = connector.createSource(splits.get(0), scan, allocator)) {
            assertThat(((JdbcBatchSource) source).query().sql()).isEqualTo("SELECT count(*) FROM \"pushdown_test\".\"orders\" WHERE \"o_orderstatus\" = ?");
            VectorSchemaRoot batch;
            while ((batch = source.next()) != null) {
                rows += batch.getRowCount();
                batch.close();
            }
        }
        assertThat(rows).isEqualTo(postgres.query("SELECT count(*) FROM pushdown_test.orders WHERE o_orderstatus = 'F'").get(0).get(0));
    }

    @Test
    void closingEarlyReturnsTheConnection()
    {
        Map<String, String> properties = JdbcTesting.connectorProperties(postgres, changes -> {
            changes.put("connection-pool.max-size", "1");
            changes.put("connection-pool.connection-timeout", "2s");
            changes.put("read.fetch-size", "1000");
        });
        try (Connector small = JdbcTesting.createConnector(properties, allocator)) {
            TableHandle numbers = small.metadata().getTable(SCHEMA, "numbers").orElseThrow();
            ScanSpec scan = new ScanSpec(List.of("id"), List.of());
            for (int attempt = 0; attempt < 3; attempt++) {
                try (BatchSource source = small.createSource(small.splits(numbers, scan, 1).get(0), scan, allocator)) {
                    VectorSchemaRoot first = source.next();
                    assertThat(first.getRowCount()).isEqualTo(JdbcBatchSource.MAX_BATCH_ROWS);
                    first.close();
                }
            }
            // the one connection of the pool is free again, and no statement is left running
            assertThat(JdbcTesting.read(small, numbers, new ScanSpec(List.of("bucket"), List.of(predicate("id", Operator.EQUAL, 7L))), 1, allocator))
                    .containsExactly(List.of(0L));
        }
        assertThat(postgres.query("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%\"numbers\"%' AND state <> 'idle' AND pid <> pg_backend_pid()"))
                .containsExactly(List.of(0L));
    }

    @Test
    void engineQueriesSendTheirFiltersToPostgres()
    {
        postgres.resetStatements();
        try (Engine engine = JdbcTesting.createEngine(postgres)) {
            Session session = engine.createSession("test");
            List<List<Object>> rows = JdbcTesting.execute(session,
                    "SELECT o_orderkey, o_totalprice FROM " + CATALOG + "." + SCHEMA + ".orders WHERE o_orderstatus = 'F' AND o_totalprice > 300000");
            assertSameRows(rows, "SELECT o_orderkey, o_totalprice FROM pushdown_test.orders WHERE o_orderstatus = 'F' AND o_totalprice > 300000");

            List<List<Object>> statements = postgres.statements("SELECT %FROM \"pushdown_test\".\"orders\"%");
            assertThat(statements).hasSize(1);
            String sql = (String) statements.get(0).get(0);
            // values arrive as bind parameters; only the needed columns are read; PostgreSQL returned only the matching rows
            assertThat(sql).startsWith("SELECT \"o_orderkey\", \"o_orderstatus\", \"o_totalprice\" FROM \"pushdown_test\".\"orders\" WHERE ")
                    .contains("\"o_orderstatus\" = $", "\"o_totalprice\" > $")
                    .doesNotContain("300000", "'F'");
            assertThat(statements.get(0).get(2)).isEqualTo((long) rows.size());
        }
    }

    @Test
    void engineResultsMatchPostgres()
    {
        try (Engine engine = JdbcTesting.createEngine(postgres)) {
            Session session = engine.createSession("test");
            String table = CATALOG + "." + SCHEMA + ".orders";
            assertThat(JdbcTesting.execute(session, "SELECT o_orderstatus, count(*), sum(o_totalprice), min(o_orderdate), max(o_comment) FROM " + table
                    + " GROUP BY o_orderstatus ORDER BY o_orderstatus"))
                    .isEqualTo(postgres.query("SELECT o_orderstatus, count(*), sum(o_totalprice), min(o_orderdate), max(o_comment COLLATE \"C\") FROM pushdown_test.orders"
                            + " GROUP BY o_orderstatus ORDER BY o_orderstatus"));
            // the data CTAS wrote equals its tpch source
            assertThat(JdbcTesting.execute(session, "SELECT count(*), sum(o_totalprice), sum(o_custkey), max(o_clerk) FROM " + table))
                    .isEqualTo(JdbcTesting.execute(session, "SELECT count(*), sum(o_totalprice), sum(o_custkey), max(o_clerk) FROM tpch.tiny.orders"));
            assertThat(JdbcTesting.execute(session, "SELECT o.o_orderkey, c.c_name FROM " + table + " o JOIN tpch.tiny.customer c ON o.o_custkey = c.c_custkey"
                    + " WHERE o.o_orderkey < 100 ORDER BY o.o_orderkey"))
                    .isEqualTo(JdbcTesting.execute(session, "SELECT o.o_orderkey, c.c_name FROM tpch.tiny.orders o JOIN tpch.tiny.customer c ON o.o_custkey = c.c_custkey"
                            + " WHERE o.o_orderkey < 100 ORDER BY o.o_orderkey"));
        }
    }

    private static List<Long> wordsMatching(String pattern, String escape)
    {
        List<Object> values = escape == null ? List.of(pattern) : List.of(pattern, escape);
        return ids(read(words, new ScanSpec(List.of("id"), List.of(new ColumnPredicate("word", Operator.LIKE, values)))));
    }

    private static List<Long> ids(List<List<Object>> rows)
    {
        return rows.stream().map(row -> (Long) row.get(0)).sorted().toList();
    }

    private static ColumnPredicate predicate(String column, Operator operator, Object... values)
    {
        return new ColumnPredicate(column, operator, List.of(values));
    }

    private static JdbcBatchSource source(TableHandle table, ScanSpec scan)
    {
        List<Split> splits = connector.splits(table, scan, 1);
        assertThat(splits).hasSize(1);
        return (JdbcBatchSource) connector.createSource(splits.get(0), scan, allocator);
    }

    private static String sql(TableHandle table, ScanSpec scan)
    {
        try (JdbcBatchSource source = source(table, scan)) {
            return source.query().sql();
        }
    }

    private static List<List<Object>> read(TableHandle table, ScanSpec scan)
    {
        return JdbcTesting.read(connector, table, scan, 1, allocator);
    }

    private static void assertSameRows(List<List<Object>> actual, String postgresQuery)
    {
        assertThat(sorted(actual)).isEqualTo(sorted(postgres.query(postgresQuery)));
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
