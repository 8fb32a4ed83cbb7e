package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.testing.ResultRows;

/** DuckDB in-process over JDBC, with its default settings (threads: one per core). */
public final class DuckDbBenchmarkEngine
        implements BenchmarkEngine
{
    private final DuckDBConnection connection;
    private final AtomicReference<Statement> running = new AtomicReference<>();

    public DuckDbBenchmarkEngine(DuckDBConnection connection)
    {
        this.connection = requireNonNull(connection, "connection is null");
    }

    @Override
    public String name()
    {
        return "DuckDB";
    }

    /** DuckDB's version and thread count, for the report. */
    public String describe()
            throws SQLException
    {
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT version(), current_setting('threads')")) {
            resultSet.next();
            return "DuckDB " + resultSet.getString(1) + " (threads " + resultSet.getString(2) + ")";
        }
    }

    @Override
    public long countRows(String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            running.set(statement);
            try (ResultSet resultSet = statement.executeQuery(sql)) {
                long rows = 0;
                while (resultSet.next()) {
                    rows++;
                }
                return rows;
            }
        }
        finally {
            running.set(null);
        }
    }

    @Override
    public QueryRows rows(String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            return new QueryRows(ResultRows.columnNames(resultSet.getMetaData()), ResultRows.drain(resultSet));
        }
    }

    @Override
    public void cancel()
    {
        Statement statement = running.get();
        if (statement != null) {
            try {
                statement.cancel();
            }
            catch (SQLException ignored) {
                // the query ended meanwhile
            }
        }
    }

    @Override
    public void close()
            throws SQLException
    {
        connection.close();
    }
}
