package io.ontul.server.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * CREATE USER, ALTER USER, DROP USER and SHOW USERS over real sockets: the users the statements
 * make are the users that log in, through Arrow's Flight SQL JDBC driver and FlightSqlClient.
 */
class TestUserManagement
{
    private static final String ADMIN_PASSWORD = "admin-password-1";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;

    @BeforeAll
    static void startServer()
            throws IOException
    {
        server = start(dataDirectory);
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    private static OntulServer start(Path directory)
            throws IOException
    {
        return OntulServer.start(EngineConfig.embeddedDefaults(), directory, Optional.of(0), Optional.of(ADMIN_PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
    }

    private static Connection connect(OntulServer target, String user, String password)
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + target.port() + "/?useEncryption=false&user=" + user + "&password=" + password);
    }

    @Test
    void adminCreatesUsersWhoLogInChangeTheirPasswordAndAreDropped()
            throws SQLException
    {
        try (Connection admin = connect(server, "admin", ADMIN_PASSWORD); Statement adminStatement = admin.createStatement()) {
            assertThat(adminStatement.executeUpdate("CREATE USER bob PASSWORD 'bob-password-1'")).isZero();

            try (Connection bob = connect(server, "bob", "bob-password-1"); Statement bobStatement = bob.createStatement()) {
                // a new user reads nothing until granted
                assertThatThrownBy(() -> bobStatement.executeQuery("SELECT r_name FROM tpch.tiny.region"))
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("Access denied: user 'bob' cannot SELECT from table 'tpch.tiny.region'");
                adminStatement.executeUpdate("GRANT SELECT ON CATALOG tpch TO USER bob");
                try (ResultSet result = bobStatement.executeQuery("SELECT r_name FROM tpch.tiny.region WHERE r_regionkey = 1")) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getString(1)).isEqualTo("AMERICA");
                }

                for (String forbidden : List.of("CREATE USER carol PASSWORD 'carol-password-1'", "DROP USER admin", "ALTER USER admin PASSWORD 'taken-over-1'")) {
                    assertThatThrownBy(() -> bobStatement.execute(forbidden))
                            .isInstanceOf(SQLException.class)
                            .hasMessageContaining("Permission denied");
                }
                assertThatThrownBy(() -> bobStatement.executeQuery("SHOW USERS"))
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("Permission denied: SHOW USERS needs an administrator; user 'bob' is not one");

                assertThat(bobStatement.executeUpdate("ALTER USER bob PASSWORD 'bob-password-2'")).isZero();
            }
            assertThatThrownBy(() -> connect(server, "bob", "bob-password-1").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Wrong user name or password");

            Connection bob = connect(server, "bob", "bob-password-2");
            try (Statement bobStatement = bob.createStatement(); ResultSet result = bobStatement.executeQuery("SELECT 1")) {
                assertThat(result.next()).isTrue();
            }
            adminStatement.executeUpdate("DROP USER bob");
            // the open connection ends with the user: its token names a user that is gone
            assertThatThrownBy(() -> bob.createStatement().executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
            closeQuietly(bob);
            assertThatThrownBy(() -> connect(server, "bob", "bob-password-2").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Wrong user name or password");
            assertThat(showUsers(adminStatement)).doesNotContain("bob");
        }
    }

    @Test
    void showUsersListsNamesAndNeverHashes()
            throws SQLException, IOException
    {
        try (Connection admin = connect(server, "admin", ADMIN_PASSWORD); Statement statement = admin.createStatement()) {
            statement.executeUpdate("CREATE USER IF NOT EXISTS dave PASSWORD 'dave-password-1'");
            statement.executeUpdate("CREATE USER IF NOT EXISTS dave PASSWORD 'ignored-password'");
            statement.executeUpdate("CREATE USER \"Erin\" PASSWORD 'erin-password-1'");
            List<String> users = showUsers(statement);
            assertThat(users).contains("admin", "dave", "Erin").isSorted();
            assertThat(String.join(" ", users)).doesNotContain("pbkdf2").doesNotContain("$");

            List<String> filtered = new ArrayList<>();
            try (ResultSet result = statement.executeQuery("SHOW USERS LIKE 'd%'")) {
                assertThat(result.getMetaData().getColumnCount()).isEqualTo(1);
                while (result.next()) {
                    filtered.add(result.getString(1));
                }
            }
            assertThat(filtered).containsExactly("dave");

            assertThat(server.engine().metadata().users().hashes().get("dave")).startsWith("pbkdf2-sha256$").doesNotContain("dave-password-1");
            assertThat(String.join(" ", server.engine().metadata().users().hashes().values())).doesNotContain("ignored-password");
        }
        try (Connection dave = connect(server, "dave", "dave-password-1")) {
            assertThat(dave.isValid(5)).isTrue();
        }
        try (Connection erin = connect(server, "Erin", "erin-password-1")) {
            assertThat(erin.isValid(5)).isTrue();
        }
    }

    @Test
    void userErrorsReachJdbcWithTheirMessage()
            throws SQLException
    {
        try (Connection admin = connect(server, "admin", ADMIN_PASSWORD); Statement statement = admin.createStatement()) {
            statement.executeUpdate("CREATE USER frank PASSWORD 'frank-password-1'");
            assertThatThrownBy(() -> statement.executeUpdate("CREATE USER frank PASSWORD 'frank-password-2'"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 1:13: User 'frank' already exists");
            assertThatThrownBy(() -> statement.executeUpdate("DROP USER nobody"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 1:11: User 'nobody' does not exist");
            assertThatThrownBy(() -> statement.executeUpdate("DROP USER admin"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("User 'admin' is an administrator and cannot be dropped");
            assertThatThrownBy(() -> statement.executeUpdate("CREATE USER grace PASSWORD 'short'"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Password must have at least 8 characters");
            assertThatThrownBy(() -> statement.executeUpdate("CREATE USER grace"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 1:18: Syntax error at end of input; expected one of: PASSWORD");
            assertThat(statement.executeUpdate("DROP USER IF EXISTS nobody")).isZero();
        }
    }

    @Test
    void flightStatusesOfUserStatements()
            throws Exception
    {
        try (Connection admin = connect(server, "admin", ADMIN_PASSWORD); Statement statement = admin.createStatement()) {
            statement.executeUpdate("CREATE USER heidi PASSWORD 'heidi-password-1'");
        }
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
                FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption heidi = client.authenticateBasicToken("heidi", "heidi-password-1").orElseThrow();
            FlightRuntimeException denied = failure(() -> sql.executeUpdate("CREATE USER ivan PASSWORD 'ivan-password-1'", heidi));
            assertThat(denied.status().code()).isEqualTo(FlightStatusCode.UNAUTHORIZED);
            assertThat(denied.getMessage()).contains("Permission denied");
            assertThat(failure(() -> sql.execute("SHOW USERS", heidi)).status().code()).isEqualTo(FlightStatusCode.UNAUTHORIZED);

            CredentialCallOption admin = client.authenticateBasicToken("admin", ADMIN_PASSWORD).orElseThrow();
            assertThat(failure(() -> sql.executeUpdate("CREATE USER heidi PASSWORD 'heidi-password-2'", admin)).status().code()).isEqualTo(FlightStatusCode.ALREADY_EXISTS);
            assertThat(failure(() -> sql.executeUpdate("DROP USER ivan", admin)).status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
            FlightRuntimeException syntax = failure(() -> sql.executeUpdate("ALTER USER heidi PASSWORD heidi_password_2", admin));
            assertThat(syntax.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
            assertThat(syntax.getMessage()).contains("line 1:27: Syntax error").doesNotContain("heidi_password_2");
        }
    }

    @Test
    void usersSurviveARestart(@TempDir Path ownDirectory)
            throws Exception
    {
        try (OntulServer first = start(ownDirectory);
                Connection admin = connect(first, "admin", ADMIN_PASSWORD);
                Statement statement = admin.createStatement()) {
            statement.executeUpdate("CREATE USER judy PASSWORD 'judy-password-1'");
            statement.executeUpdate("CREATE USER mallory PASSWORD 'mallory-password-1'");
            statement.executeUpdate("DROP USER mallory");
        }
        try (OntulServer second = start(ownDirectory)) {
            try (Connection judy = connect(second, "judy", "judy-password-1"); Statement statement = judy.createStatement();
                    ResultSet result = statement.executeQuery("SELECT 1")) {
                assertThat(result.next()).isTrue();
            }
            assertThatThrownBy(() -> connect(second, "mallory", "mallory-password-1").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Wrong user name or password");
        }
    }

    private static List<String> showUsers(Statement statement)
            throws SQLException
    {
        List<String> users = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SHOW USERS")) {
            assertThat(result.getMetaData().getColumnName(1)).isEqualTo("user");
            while (result.next()) {
                users.add(result.getString(1));
            }
        }
        return users;
    }

    private static void closeQuietly(Connection connection)
    {
        try {
            connection.close();
        }
        catch (SQLException e) {
            // closing the statements of a dropped user's connection fails: the server no longer knows the user
        }
    }

    private static FlightRuntimeException failure(Runnable call)
    {
        try {
            call.run();
        }
        catch (FlightRuntimeException e) {
            assertThat(e.getMessage()).doesNotContain("\tat ");
            return e;
        }
        throw new AssertionError("The call succeeded");
    }
}
