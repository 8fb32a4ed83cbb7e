package io.ontul.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
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
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;
import io.trino.tpch.TpchTable;

/**
 * A grouped aggregation over a parallel input runs its final step in parallel: a local hash
 * exchange gives each final instance its share of the keys. A partial step whose input has about
 * as many keys as rows stops hashing and passes rows on. Three instances (not a power of two),
 * results equal to DuckDB's on TPC-H lineitem at scale 0.1 (600,572 rows).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestParallelAggregation
{
    private static final long LINEITEM_ROWS = 600_572;
    private static final Pattern ROWS = Pattern.compile("rows=(\\d+)");

    @TempDir
    static Path dataDirectory;

    private DuckDBConnection duckDb;
    private Engine engine;

    @BeforeAll
    public void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.LINE_ITEM);
        engine = Engine.create(EngineConfig.embeddedDefaults()
                .withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.toString())
                .withProperty(EngineConfig.TASK_CONCURRENCY, "3"));
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
    public void uniqueKeysPassThroughThePartialStep()
            throws SQLException
    {
        String sql = "SELECT l_orderkey, l_linenumber, count(*), sum(l_quantity), avg(l_discount), min(l_comment), max(l_shipdate), "
                + "count(*) FILTER (WHERE l_returnflag = 'R'), sum(l_tax) FILTER (WHERE l_linestatus = 'F') "
                + "FROM tpch.sf0_1.lineitem GROUP BY l_orderkey, l_linenumber";
        assertThat(assertMatchesDuckDb(sql)).hasSize((int) LINEITEM_ROWS);
        String plan = explainAnalyze(sql);
        assertThat(plan).contains("LocalExchange (hash [k0, k1])");
        // every input row left the partial step as a group of one, and reached a final instance
        assertThat(rows(plan, "HashAggregate (partial)")).isEqualTo(LINEITEM_ROWS);
        assertThat(rows(plan, "LocalExchange")).isEqualTo(LINEITEM_ROWS);
        assertThat(rows(plan, "HashAggregate (final)")).isEqualTo(LINEITEM_ROWS);
    }

    @Test
    public void fewKeysAreReducedByThePartialStep()
            throws SQLException
    {
        String sql = "SELECT l_suppkey, count(*), sum(l_extendedprice), avg(l_quantity), min(l_shipmode), max(l_comment) FROM tpch.sf0_1.lineitem GROUP BY l_suppkey";
        assertThat(assertMatchesDuckDb(sql)).hasSize(1000);
        String plan = explainAnalyze(sql);
        assertThat(rows(plan, "HashAggregate (partial)")).isLessThan(LINEITEM_ROWS / 10);
        assertThat(rows(plan, "HashAggregate (final)")).isEqualTo(1000);
    }

    @Test
    public void nullAndTextKeysMeetInOneInstance()
            throws SQLException
    {
        // a third of the rows have a NULL key; the text key spreads by its bytes
        assertThat(assertMatchesDuckDb("SELECT CASE WHEN l_linenumber > 4 THEN NULL ELSE l_orderkey END AS k, l_shipmode, count(*), sum(l_quantity) "
                + "FROM tpch.sf0_1.lineitem GROUP BY 1, 2")).hasSizeGreaterThan(100_000);
    }

    @Test
    public void groupedAggregationUnderOrderByAndLimit()
            throws SQLException
    {
        assertThat(assertMatchesDuckDb("SELECT l_partkey, sum(l_quantity) AS q FROM tpch.sf0_1.lineitem GROUP BY l_partkey ORDER BY q DESC, l_partkey LIMIT 10")).hasSize(10);
        assertThat(assertMatchesDuckDb("SELECT count(*), sum(c) FROM (SELECT l_orderkey, count(*) AS c FROM tpch.sf0_1.lineitem GROUP BY l_orderkey)")).hasSize(1);
    }

    @Test
    public void manyInstancesSpillWithinOneBudget()
            throws SQLException
    {
        // eight final instances share the budget: each spills at its share, not at an eighth of all
        Engine wide = Engine.create(EngineConfig.embeddedDefaults()
                .withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.resolve("wide").toString())
                .withProperty(EngineConfig.TASK_CONCURRENCY, "8"));
        try {
            Session session = wide.createSession("test");
            session.properties().put("query_max_memory", "48MB");
            String sql = "SELECT l_orderkey, l_linenumber, count(*), sum(l_quantity), max(l_comment) FROM tpch.sf0_1.lineitem GROUP BY l_orderkey, l_linenumber";
            long before = wide.exchange().spillStore().writtenBytes();
            List<List<Object>> actual;
            try (QueryResult result = session.execute(sql)) {
                actual = ResultRows.drain(result);
            }
            assertThat(wide.exchange().spillStore().writtenBytes()).as("bytes spilled").isGreaterThan(before);
            assertThat(actual).hasSize((int) LINEITEM_ROWS);
            // the same rows as the three-instance engine, which matches DuckDB
            assertThat(sorted(actual)).isEqualTo(sorted(assertMatchesDuckDb(sql)));
        }
        finally {
            wide.close();
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
        try (QueryResult result = engine.createSession("test").execute(sql)) {
            actual = ResultRows.drain(result);
        }
        Optional<String> difference = ResultComparison.compare(sql, columnNames, expected, actual);
        if (difference.isPresent()) {
            fail("result differs from DuckDB: " + difference.get());
        }
        return actual;
    }

    private String explainAnalyze(String sql)
    {
        StringBuilder plan = new StringBuilder();
        try (QueryResult result = engine.createSession("test").execute("EXPLAIN ANALYZE " + sql)) {
            for (List<Object> row : ResultRows.drain(result)) {
                plan.append(row.get(0)).append('\n');
            }
        }
        return plan.toString();
    }

    private static List<String> sorted(List<List<Object>> rows)
    {
        return rows.stream().map(Object::toString).sorted().toList();
    }

    private static long rows(String plan, String node)
    {
        String line = plan.lines().filter(each -> each.contains(node)).findFirst().orElseThrow(() -> new AssertionError(node + " not in plan:\n" + plan));
        Matcher matcher = ROWS.matcher(line);
        if (!matcher.find()) {
            throw new AssertionError("no rows= in " + line);
        }
        return Long.parseLong(matcher.group(1));
    }
}
