package io.ontul.engine.tpcds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.DuckDbTpcds;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;
import io.ontul.engine.testing.TpcdsQueries;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;

/**
 * The tpcds catalog and all 99 TPC-DS queries (103 texts, {@link TpcdsQueries}) against DuckDB
 * loaded, independently of the catalog, with the generator's rows of {@code tiny} and DuckDB's
 * own parsing of their text into typed columns ({@link DuckDbTpcds}): every table's row count
 * and column sums read through the catalog, the facts every TPC-DS implementation shares
 * (date_dim's first day), then every query row for row over copies of the tables in memory.
 * The specification's parameters are chosen for sf1, so at tiny some queries answer no rows;
 * bench/run-tpcds.sh compares them all at sf1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestTpcdsQueries
{
    /**
     * At tiny these divide a total of 0 by a total of 0 (q12: a class that sold for 0.00; q90: no
     * web sales in either hour): Ontul raises the error, as PostgreSQL and Trino do, where DuckDB
     * (dividing in DOUBLE) answers NaN. At sf1 the totals are not 0 and the bench compares them (bench/run-tpcds.sh).
     */
    private static final Set<String> DIVISION_BY_ZERO_AT_TINY = Set.of("q12", "q90");

    private DuckDBConnection duckDb;
    private Engine engine;
    private Session session;

    @BeforeAll
    void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openInMemory();
        DuckDbTpcds.loadAll(duckDb, 0.01);
        engine = Engine.createEmbedded();
        session = engine.createSession("test");
        // the generator makes about 60,000 sales rows a second: the queries read copies in memory
        for (Table table : DuckDbTpcds.tables()) {
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
    void everyTableHoldsTheGeneratorsRows()
            throws SQLException
    {
        assertThat(rows("SHOW TABLES FROM tpcds.tiny")).hasSize(24);
        for (Table definition : DuckDbTpcds.tables()) {
            String table = definition.getName();
            List<String> sums = new ArrayList<>(List.of("count(*)"));
            for (Column column : definition.getColumns()) {
                switch (column.getType().getBase()) {
                    case IDENTIFIER, INTEGER, DECIMAL -> sums.add("sum(" + column.getName() + ")");
                    case DATE -> sums.add("max(" + column.getName() + ")");
                    default -> sums.add("count(" + column.getName() + ")");
                }
            }
            String sql = "SELECT " + String.join(", ", sums) + " FROM ";
            compare(table, sql + table, sql + "tpcds.tiny." + table);
        }
        // TPC-DS's first day: surrogate key 2415022 is 1900-01-02, a Monday
        assertThat(rows("SELECT CAST(d_date AS VARCHAR), d_day_name FROM tpcds.tiny.date_dim WHERE d_date_sk = 2415022")).containsExactly(List.of("1900-01-02", "Monday"));
        // the specification's keys, and the NOT NULL they imply
        assertThat(rows("SELECT column_name FROM tpcds.information_schema.key_column_usage WHERE table_schema = 'tiny' AND table_name = 'store_sales' ORDER BY ordinal_position"))
                .containsExactly(List.of("ss_item_sk"), List.of("ss_ticket_number"));
    }

    static Stream<String> queryNames()
    {
        return TpcdsQueries.names().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queryNames")
    void matchesDuckDb(String name)
            throws SQLException
    {
        String sql = TpcdsQueries.load(name);
        if (DIVISION_BY_ZERO_AT_TINY.contains(name)) {
            // 0 / 0 in DOUBLE (DuckDB divides DECIMALs so): NaN
            assertThat(duckDbRows(TpcdsQueries.forDuckDb(name, sql).replaceFirst("LIMIT 100$", ""))).as("%s: DuckDB's quotient of 0 by 0", name)
                    .anyMatch(row -> row.stream().anyMatch(value -> value instanceof Double number && number.isNaN()));
            assertThatThrownBy(() -> rows(sql)).as(name).hasMessageContaining("Division by zero");
            return;
        }
        compare(name, TpcdsQueries.forDuckDb(name, sql), sql);
    }

    /**
     * NOT EXISTS twice under one WHERE (as q69 has it): both become anti joins, and a subquery the
     * anti-join rewrite does not take (grouped, correlated in HAVING) still goes to Calcite's
     * decorrelator under an anti join without losing its columns.
     */
    @ParameterizedTest(name = "{index}")
    @ValueSource(strings = {
            "SELECT count(*), sum(c_birth_year) FROM customer c WHERE NOT EXISTS (SELECT * FROM web_sales WHERE ws_bill_customer_sk = c.c_customer_sk) "
                    + "AND (NOT EXISTS (SELECT * FROM catalog_sales, date_dim WHERE cs_ship_customer_sk = c.c_customer_sk AND cs_sold_date_sk = d_date_sk AND d_year = 2001))",
            "SELECT count(*), sum(c_birth_year) FROM customer c WHERE NOT EXISTS (SELECT * FROM web_sales WHERE ws_bill_customer_sk = c.c_customer_sk) "
                    + "AND NOT EXISTS (SELECT * FROM store_sales WHERE ss_customer_sk = c.c_customer_sk "
                    + "AND ss_quantity > (SELECT avg(cs_quantity) FROM catalog_sales WHERE cs_bill_customer_sk = c.c_customer_sk))",
            "SELECT count(*), sum(c_birth_year) FROM customer c WHERE NOT EXISTS (SELECT * FROM store_sales WHERE ss_customer_sk = c.c_customer_sk "
                    + "AND ss_quantity > (SELECT avg(cs_quantity) FROM catalog_sales WHERE cs_bill_customer_sk = c.c_customer_sk)) "
                    + "AND NOT EXISTS (SELECT * FROM web_sales WHERE ws_bill_customer_sk = c.c_customer_sk AND ws_quantity > 50) AND c_birth_year > 1950",
            "SELECT count(*) FROM customer c WHERE EXISTS (SELECT * FROM store_sales WHERE ss_customer_sk = c.c_customer_sk) "
                    + "AND NOT EXISTS (SELECT * FROM web_sales WHERE ws_bill_customer_sk = c.c_customer_sk) OR c_birth_year = 1960"})
    void stackedExistsMatchDuckDb(String sql)
            throws SQLException
    {
        compare(sql, sql, sql);
    }

    /** Compares {@code ontulSql}'s rows with {@code duckDbSql}'s. */
    private void compare(String name, String duckDbSql, String sql)
            throws SQLException
    {
        List<String> columnNames;
        List<List<Object>> expected;
        try (PreparedStatement statement = duckDb.prepareStatement(duckDbSql); ResultSet resultSet = statement.executeQuery()) {
            columnNames = ResultRows.columnNames(resultSet.getMetaData());
            expected = ResultRows.drain(resultSet);
        }
        List<List<Object>> actual = rows(sql);
        Optional<String> difference = ResultComparison.compare(sql, columnNames, expected, actual);
        if (difference.isPresent()) {
            fail(name + ": result differs from DuckDB: " + difference.get());
        }
    }

    private List<List<Object>> duckDbRows(String sql)
            throws SQLException
    {
        try (PreparedStatement statement = duckDb.prepareStatement(sql); ResultSet resultSet = statement.executeQuery()) {
            return ResultRows.drain(resultSet);
        }
    }

    private List<List<Object>> rows(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }
}
