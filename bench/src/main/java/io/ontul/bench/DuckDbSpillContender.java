package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

import org.duckdb.DuckDBConnection;

/**
 * DuckDB in-process over JDBC on a database file, so that its tables live in the file and its
 * {@code memory_limit} bounds the query's working memory and the buffer cache, not the data
 * itself (Ontul's memory tables are outside the query budget too). Without a limit it keeps
 * DuckDB's default (80% of RAM); spills go to the {@code temp_directory} set at open.
 */
public final class DuckDbSpillContender
        implements SpillContender
{
    private final String name;
    private final DuckDBConnection connection;
    private final AtomicReference<Statement> running = new AtomicReference<>();

    public DuckDbSpillContender(String name, DuckDBConnection connection)
    {
        this.name = requireNonNull(name, "name is null");
        this.connection = requireNonNull(connection, "connection is null");
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void limitMemory(OptionalLong bytes)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            if (bytes.isPresent()) {
                // DuckDB's KiB is 1024 bytes, as Ontul's kB
                statement.execute("SET memory_limit = '" + Math.max(1, bytes.getAsLong() / 1024) + "KiB'");
            }
            else {
                statement.execute("RESET memory_limit");
            }
        }
    }

    @Override
    public SpillRunResult run(String sql)
            throws SQLException
    {
        long start = System.nanoTime();
        long rows = 0;
        try (Statement statement = connection.createStatement()) {
            running.set(statement);
            try (ResultSet resultSet = statement.executeQuery(sql)) {
                while (resultSet.next()) {
                    rows++;
                }
            }
        }
        finally {
            running.set(null);
        }
        return new SpillRunResult(System.nanoTime() - start, rows, -1, -1);
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
}
