package io.ontul.server.flight;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.server.OntulServer;

/**
 * Prepared statements with parameters, cancellation and concurrent connections, through Arrow's
 * Flight SQL JDBC driver. Expected values come from an in-process engine.
 */
class TestFlightSqlStatements
{
    private static final String PASSWORD = "test-password-2";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static Engine engine;

    @BeforeAll
    static void start()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        engine = Engine.createEmbedded();
    }

    @AfterAll
    static void stop()
    {
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    private static Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD);
    }

    /** The single BIGINT value of a query, run in process. */
    private static long engineCount(String sql)
    {
        Session session = engine.createSession("test");
        try (QueryResult result = session.execute(sql)) {
            VectorSchemaRoot batch = result.nextBatch();
            while (batch != null && batch.getRowCount() == 0) {
                batch = result.nextBatch();
            }
            return ((BigIntVector) batch.getVector(0)).get(0);
        }
    }

    private static List<String> strings(ResultSet result)
            throws SQLException
    {
        List<String> values = new ArrayList<>();
        try (result) {
            while (result.next()) {
                values.add(result.getString(1));
            }
        }
        return values;
    }

    private static long single(ResultSet result)
            throws SQLException
    {
        try (result) {
            assertThat(result.next()).isTrue();
            long value = result.getLong(1);
            assertThat(result.next()).isFalse();
            return value;
        }
    }

    @Test
    void preparedStatementReexecutesWithNewValues()
            throws SQLException
    {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement("SELECT n_name FROM tpch.tiny.nation WHERE n_nationkey = ?")) {
            assertThat(statement.getParameterMetaData().getParameterCount()).isEqualTo(1);
            statement.setLong(1, 2);
            assertThat(strings(statement.executeQuery())).containsExactly("BRAZIL");
            statement.setLong(1, 3);
            assertThat(strings(statement.executeQuery())).containsExactly("CANADA");
            statement.setNull(1, Types.BIGINT);
            assertThat(strings(statement.executeQuery())).isEmpty();
        }
    }

    @Test
    void preparedStatementBindsVarcharDecimalAndDate()
            throws SQLException
    {
        String sql = "SELECT count(*) FROM tpch.tiny.orders WHERE o_orderpriority = ? AND o_totalprice > ? AND o_orderdate < ?";
        long expected = engineCount("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderpriority = '1-URGENT' AND o_totalprice > 100000.00 AND o_orderdate < DATE '1995-01-01'");
        assertThat(expected).isGreaterThan(0);
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(sql);
                Statement plain = connection.createStatement()) {
            assertThat(statement.getParameterMetaData().getParameterCount()).isEqualTo(3);
            statement.setString(1, "1-URGENT");
            statement.setBigDecimal(2, new BigDecimal("100000.00"));
            statement.setDate(3, Date.valueOf("1995-01-01"));
            assertThat(single(statement.executeQuery())).isEqualTo(expected);
            assertThat(single(plain.executeQuery("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderpriority = '1-URGENT' AND o_totalprice > 100000.00 AND o_orderdate < DATE '1995-01-01'")))
                    .isEqualTo(expected);
        }
    }

    @Test
    void preparedStatementCountsParameters()
            throws SQLException
    {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement("SELECT count(*) FROM tpch.tiny.nation WHERE n_nationkey > ? AND n_regionkey = ?")) {
            assertThat(statement.getParameterMetaData().getParameterCount()).isEqualTo(2);
            statement.setLong(1, 5);
            statement.setLong(2, 1);
            assertThat(single(statement.executeQuery())).isEqualTo(engineCount("SELECT count(*) FROM tpch.tiny.nation WHERE n_nationkey > 5 AND n_regionkey = 1"));
        }
    }

    @Test
    void preparedInsertWithParameters()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE memory.default.prepared_people (id BIGINT, name VARCHAR)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO memory.default.prepared_people VALUES (?, ?)")) {
                insert.setLong(1, 1);
                insert.setString(2, "ada");
                assertThat(insert.executeUpdate()).isEqualTo(1);
                insert.setLong(1, 2);
                insert.setString(2, "grace");
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            assertThat(strings(statement.executeQuery("SELECT name FROM memory.default.prepared_people ORDER BY id"))).containsExactly("ada", "grace");
            statement.executeUpdate("DROP TABLE memory.default.prepared_people");
        }
    }

    @Test
    void cancelStopsARunningQueryAndTheConnectionStaysUsable()
            throws Exception
    {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            Future<Long> running = executor.submit(() -> single(statement.executeQuery("SELECT count(*) FROM tpch.sf1.lineitem")));
            Thread.sleep(500);
            // cancel again until it lands: the first may come before the driver opened its stream
            while (!running.isDone()) {
                statement.cancel();
                try {
                    running.get(200, TimeUnit.MILLISECONDS);
                }
                catch (java.util.concurrent.TimeoutException e) {
                    // still running
                }
                catch (ExecutionException e) {
                    break;
                }
            }
            assertThat(running).failsWithin(java.time.Duration.ZERO)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(SQLException.class);
            try (Statement next = connection.createStatement()) {
                assertThat(single(next.executeQuery("SELECT 1"))).isEqualTo(1);
            }
        }
        finally {
            executor.shutdownNow();
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(single(statement.executeQuery("SELECT 1"))).isEqualTo(1);
        }
    }

    @Test
    void concurrentConnectionsGetTheirOwnResults()
            throws Exception
    {
        int connections = 16;
        List<String> queries = new ArrayList<>();
        for (int client = 0; client < connections; client++) {
            queries.add("SELECT count(*) FROM tpch.tiny.nation WHERE n_regionkey = " + (client % 5));
            queries.add("SELECT count(*) FROM tpch.tiny.customer c JOIN tpch.tiny.nation n ON c.c_nationkey = n.n_nationkey WHERE n.n_regionkey = " + (client % 5) + " AND c.c_acctbal > " + (client * 500));
            queries.add("SELECT count(*) FROM tpch.tiny.orders WHERE o_custkey % 16 = " + client);
        }
        List<Long> expected = new ArrayList<>();
        for (String query : queries) {
            expected.add(engineCount(query));
        }
        ExecutorService executor = Executors.newFixedThreadPool(connections);
        try {
            List<CompletableFuture<List<Long>>> results = new ArrayList<>();
            for (int client = 0; client < connections; client++) {
                List<String> mine = queries.subList(client * 3, client * 3 + 3);
                results.add(CompletableFuture.supplyAsync(() -> run(mine), executor));
            }
            List<Long> actual = new ArrayList<>();
            for (CompletableFuture<List<Long>> result : results) {
                actual.addAll(result.get(5, TimeUnit.MINUTES));
            }
            assertThat(actual).isEqualTo(expected);
        }
        finally {
            executor.shutdownNow();
        }
    }

    private static List<Long> run(List<String> queries)
    {
        List<Long> counts = new ArrayList<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String query : queries) {
                counts.add(single(statement.executeQuery(query)));
            }
        }
        catch (SQLException e) {
            throw new RuntimeException(e);
        }
        return counts;
    }
}
