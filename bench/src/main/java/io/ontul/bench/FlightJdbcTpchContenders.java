package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.duckdb.DuckDBConnection;

import io.ontul.server.OntulServer;

/**
 * Ontul behind its Flight SQL server (running in this JVM, reached over 127.0.0.1) through
 * the project's JDBC driver ({@code jdbc:ontul://}; with {@code -Dontul.bench.jdbc=arrow},
 * Arrow's Flight SQL JDBC driver), and DuckDB through its own in-process JDBC driver. Both
 * results are read with {@code getObject} on every value ({@link JdbcBenchmarkEngine}). Ontul's
 * tables are loaded with CREATE TABLE ... AS SELECT over the same JDBC connection.
 */
public final class FlightJdbcTpchContenders
        implements TpchContenders
{
    private final JdbcBenchmarkEngine ontul;
    private final JdbcBenchmarkEngine duckDb;
    private final List<String> facts;

    private FlightJdbcTpchContenders(JdbcBenchmarkEngine ontul, JdbcBenchmarkEngine duckDb, List<String> facts)
    {
        this.ontul = requireNonNull(ontul, "ontul is null");
        this.duckDb = requireNonNull(duckDb, "duckDb is null");
        this.facts = List.copyOf(requireNonNull(facts, "facts is null"));
    }

    /** Connects to the server as {@value OntulServer#ADMIN_USER} and wraps the DuckDB connection. */
    public static FlightJdbcTpchContenders open(OntulServer server, String password, DuckDBConnection duckDbConnection)
            throws SQLException
    {
        List<String> facts = new ArrayList<>();
        facts.add("Peer: " + new DuckDbBenchmarkEngine(duckDbConnection).describe() + ", through its in-process JDBC driver");
        boolean arrowDriver = "arrow".equals(System.getProperty("ontul.bench.jdbc"));
        String url = arrowDriver
                ? "jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=" + OntulServer.ADMIN_USER + "&password="
                : "jdbc:ontul://127.0.0.1:" + server.port() + "?user=" + OntulServer.ADMIN_USER + "&password=";
        long start = System.nanoTime();
        Connection connection = DriverManager.getConnection(url + password);
        long connectNanos = System.nanoTime() - start;
        JdbcBenchmarkEngine ontul = new JdbcBenchmarkEngine("Ontul", connection);
        try {
            // DuckDB runs without a memory cap in this JVM; give Ontul's queries room too
            ontul.update("SET SESSION query_max_memory = '8GB'");
            facts.add(String.format(Locale.ROOT,
                    "Ontul: OntulServer in this JVM, reached through %s %s (`%s...`, first connection %.1f s); session query_max_memory 8GB",
                    connection.getMetaData().getDriverName(), connection.getMetaData().getDriverVersion(), url, connectNanos / 1e9));
        }
        catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        facts.add("Both engines' results are read with ResultSet.getObject on every column of every row");
        return new FlightJdbcTpchContenders(ontul, new JdbcBenchmarkEngine("DuckDB", duckDbConnection), facts);
    }

    @Override
    public long load(String sql)
            throws SQLException
    {
        return ontul.update(sql);
    }

    @Override
    public BenchmarkEngine ontul()
    {
        return ontul;
    }

    @Override
    public BenchmarkEngine duckDb()
    {
        return duckDb;
    }

    @Override
    public List<String> facts()
    {
        return facts;
    }

    @Override
    public void close()
            throws SQLException
    {
        try (duckDb) {
            ontul.close();
        }
    }
}
