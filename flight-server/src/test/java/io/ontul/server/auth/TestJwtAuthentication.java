package io.ontul.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth2.BearerCredentialWriter;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/** Logins and signed bearer tokens against a real server on a free port. */
class TestJwtAuthentication
{
    private static final String PASSWORD = "jwt-password-1";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static BufferAllocator allocator;

    @BeforeAll
    static void startServer()
            throws Exception
    {
        allocator = new RootAllocator();
        server = start(EngineConfig.embeddedDefaults(), dataDirectory);
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
        allocator.close();
    }

    private static OntulServer start(EngineConfig config, Path data)
            throws Exception
    {
        return OntulServer.start(config, data, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
    }

    @Test
    void loginIssuesASignedTokenThatLaterCallsUse()
            throws Exception
    {
        Instant before = Instant.now().minusSeconds(1);
        String token = login(server, "admin", PASSWORD);

        JWTClaimsSet claims = SignedJWT.parse(token).getJWTClaimsSet();
        assertThat(claims.getSubject()).isEqualTo("admin");
        assertThat(claims.getJWTID()).isNotBlank();
        assertThat(claims.getIssueTime().toInstant()).isAfterOrEqualTo(before.truncatedTo(ChronoUnit.SECONDS));
        assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant())).isEqualTo(Duration.ofHours(12));

        assertThat(countRows(server, bearer(token), "SELECT * FROM tpch.tiny.region")).isEqualTo(5);
    }

    @Test
    void everyLoginGetsItsOwnToken()
            throws Exception
    {
        String first = login(server, "admin", PASSWORD);
        String second = login(server, "admin", PASSWORD);
        assertThat(first).isNotEqualTo(second);
        assertThat(SignedJWT.parse(first).getJWTClaimsSet().getJWTID()).isNotEqualTo(SignedJWT.parse(second).getJWTClaimsSet().getJWTID());
    }

    @Test
    void wrongPasswordAndUnknownUserAreUnauthenticated()
    {
        assertUnauthenticated(() -> login(server, "admin", "wrong"), "Wrong user name or password");
        assertUnauthenticated(() -> login(server, "nobody", PASSWORD), "Wrong user name or password");
    }

    @Test
    void callWithoutCredentialsNamesWhatIsMissing()
    {
        assertUnauthenticated(() -> countRows(server, null, "SELECT 1"), "Missing credentials");
    }

    @Test
    void expiredTokenIsRefusedWithItsExpiry()
            throws Exception
    {
        Instant issued = Instant.parse("2024-01-01T00:00:00Z");
        String token = new JwtTokens(TokenSecret.loadOrCreate(dataDirectory), Duration.ofHours(1), Clock.fixed(issued, ZoneOffset.UTC)).issue("admin");
        assertUnauthenticated(() -> countRows(server, bearer(token), "SELECT 1"), "Token expired at 2024-01-01T01:00:00Z; log in again");
    }

    @Test
    void tokenOfAnotherSecretOrGarbageIsInvalid()
    {
        String foreign = new JwtTokens(TokenSecret.random(), Duration.ofHours(1), Clock.systemUTC()).issue("admin");
        assertUnauthenticated(() -> countRows(server, bearer(foreign), "SELECT 1"), "Invalid token: the signature does not match");
        assertUnauthenticated(() -> countRows(server, bearer("not-a-token"), "SELECT 1"), "Invalid token");
    }

    @Test
    void tokenOfAUserWhoNoLongerExistsIsInvalid()
            throws Exception
    {
        String token = new JwtTokens(TokenSecret.loadOrCreate(dataDirectory), Duration.ofHours(1), Clock.systemUTC()).issue("dropped");
        assertUnauthenticated(() -> countRows(server, bearer(token), "SELECT 1"), "Invalid token: user 'dropped' no longer exists");
    }

    @Test
    void secretFileIsReadableByTheOwnerOnly()
            throws Exception
    {
        Path secret = dataDirectory.resolve(TokenSecret.FILE_NAME);
        assertThat(secret).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
    }

    @Test
    void jdbcLogsInWithPasswordOrConnectsWithAToken()
            throws Exception
    {
        String address = "jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false";
        try (Connection connection = DriverManager.getConnection(address + "&user=admin&password=" + PASSWORD)) {
            assertThat(countRows(connection, "SELECT * FROM tpch.tiny.nation")).isEqualTo(25);
        }
        try (Connection connection = DriverManager.getConnection(address + "&token=" + login(server, "admin", PASSWORD))) {
            assertThat(countRows(connection, "SELECT * FROM tpch.tiny.nation")).isEqualTo(25);
        }
        assertThatThrownBy(() -> DriverManager.getConnection(address + "&user=admin&password=wrong").close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Wrong user name or password");
    }

    @Test
    void tokensSurviveARestartAndExpireAfterTheConfiguredTime(@TempDir Path restartDirectory)
            throws Exception
    {
        EngineConfig config = EngineConfig.embeddedDefaults().withProperty(AuthenticationConfig.TOKEN_TTL, "3s");
        String token;
        String secret;
        try (OntulServer first = start(config, restartDirectory)) {
            token = login(first, "admin", PASSWORD);
            assertThat(countRows(first, bearer(token), "SELECT 1")).isEqualTo(1);
            secret = Files.readString(restartDirectory.resolve(TokenSecret.FILE_NAME));
        }
        try (OntulServer second = start(config, restartDirectory)) {
            assertThat(Files.readString(restartDirectory.resolve(TokenSecret.FILE_NAME))).isEqualTo(secret);
            assertThat(countRows(second, bearer(token), "SELECT 1")).isEqualTo(1);

            Instant expiry = SignedJWT.parse(token).getJWTClaimsSet().getExpirationTime().toInstant();
            Thread.sleep(Math.max(0, Duration.between(Instant.now(), expiry).toMillis()) + 100);
            assertUnauthenticated(() -> countRows(second, bearer(token), "SELECT 1"), "Token expired at " + expiry + "; log in again");
        }
    }

    private static CallOption bearer(String token)
    {
        return new CredentialCallOption(new BearerCredentialWriter(token));
    }

    private static String login(OntulServer target, String user, String password)
            throws InterruptedException
    {
        BearerTokenCapture capture = new BearerTokenCapture();
        try (FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", target.port())).intercept(capture).build()) {
            client.authenticateBasicToken(user, password);
        }
        assertThat(capture.token()).isNotNull();
        return capture.token();
    }

    private static long countRows(OntulServer target, CallOption credentials, String sql)
            throws Exception
    {
        CallOption[] options = credentials == null ? new CallOption[0] : new CallOption[] {credentials};
        try (FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", target.port())).build();
                FlightSqlClient sqlClient = new FlightSqlClient(client)) {
            FlightInfo info = sqlClient.execute(sql, options);
            long rows = 0;
            try (FlightStream stream = sqlClient.getStream(info.getEndpoints().get(0).getTicket(), options)) {
                while (stream.next()) {
                    rows += stream.getRoot().getRowCount();
                }
            }
            return rows;
        }
    }

    private static long countRows(Connection connection, String sql)
            throws SQLException
    {
        long rows = 0;
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows++;
            }
        }
        return rows;
    }

    private interface Call
    {
        void run()
                throws Exception;
    }

    private static void assertUnauthenticated(Call call, String message)
    {
        assertThatThrownBy(call::run)
                .isInstanceOfSatisfying(FlightRuntimeException.class, e -> {
                    assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
                    assertThat(e.getMessage()).contains(message);
                });
    }
}
