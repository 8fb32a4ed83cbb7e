package io.ontul.server.flight;

import static org.apache.arrow.flight.SessionOptionValueFactory.makeEmptySessionOptionValue;
import static org.apache.arrow.flight.SessionOptionValueFactory.makeSessionOptionValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpSessionOptionValueVisitor;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.SetSessionOptionsResult.ErrorValue;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * Flight's session options on the connection's engine session: the state USE and SET SESSION
 * change, through FlightClient and Arrow's JDBC driver (whose {@code catalog} URL property is a
 * session option).
 */
class TestFlightSqlSessionOptions
{
    private static final String PASSWORD = "test-password-session";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static BufferAllocator allocator;

    @BeforeAll
    static void start()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        allocator = new RootAllocator();
    }

    @AfterAll
    static void stop()
    {
        if (allocator != null) {
            allocator.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** One client connection: its own bearer token, hence its own session. */
    private record Client(FlightClient flight, FlightSqlClient sql, CredentialCallOption bearer)
            implements AutoCloseable
    {
        static Client connect()
        {
            FlightClient flight = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
            return new Client(flight, new FlightSqlClient(flight), flight.authenticateBasicToken("admin", PASSWORD).orElseThrow());
        }

        SetSessionOptionsResult set(Map<String, SessionOptionValue> options)
        {
            return flight.setSessionOptions(new SetSessionOptionsRequest(options), bearer);
        }

        Map<String, String> options()
        {
            Map<String, String> options = new HashMap<>();
            flight.getSessionOptions(new GetSessionOptionsRequest(), bearer).getSessionOptions()
                    .forEach((name, value) -> options.put(name, value.acceptVisitor(new NoOpSessionOptionValueVisitor<>()
                    {
                        @Override
                        public String visit(String text)
                        {
                            return text;
                        }
                    })));
            return options;
        }

        long count(String query)
                throws Exception
        {
            FlightInfo info = sql.execute(query, bearer);
            try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
                assertThat(stream.next()).isTrue();
                return ((BigIntVector) stream.getRoot().getVector(0)).get(0);
            }
        }

        /** The first column of the first row, as text. */
        String text(String query)
                throws Exception
        {
            FlightInfo info = sql.execute(query, bearer);
            try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
                assertThat(stream.next()).isTrue();
                return stream.getRoot().getVector(0).getObject(0).toString();
            }
        }

        long rows(String query)
                throws Exception
        {
            FlightInfo info = sql.execute(query, bearer);
            long rows = 0;
            try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
                while (stream.next()) {
                    rows += stream.getRoot().getRowCount();
                }
            }
            return rows;
        }

        @Override
        public void close()
                throws Exception
        {
            sql.close();
        }
    }

    @Test
    void catalogAndSchemaOptionsQualifyNames()
            throws Exception
    {
        try (Client client = Client.connect()) {
            assertThat(client.options()).isEmpty();
            SetSessionOptionsResult result = client.set(Map.of("catalog", makeSessionOptionValue("tpch"), "schema", makeSessionOptionValue("tiny")));
            assertThat(result.hasErrors()).isFalse();
            assertThat(client.options()).containsExactlyInAnyOrderEntriesOf(Map.of("catalog", "tpch", "schema", "tiny"));
            assertThat(client.count("SELECT count(*) FROM nation")).isEqualTo(25);

            // USE changes the same session
            client.sql().executeUpdate("USE tpch.sf1", client.bearer());
            assertThat(client.options()).containsEntry("schema", "sf1");
            assertThat(client.count("SELECT count(*) FROM region")).isEqualTo(5);

            // a valueless option unsets it
            assertThat(client.set(Map.of("schema", makeEmptySessionOptionValue())).hasErrors()).isFalse();
            assertThat(client.options()).containsExactlyInAnyOrderEntriesOf(Map.of("catalog", "tpch"));
            assertThat(client.count("SELECT count(*) FROM tiny.region")).isEqualTo(5);
        }
    }

    @Test
    void sessionPropertiesAreOptionsAndValidated()
            throws Exception
    {
        try (Client client = Client.connect()) {
            SetSessionOptionsResult result = client.set(Map.of(
                    "query_max_memory", makeSessionOptionValue("1MB"),
                    "no_such_option", makeSessionOptionValue("1"),
                    "catalog", makeSessionOptionValue("no_such_catalog")));
            assertThat(result.getErrors()).containsOnlyKeys("no_such_option", "catalog");
            assertThat(result.getErrors().get("no_such_option").value).isEqualTo(ErrorValue.INVALID_NAME);
            assertThat(result.getErrors().get("catalog").value).isEqualTo(ErrorValue.INVALID_VALUE);
            assertThat(client.options()).containsExactlyInAnyOrderEntriesOf(Map.of("query_max_memory", "1MB"));

            // SET SESSION and the option are the same property: the budget applies to queries
            // (a window over all rows cannot spill: 60175 rows do not fit in 1 MB)
            assertThatThrownBy(() -> client.rows("SELECT l_orderkey, NTILE(4) OVER (ORDER BY l_comment) FROM tpch.tiny.lineitem"))
                    .isInstanceOf(FlightRuntimeException.class)
                    .hasMessageContaining("memory");

            SetSessionOptionsResult bad = client.set(Map.of(
                    "query_max_memory", makeSessionOptionValue("lots"),
                    "schema", makeSessionOptionValue(new String[] {"a", "b"})));
            assertThat(bad.getErrors().get("query_max_memory").value).isEqualTo(ErrorValue.INVALID_VALUE);
            assertThat(bad.getErrors().get("schema").value).isEqualTo(ErrorValue.INVALID_VALUE);
            assertThat(client.options()).containsEntry("query_max_memory", "1MB");

            assertThat(client.set(Map.of("QUERY_MAX_MEMORY", makeSessionOptionValue("512MB"))).hasErrors()).isFalse();
            assertThat(client.options()).containsEntry("query_max_memory", "512MB");
            assertThat(client.rows("SELECT l_orderkey, NTILE(4) OVER (ORDER BY l_comment) FROM tpch.tiny.lineitem")).isEqualTo(60175);

            assertThat(client.set(Map.of("query_max_memory", makeEmptySessionOptionValue())).hasErrors()).isFalse();
            assertThat(client.options()).isEmpty();
        }
    }

    @Test
    void timeZoneIsAnOptionAndSetTimeZoneSetsIt()
            throws Exception
    {
        String berlin = "SELECT CAST(TIMESTAMP WITH TIME ZONE '2024-01-15 23:30:00 UTC' AS VARCHAR)";
        try (Client client = Client.connect(); Client other = Client.connect()) {
            assertThat(client.text(berlin)).isEqualTo("2024-01-15 23:30:00.000 UTC");
            assertThat(client.set(Map.of("time_zone", makeSessionOptionValue("Europe/Berlin"))).hasErrors()).isFalse();
            assertThat(client.text(berlin)).isEqualTo("2024-01-16 00:30:00.000 Europe/Berlin");
            assertThat(client.set(Map.of("time_zone", makeSessionOptionValue("Mars/Olympus"))).getErrors().get("time_zone").value).isEqualTo(ErrorValue.INVALID_VALUE);
            // SET TIME ZONE is the same option; another connection keeps UTC
            client.rows("SET TIME ZONE '+05:30'");
            assertThat(client.options()).containsEntry("time_zone", "+05:30");
            assertThat(client.text("SELECT current_timezone()")).isEqualTo("+05:30");
            assertThat(other.text(berlin)).isEqualTo("2024-01-15 23:30:00.000 UTC");
            client.rows("SET TIME ZONE LOCAL");
            assertThat(client.options()).doesNotContainKey("time_zone");
        }
    }

    @Test
    void optionsStayWithTheirConnection()
            throws Exception
    {
        try (Client first = Client.connect(); Client second = Client.connect()) {
            first.set(Map.of("catalog", makeSessionOptionValue("tpch"), "schema", makeSessionOptionValue("tiny")));
            assertThat(second.options()).isEmpty();
            assertThatThrownBy(() -> second.count("SELECT count(*) FROM nation"))
                    .isInstanceOf(FlightRuntimeException.class);
        }
    }

    @Test
    void closeSessionDropsTheSessionAndItsStatements()
            throws Exception
    {
        try (Client client = Client.connect()) {
            client.set(Map.of("catalog", makeSessionOptionValue("tpch"), "query_max_memory", makeSessionOptionValue("64MB")));
            int before = server.openHandles();
            FlightSqlClient.PreparedStatement prepared = client.sql().prepare("SELECT count(*) FROM tiny.nation", client.bearer());
            client.sql().execute("SELECT count(*) FROM tiny.region", client.bearer());
            assertThat(server.openHandles()).isEqualTo(before + 2);

            CloseSessionResult closed = client.flight().closeSession(new CloseSessionRequest(), client.bearer());
            assertThat(closed.getStatus()).isEqualTo(CloseSessionResult.Status.CLOSED);
            assertThat(server.openHandles()).isEqualTo(before);
            assertThat(client.options()).isEmpty();
            FlightRuntimeException gone = assertThrows(FlightRuntimeException.class, () -> prepared.execute(client.bearer()));
            assertThat(gone.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
            // the connection goes on with a fresh session
            assertThat(client.count("SELECT count(*) FROM tpch.tiny.region")).isEqualTo(5);
            prepared.close(client.bearer());
        }
    }

    @Test
    void jdbcCatalogPropertyIsASessionOption()
            throws SQLException
    {
        String url = "jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD;
        Connection connection = DriverManager.getConnection(url + "&catalog=tpch");
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(*) FROM tiny.nation")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getLong(1)).isEqualTo(25);
        }
        // the driver sends CloseSession on close, then (18.3.0 bug, fixed by apache/arrow-java#910)
        // closes its client a second time and reports the already shut down channel
        try {
            connection.close();
        }
        catch (SQLException e) {
            assertThat(e.getMessage()).contains("Channel shutdown invoked");
        }
        // the server answers INVALID_VALUE; the driver fails the connection (its message varies)
        assertThatThrownBy(() -> DriverManager.getConnection(url + "&catalog=no_such_catalog").close())
                .isInstanceOf(SQLException.class);
    }
}
