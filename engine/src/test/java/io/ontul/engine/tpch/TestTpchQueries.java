package io.ontul.engine.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;
import io.ontul.engine.testing.TpchQueries;

/**
 * Runs the 22 TPC-H queries on {@code tpch.tiny} and checks every result against DuckDB loaded
 * with the same generated data: same column count, same rows (see {@link ResultComparison}).
 * Every query returns rows at this scale (q17 a single NULL), so an empty reference means the
 * reference load is broken.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestTpchQueries
{
    private static final Map<String, String> QUERIES = TpchQueries.load();

    private DuckDBConnection duckDb;
    private Engine engine;
    private Session session;

    @BeforeAll
    public void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openInMemory();
        DuckDbTpch.load(duckDb, "tpch", "tiny", 0.01);
        engine = Engine.createEmbedded();
        session = engine.createSession("test");
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

    public static Stream<String> queryNames()
    {
        return QUERIES.keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queryNames")
    public void matchesDuckDb(String name)
            throws SQLException
    {
        String sql = QUERIES.get(name);

        List<String> columnNames;
        List<List<Object>> expected;
        try (Statement statement = duckDb.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            columnNames = ResultRows.columnNames(resultSet.getMetaData());
            expected = ResultRows.drain(resultSet);
        }
        assertThat(expected).as("%s: DuckDB reference rows", name).isNotEmpty();

        int actualColumns;
        List<List<Object>> actual;
        try (QueryResult result = session.execute(sql)) {
            actualColumns = result.schema().getFields().size();
            actual = ResultRows.drain(result);
        }
        assertThat(actualColumns).as("%s: column count", name).isEqualTo(columnNames.size());

        Optional<String> difference = ResultComparison.compare(sql, columnNames, expected, actual);
        if (difference.isPresent()) {
            fail(name + ": result differs from DuckDB: " + difference.get());
        }
    }
}
