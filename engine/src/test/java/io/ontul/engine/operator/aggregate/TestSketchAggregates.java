package io.ontul.engine.operator.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
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
import io.ontul.engine.exchange.ExchangeManager;
import io.ontul.engine.spill.SpillTesting;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultRows;
import io.trino.tpch.TpchTable;

/**
 * approx_distinct (HLL) and approx_percentile (KLL) over TPC-H scale 0.1 against exact answers
 * DuckDB computes over the same rows: the distinct counts within 5% (the sketch's standard error
 * is 2.3%; its hash is fixed, so the estimate is too), the percentiles within 3% of rank (KLL's
 * error at k = 200 is about 1.3%), and with the sketches spilled and merged back under a small
 * budget.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestSketchAggregates
{
    @TempDir
    static Path dataDirectory;

    private DuckDBConnection duckDb;
    private Engine engine;
    private SpillTesting spill;

    @BeforeAll
    void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.LINE_ITEM);
        engine = Engine.create(EngineConfig.embeddedDefaults().withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.toString()));
        spill = new SpillTesting(engine, duckDb);
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
    void distinctCountsAreWithinTheSketchError()
            throws SQLException
    {
        String approximate = "SELECT l_returnflag, approx_distinct(l_orderkey), approx_distinct(l_partkey), approx_distinct(l_comment), approx_distinct(l_extendedprice) "
                + "FROM tpch.sf0_1.lineitem GROUP BY l_returnflag ORDER BY l_returnflag";
        String exact = "SELECT l_returnflag, count(DISTINCT l_orderkey), count(DISTINCT l_partkey), count(DISTINCT l_comment), count(DISTINCT l_extendedprice) "
                + "FROM tpch.sf0_1.lineitem GROUP BY l_returnflag ORDER BY l_returnflag";
        List<List<Object>> estimates = ontul(approximate);
        List<List<Object>> counts = duckDb(exact);
        assertThat(estimates).hasSameSizeAs(counts).hasSize(3);
        for (int row = 0; row < counts.size(); row++) {
            assertThat(estimates.get(row).get(0)).isEqualTo(counts.get(row).get(0));
            for (int column = 1; column < 5; column++) {
                double expected = ((Number) counts.get(row).get(column)).doubleValue();
                assertThat(((Number) estimates.get(row).get(column)).doubleValue())
                        .as("%s, column %d", counts.get(row).get(0), column)
                        .isCloseTo(expected, within(expected * 0.05));
            }
        }
    }

    @Test
    void percentilesAreWithinTheSketchRankError()
            throws SQLException
    {
        for (double percentage : new double[] {0.01, 0.25, 0.5, 0.9, 0.99}) {
            List<List<Object>> estimates = ontul("SELECT l_returnflag, approx_percentile(l_extendedprice, " + percentage + "), approx_percentile(l_quantity, " + percentage + ") "
                    + "FROM tpch.sf0_1.lineitem GROUP BY l_returnflag ORDER BY l_returnflag");
            assertThat(estimates).hasSize(3);
            for (List<Object> row : estimates) {
                // the share of the group's rows at or below the estimate, exactly, by DuckDB
                List<List<Object>> ranks = duckDb("SELECT avg(CASE WHEN l_extendedprice <= " + row.get(1) + " THEN 1 ELSE 0 END), "
                        + "avg(CASE WHEN l_quantity < " + row.get(2) + " THEN 1 ELSE 0 END), avg(CASE WHEN l_quantity <= " + row.get(2) + " THEN 1 ELSE 0 END) "
                        + "FROM tpch.sf0_1.lineitem WHERE l_returnflag = '" + row.get(0) + "'");
                assertThat(((Number) ranks.get(0).get(0)).doubleValue()).as("rank of %s's %s percentile of l_extendedprice", row.get(0), percentage).isCloseTo(percentage, within(0.03));
                // l_quantity holds 50 values, each about 2% of the rows: the percentage falls in the estimate's span
                assertThat(((Number) ranks.get(0).get(1)).doubleValue()).isLessThanOrEqualTo(percentage + 0.03);
                assertThat(((Number) ranks.get(0).get(2)).doubleValue()).isGreaterThanOrEqualTo(percentage - 0.03);
            }
        }
    }

    @Test
    void sketchesSpillAndMergeBack()
            throws SQLException, IOException
    {
        String approximate = "SELECT l_suppkey % 7 AS g, sum(d), sum(p) FROM (SELECT l_suppkey, approx_distinct(l_partkey) AS d, approx_percentile(l_linenumber, 1) AS p "
                + "FROM tpch.sf0_1.lineitem GROUP BY l_suppkey, l_orderkey) GROUP BY l_suppkey % 7 ORDER BY g";
        String exact = "SELECT l_suppkey % 7 AS g, sum(d), sum(p) FROM (SELECT l_suppkey, count(DISTINCT l_partkey) AS d, max(l_linenumber) AS p "
                + "FROM tpch.sf0_1.lineitem GROUP BY l_suppkey, l_orderkey) GROUP BY l_suppkey % 7 ORDER BY g";
        long before = spill.spilledBytes();
        List<List<Object>> estimates;
        try (QueryResult result = spill.session("24MB").execute(approximate)) {
            estimates = ResultRows.drain(result);
        }
        assertThat(spill.spilledBytes()).as("bytes spilled").isGreaterThan(before);
        spill.assertNoSpillFilesLeft();
        // groups of a few rows: the sketches hold every value, so the sums are exact
        assertThat(estimates.toString()).isEqualTo(duckDb(exact).toString());
    }

    private List<List<Object>> ontul(String sql)
    {
        try (QueryResult result = engine.createSession("test").execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private List<List<Object>> duckDb(String sql)
            throws SQLException
    {
        try (Statement statement = duckDb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            List<List<Object>> rows = new ArrayList<>();
            rows.addAll(ResultRows.drain(result));
            return rows;
        }
    }
}
