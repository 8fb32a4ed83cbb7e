package io.ontul.server.flight;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.server.OntulServer;

/**
 * Prepared statements bound to parameter batches of several rows: an update runs once per row
 * and reports the summed count, a query returns the results of each row one after the other.
 * Expected values come from an in-process engine.
 */
class TestFlightSqlParameterBatches
{
    private static final String PASSWORD = "test-password-batches";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static Engine engine;
    private static BufferAllocator allocator;
    private static FlightClient client;
    private static FlightSqlClient sql;
    private static CredentialCallOption bearer;

    @BeforeAll
    static void start()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        engine = Engine.createEmbedded();
        allocator = new RootAllocator();
        client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
        sql = new FlightSqlClient(client);
        bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
    }

    @AfterAll
    static void stop()
            throws Exception
    {
        if (sql != null) {
            sql.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    private static List<String> engineStrings(String query)
    {
        List<String> values = new ArrayList<>();
        try (QueryResult result = engine.createSession("test").execute(query)) {
            for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    values.add(batch.getVector(0).getObject(row).toString());
                }
            }
        }
        return values;
    }

    private static List<String> strings(FlightInfo info)
            throws Exception
    {
        List<String> values = new ArrayList<>();
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
            assertThat(stream.getSchema()).isEqualTo(info.getSchema());
            while (stream.next()) {
                for (int row = 0; row < stream.getRoot().getRowCount(); row++) {
                    values.add(stream.getRoot().getVector(0).getObject(row).toString());
                }
            }
        }
        return values;
    }

    @Test
    void queryWithSeveralParameterRowsConcatenatesTheResults()
            throws Exception
    {
        List<String> expected = new ArrayList<>();
        for (int region : new int[] {3, 1, 3}) {
            expected.addAll(engineStrings("SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = " + region + " ORDER BY n_name"));
        }
        int handles = server.openHandles();
        try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = ? ORDER BY n_name", bearer);
                VectorSchemaRoot parameters = VectorSchemaRoot.create(prepared.getParameterSchema(), allocator)) {
            BaseIntVector region = (BaseIntVector) parameters.getVector(0);
            parameters.allocateNew();
            region.setWithPossibleTruncate(0, 3);
            region.setWithPossibleTruncate(1, 1);
            region.setWithPossibleTruncate(2, 3);
            parameters.setRowCount(3);
            prepared.setParameters(parameters);
            assertThat(strings(prepared.execute(bearer))).isEqualTo(expected).hasSize(15);
            // and again: every execution runs all rows
            assertThat(strings(prepared.execute(bearer))).isEqualTo(expected);
            prepared.close(bearer);
        }
        assertThat(server.openHandles()).isEqualTo(handles);
    }

    @Test
    void updateWithSeveralParameterRowsSumsTheCounts()
            throws Exception
    {
        sql.executeUpdate("CREATE TABLE memory.default.batch_people (id BIGINT, name VARCHAR)", bearer);
        try (FlightSqlClient.PreparedStatement prepared = sql.prepare("INSERT INTO memory.default.batch_people VALUES (?, ?)", bearer);
                VectorSchemaRoot parameters = VectorSchemaRoot.create(prepared.getParameterSchema(), allocator)) {
            parameters.allocateNew();
            String[] names = {"ada", "grace", "edsger"};
            for (int row = 0; row < names.length; row++) {
                ((BaseIntVector) parameters.getVector(0)).setWithPossibleTruncate(row, row + 1);
                ((VarCharVector) parameters.getVector(1)).setSafe(row, names[row].getBytes(UTF_8));
            }
            parameters.setRowCount(names.length);
            prepared.setParameters(parameters);
            assertThat(prepared.executeUpdate(bearer)).isEqualTo(3);
            prepared.close(bearer);
        }
        assertThat(strings(sql.execute("SELECT name FROM memory.default.batch_people ORDER BY id", bearer))).containsExactly("ada", "grace", "edsger");
        sql.executeUpdate("DROP TABLE memory.default.batch_people", bearer);
    }

    @Test
    void jdbcExecuteBatch()
            throws Exception
    {
        try (Connection connection = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE memory.default.jdbc_batch (id BIGINT, name VARCHAR)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO memory.default.jdbc_batch VALUES (?, ?)")) {
                for (int id = 1; id <= 4; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "person-" + id);
                    insert.addBatch();
                }
                // Arrow's driver sends the batch as one multi-row binding and reports one total
                assertThat(insert.executeBatch()).containsExactly(4);
            }
            try (ResultSet result = statement.executeQuery("SELECT count(*), min(name), max(name) FROM memory.default.jdbc_batch")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getLong(1)).isEqualTo(4);
                assertThat(result.getString(2)).isEqualTo("person-1");
                assertThat(result.getString(3)).isEqualTo("person-4");
            }
            statement.executeUpdate("DROP TABLE memory.default.jdbc_batch");
        }
    }
}
