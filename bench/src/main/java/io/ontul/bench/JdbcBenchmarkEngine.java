package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import io.ontul.engine.testing.ResultRows;

/**
 * An engine reached through a JDBC connection, read the way a client application reads a
 * result: {@link ResultSet#getObject(int)} on every column of every row, so that the cost of
 * turning the wire format into Java values counts on both sides of a comparison.
 */
public final class JdbcBenchmarkEngine
        implements BenchmarkEngine
{
    private final String name;
    private final Connection connection;
    private final AtomicReference<Statement> running = new AtomicReference<>();
    private volatile long nonNullValues;

    public JdbcBenchmarkEngine(String name, Connection connection)
    {
        this.name = requireNonNull(name, "name is null");
        this.connection = requireNonNull(connection, "connection is null");
    }

    @Override
    public String name()
    {
        return name;
    }

    /** Runs a statement that changes data or settings; returns the row count it reports. */
    public long update(String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            return statement.executeUpdate(sql);
        }
    }

    @Override
    public long countRows(String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            running.set(statement);
            try (ResultSet resultSet = statement.executeQuery(sql)) {
                int columns = resultSet.getMetaData().getColumnCount();
                long rows = 0;
                long values = 0;
                while (resultSet.next()) {
                    for (int column = 1; column <= columns; column++) {
                        if (resultSet.getObject(column) != null) {
                            values++;
                        }
                    }
                    rows++;
                }
                // published so that the values read are used
                nonNullValues = values;
                return rows;
            }
        }
        finally {
            running.set(null);
        }
    }

    /** How many non-NULL values the last {@link #countRows} read. */
    public long nonNullValues()
    {
        return nonNullValues;
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
                // the query ended meanwhile, or the driver cannot cancel: the timeout then interrupts
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
