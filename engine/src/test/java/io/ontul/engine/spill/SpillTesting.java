package io.ontul.engine.spill;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;

/**
 * The checks every spill test makes: a query run under a small memory budget answers as DuckDB
 * does on the same data, it wrote spill files (when it must spill), and none of them is left
 * once it ended. Does not own the engine or the DuckDB connection.
 */
public final class SpillTesting
{
    private final Engine engine;
    private final DuckDBConnection reference;

    public SpillTesting(Engine engine, DuckDBConnection reference)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.reference = requireNonNull(reference, "reference is null");
    }

    public Session session(String budget)
    {
        Session session = engine.createSession("test");
        session.properties().put("query_max_memory", budget);
        return session;
    }

    /** Bytes the engine's spill store has written so far. */
    public long spilledBytes()
    {
        return engine.exchange().spillStore().writtenBytes();
    }

    /** Runs {@code sql} under {@code budget}; asserts that it spilled and matches DuckDB. */
    public List<List<Object>> assertSpillsAndMatches(String sql, String budget)
            throws SQLException, IOException
    {
        long before = spilledBytes();
        List<List<Object>> actual = assertMatches(sql, budget);
        assertThat(spilledBytes()).as("bytes spilled").isGreaterThan(before);
        return actual;
    }

    /** Runs {@code sql} under {@code budget}; asserts that it matches DuckDB and left no spill file. */
    public List<List<Object>> assertMatches(String sql, String budget)
            throws SQLException, IOException
    {
        List<String> columnNames;
        List<List<Object>> expected;
        try (Statement statement = reference.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            columnNames = ResultRows.columnNames(resultSet.getMetaData());
            expected = ResultRows.drain(resultSet);
        }
        List<List<Object>> actual;
        try (QueryResult result = session(budget).execute(sql)) {
            actual = ResultRows.drain(result);
        }
        Optional<String> difference = ResultComparison.compare(sql, columnNames, expected, actual);
        if (difference.isPresent()) {
            fail("result differs from DuckDB: " + difference.get());
        }
        assertNoSpillFilesLeft();
        return actual;
    }

    public void assertNoSpillFilesLeft()
            throws IOException
    {
        assertThat(engine.exchange().spillStore().usedBytes()).isZero();
        try (Stream<Path> files = Files.walk(engine.exchange().spillStore().directory())) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }
}
