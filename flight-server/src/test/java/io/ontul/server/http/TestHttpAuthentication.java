package io.ontul.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;
import io.ontul.server.testing.HttpTestClient;
import io.ontul.server.testing.HttpTestClient.Response;

/**
 * The HTTP door takes the same users and tokens as Flight SQL, over a real socket: Basic login
 * returns a token that JDBC accepts too, a missing or bad credential is 401 with Flight's own
 * message, failed logins over HTTP slow logins over Flight, and errors carry the engine's code,
 * category and message.
 */
class TestHttpAuthentication
{
    private static final String PASSWORD = "http-admin-password";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static HttpTestClient http;

    @BeforeAll
    static void startServer()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        http = HttpTestClient.onPort(server.httpPort());
        try (Connection admin = jdbc("&user=admin&password=" + PASSWORD); Statement statement = admin.createStatement()) {
            statement.execute("CREATE USER ann PASSWORD 'ann-password'");
            statement.execute("CREATE USER guesser PASSWORD 'guesser-password'");
        }
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    private static Connection jdbc(String credentials)
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false" + credentials);
    }

    @Test
    void theServerListensForHttpOnAFreePortBesideFlight()
    {
        assertThat(server.httpPort()).isPositive().isNotEqualTo(server.port());
        assertThat(server.httpUri()).contains(java.net.URI.create("http://127.0.0.1:" + server.httpPort()));
    }

    @Test
    void aBasicLoginReturnsATokenThatHttpAndJdbcAccept()
            throws Exception
    {
        Response login = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + server.httpPort() + "/v1/login"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                .header("Authorization", HttpTestClient.basic("ann", "ann-password")));
        assertThat(login.status()).isEqualTo(200);
        assertThat(login.json().get("user").asText()).isEqualTo("ann");
        assertThat(login.json().get("admin").asBoolean()).isFalse();
        assertThat(java.time.Instant.parse(login.json().get("expiresAt").asText())).isAfter(java.time.Instant.now());
        String token = login.json().get("token").asText();

        // the token names ann over JDBC too: the same secret signs both doors' tokens
        try (Connection connection = jdbc("&token=" + token); Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT 'by token' AS marker").close();
            try (ResultSet rows = statement.executeQuery("SELECT \"user\" FROM system.runtime.queries WHERE query = 'SELECT ''by token'' AS marker'")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo("ann");
            }
        }
        // and over HTTP: ann is no administrator, so the metrics are refused, naming her
        Response metrics = http.get("/metrics", Optional.of(HttpTestClient.bearer(token)));
        assertThat(metrics.status()).isEqualTo(403);
        assertThat(metrics.json().path("error").path("code").asText()).isEqualTo("PERMISSION_DENIED");
        assertThat(metrics.json().path("error").path("category").asText()).isEqualTo("USER_ERROR");
        assertThat(metrics.errorMessage()).isEqualTo("Access denied: GET /metrics is for administrators; user 'ann' is not one");
    }

    @Test
    void callsWithoutCredentialsAre401WithAJsonBody()
    {
        Response response = http.get("/metrics", Optional.empty());
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).hasValueSatisfying(value -> assertThat(value).contains("Bearer"));
        assertThat(response.header("Content-Type")).hasValueSatisfying(value -> assertThat(value).startsWith("application/json"));
        assertThat(response.json().path("error").path("code").asText()).isEqualTo("UNAUTHENTICATED");
        assertThat(response.errorMessage())
                .isEqualTo("Missing credentials: log in with a user name and password (Authorization: Basic) or send a token (Authorization: Bearer)");

        Response login = http.post("/v1/login", Optional.empty(), "");
        assertThat(login.status()).isEqualTo(401);
        assertThat(login.errorMessage()).startsWith("Missing credentials");
    }

    @Test
    void aBadTokenGetsTheMessageFlightGives()
    {
        String forged = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl";
        Response response = http.get("/metrics", Optional.of(HttpTestClient.bearer(forged)));
        assertThat(response.status()).isEqualTo(401);
        String message = response.errorMessage();
        assertThat(message).startsWith("Invalid token");
        assertThatThrownBy(() -> jdbc("&token=" + forged).createStatement().executeQuery("SELECT 1"))
                .hasStackTraceContaining(message);

        Response wrong = http.get("/metrics", Optional.of(HttpTestClient.basic("admin", "not-the-password")));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.errorMessage()).isEqualTo("Wrong user name or password");
    }

    @Test
    void failedLoginsOverHttpSlowLoginsOverFlight()
    {
        // LoginFailures.FREE_FAILURES: five wrong passwords in a row are free, then the name waits
        for (int i = 0; i < 5; i++) {
            assertThat(http.post("/v1/login", Optional.of(HttpTestClient.basic("guesser", "guess-" + i)), "").status()).isEqualTo(401);
        }
        Response slowed = http.post("/v1/login", Optional.of(HttpTestClient.basic("guesser", "guesser-password")), "");
        assertThat(slowed.status()).isEqualTo(401);
        assertThat(slowed.errorMessage()).startsWith("Too many failed logins for user 'guesser': try again in");
        // the same count holds for Flight SQL: even the right password waits
        assertThatThrownBy(() -> jdbc("&user=guesser&password=guesser-password").close())
                .hasStackTraceContaining("Too many failed logins for user 'guesser'");
    }

    @Test
    void anUnknownPathIsAJson404()
    {
        String token = http.login("admin", PASSWORD);
        Response response = http.get("/v1/no-such-thing", Optional.of(HttpTestClient.bearer(token)));
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.errorMessage()).isEqualTo("No such endpoint: GET /v1/no-such-thing");
    }
}
