package io.ontul.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.ResultSet;
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
import io.ontul.engine.exchange.ExchangeManager;
import io.ontul.engine.spill.SpillTesting;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultRows;
import io.trino.tpch.TpchTable;

/**
 * array_agg and UNNEST over TPC-H scale 0.1 against DuckDB's list() and unnest over the same
 * rows: ordered arrays per group, arrays kept in a table and unnested again, and array_agg
 * spilled under a small budget and merged back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestArrays
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
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.ORDERS);
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
    void orderedArraysPerGroupEqualDuckDbs()
            throws SQLException
    {
        String ontul = "SELECT o_custkey, cardinality(a), array_join(a, ',') FROM (SELECT o_custkey, array_agg(o_orderkey ORDER BY o_totalprice DESC, o_orderkey) AS a "
                + "FROM tpch.sf0_1.orders GROUP BY o_custkey) ORDER BY o_custkey";
        String duck = "SELECT o_custkey, len(a), array_to_string(a, ',') FROM (SELECT o_custkey, list(o_orderkey ORDER BY o_totalprice DESC, o_orderkey) AS a "
                + "FROM tpch.sf0_1.orders GROUP BY o_custkey) ORDER BY o_custkey";
        List<List<Object>> rows = ontul(ontul);
        assertThat(rows).hasSizeGreaterThan(9_000);
        assertThat(rows.toString()).isEqualTo(duckDb(duck).toString());
    }

    @Test
    void arraysKeptInATableUnnestBackToTheirRows()
            throws SQLException
    {
        try (QueryResult result = engine.createSession("test").execute("CREATE TABLE memory.default.orders_by_day AS SELECT o_orderdate, "
                + "array_agg(o_orderkey) AS keys, array_agg(o_comment) AS comments, array_agg(o_totalprice) AS prices FROM tpch.sf0_1.orders GROUP BY o_orderdate")) {
            ResultRows.drain(result);
        }
        // every order comes back once, with its own comment and price (the arrays zip in order)
        String ontul = "SELECT count(*), count(DISTINCT k), sum(k), sum(p), sum(length(c)), min(position), max(position) "
                + "FROM memory.default.orders_by_day CROSS JOIN UNNEST(keys, comments, prices) WITH ORDINALITY AS u(k, c, p, position)";
        String duck = "SELECT count(*), count(DISTINCT o_orderkey), sum(o_orderkey), sum(o_totalprice), sum(length(o_comment)), 1, max(n) "
                + "FROM tpch.sf0_1.orders, (SELECT max(c) AS n FROM (SELECT count(*) AS c FROM tpch.sf0_1.orders GROUP BY o_orderdate))";
        assertThat(ontul(ontul).toString()).isEqualTo(duckDb(duck).toString());
        String pairs = "SELECT sum(CASE WHEN o.o_comment = u.c AND o.o_totalprice = u.p THEN 1 ELSE 0 END) FROM memory.default.orders_by_day "
                + "CROSS JOIN UNNEST(keys, comments, prices) AS u(k, c, p) JOIN tpch.sf0_1.orders o ON o.o_orderkey = u.k";
        assertThat(ontul(pairs)).containsExactly(List.of(150_000L));
    }

    @Test
    void arrayAggSpillsAndMergesBack()
            throws SQLException, IOException
    {
        String ontul = "SELECT o_orderpriority, sum(cardinality(a)), sum(array_sum), sum(comment_length) FROM (SELECT o_orderpriority, o_custkey, array_agg(o_orderkey) AS a, "
                + "sum(o_orderkey) AS array_sum, sum(length(o_comment)) AS comment_length FROM tpch.sf0_1.orders GROUP BY o_orderpriority, o_custkey) "
                + "GROUP BY o_orderpriority ORDER BY o_orderpriority";
        String unnested = "SELECT o_orderpriority, count(*), sum(k), sum(length(c)) FROM (SELECT o_orderpriority, o_custkey, o_orderstatus, array_agg(o_orderkey) AS a, "
                + "array_agg(o_comment) AS comments FROM tpch.sf0_1.orders GROUP BY o_orderpriority, o_custkey, o_orderstatus) CROSS JOIN UNNEST(a, comments) AS u(k, c) "
                + "GROUP BY o_orderpriority ORDER BY o_orderpriority";
        String duck = "SELECT o_orderpriority, count(*), sum(o_orderkey), sum(length(o_comment)) FROM tpch.sf0_1.orders GROUP BY o_orderpriority ORDER BY o_orderpriority";
        long before = spill.spilledBytes();
        List<List<Object>> spilled;
        try (QueryResult result = spill.session("6MB").execute(unnested)) {
            spilled = ResultRows.drain(result);
        }
        assertThat(spill.spilledBytes()).as("bytes spilled").isGreaterThan(before);
        spill.assertNoSpillFilesLeft();
        assertThat(spilled.toString()).isEqualTo(duckDb(duck).toString());
        assertThat(ontul(ontul).toString()).isEqualTo(duckDb(duck).toString());
    }

    @Test
    void oneArrayLargerThanTheBudgetFailsTheQueryNotTheServer()
    {
        // 150,000 comments of about 50 characters: some 13 MB of heap in one group, which cannot spill
        String sql = "SELECT cardinality(array_agg(o_comment)) FROM tpch.sf0_1.orders";
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> {
            try (QueryResult result = spill.session("8MB").execute(sql)) {
                ResultRows.drain(result);
            }
        })).hasMessageStartingWith("Query exceeded per-query memory limit of 8MB");
        assertThat(ontul(sql)).containsExactly(List.of(150_000L));
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
            return ResultRows.drain(result);
        }
    }
}
