package io.ontul.server.tls;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/** The server with TLS on and a generated certificate, reached by FlightClient and Arrow's JDBC driver. */
class TestTlsServer
{
    private static final String PASSWORD = "tls-password-1";
    private static final EngineConfig TLS = EngineConfig.embeddedDefaults().withProperty(TlsConfig.ENABLED, "true");

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static String console;
    private static BufferAllocator allocator;

    @BeforeAll
    static void startServer()
            throws Exception
    {
        allocator = new RootAllocator();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        server = OntulServer.start(TLS, dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(output, true, UTF_8));
        console = output.toString(UTF_8);
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
        allocator.close();
    }

    private static Path certificateFile()
    {
        return dataDirectory.resolve("tls/server.crt");
    }

    @Test
    void generatesASelfSignedCertificateForLocalhostAndPrintsItsFingerprint()
            throws Exception
    {
        X509Certificate certificate = readCertificate(certificateFile());
        assertThat(certificate.getPublicKey()).isInstanceOf(ECPublicKey.class);
        assertThat(((ECPublicKey) certificate.getPublicKey()).getParams().getCurve().getField().getFieldSize()).isEqualTo(256);
        assertThat(certificate.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
        assertThat(Duration.between(certificate.getNotBefore().toInstant(), certificate.getNotAfter().toInstant()).toDays()).isBetween(365L, 366L);
        certificate.verify(certificate.getPublicKey());

        Path key = dataDirectory.resolve("tls/server.key");
        assertThat(Files.readString(key)).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");

        String fingerprint = ServerCertificate.fingerprint(certificate);
        assertThat(fingerprint).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
        assertThat(console).contains("SHA-256 fingerprint " + fingerprint).contains(certificateFile().toString());
        assertThat(server.location().getUri().toString()).isEqualTo("grpc+tls://127.0.0.1:" + server.port());
    }

    @Test
    void theHttpServerServesHttpsWithTheSameCertificate()
            throws Exception
    {
        assertThat(server.httpUri()).contains(java.net.URI.create("https://127.0.0.1:" + server.httpPort()));
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ontul", readCertificate(certificateFile()));
        javax.net.ssl.TrustManagerFactory trustManagers = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
        ssl.init(null, trustManagers.getTrustManagers(), null);
        // by IP address and by name: both are in the certificate, and no SNI host check refuses the address
        for (String host : List.of("127.0.0.1", "localhost")) {
            io.ontul.server.testing.HttpTestClient https = new io.ontul.server.testing.HttpTestClient(java.net.http.HttpClient.newBuilder().sslContext(ssl).build(),
                    java.net.URI.create("https://" + host + ":" + server.httpPort()));
            String token = https.login("admin", PASSWORD);
            io.ontul.server.testing.HttpTestClient.Response metrics = https.get("/metrics", Optional.of(io.ontul.server.testing.HttpTestClient.bearer(token)));
            assertThat(metrics.status()).as(metrics.toString()).isEqualTo(200);
            assertThat(metrics.text()).contains("ontul_queries_started_total");
        }
        // plain HTTP to the TLS port is no way in
        assertThatThrownBy(() -> io.ontul.server.testing.HttpTestClient.onPort(server.httpPort()).get("/metrics", Optional.empty()))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void flightClientTrustingTheCertificateRunsQueries()
            throws Exception
    {
        for (String host : List.of("127.0.0.1", "localhost")) {
            try (InputStream trusted = Files.newInputStream(certificateFile());
                    FlightClient client = FlightClient.builder(allocator, Location.forGrpcTls(host, server.port())).trustedCertificates(trusted).build();
                    FlightSqlClient sql = new FlightSqlClient(client)) {
                CallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
                assertThat(countRows(sql, bearer, "SELECT * FROM tpch.tiny.region")).isEqualTo(5);
            }
        }
    }

    @Test
    void flightClientNotTrustingTheCertificateFails()
            throws Exception
    {
        try (FlightClient client = FlightClient.builder(allocator, Location.forGrpcTls("127.0.0.1", server.port())).build()) {
            assertThatThrownBy(() -> client.authenticateBasicToken("admin", PASSWORD))
                    .isInstanceOfSatisfying(FlightRuntimeException.class, e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAVAILABLE));
        }
    }

    @Test
    void plaintextClientFails()
            throws Exception
    {
        try (FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build()) {
            assertThatThrownBy(() -> client.authenticateBasicToken("admin", PASSWORD))
                    .isInstanceOfSatisfying(FlightRuntimeException.class, e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAVAILABLE));
        }
        assertThatThrownBy(() -> DriverManager.getConnection(url("useEncryption=false")).close())
                .isInstanceOf(SQLException.class);
    }

    @Test
    void jdbcWithoutCertificateVerification()
            throws Exception
    {
        assertThat(countRows(url("useEncryption=true&disableCertificateVerification=true"))).isEqualTo(25);
    }

    @Test
    void jdbcTrustingTheCertificateThroughATrustStore(@TempDir Path clientDirectory)
            throws Exception
    {
        KeyStore trustStore = KeyStore.getInstance("PKCS12");
        trustStore.load(null, null);
        trustStore.setCertificateEntry("ontul", readCertificate(certificateFile()));
        Path trustStoreFile = clientDirectory.resolve("ontul-truststore.p12");
        try (OutputStream out = Files.newOutputStream(trustStoreFile)) {
            trustStore.store(out, "changeit".toCharArray());
        }
        assertThat(countRows(url("useEncryption=true&useSystemTrustStore=false&trustStore=" + trustStoreFile + "&trustStorePassword=changeit"))).isEqualTo(25);
    }

    @Test
    void jdbcTrustingTheCertificateFile()
            throws Exception
    {
        assertThat(countRows(url("useEncryption=true&tlsRootCerts=" + certificateFile()))).isEqualTo(25);
    }

    @Test
    void jdbcWithTheSystemTrustStoreRefusesTheSelfSignedCertificate()
    {
        assertThatThrownBy(() -> countRows(url("useEncryption=true")))
                .isInstanceOf(SQLException.class);
    }

    @Test
    void restartReusesTheCertificate(@TempDir Path restartDirectory)
            throws Exception
    {
        String first;
        try (OntulServer started = OntulServer.start(TLS, restartDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()))) {
            first = ServerCertificate.fingerprint(readCertificate(restartDirectory.resolve("tls/server.crt")));
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (OntulServer restarted = OntulServer.start(TLS, restartDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(output, true, UTF_8));
                InputStream trusted = Files.newInputStream(restartDirectory.resolve("tls/server.crt"));
                FlightClient client = FlightClient.builder(allocator, Location.forGrpcTls("localhost", restarted.port())).trustedCertificates(trusted).build();
                FlightSqlClient sql = new FlightSqlClient(client)) {
            assertThat(ServerCertificate.fingerprint(readCertificate(restartDirectory.resolve("tls/server.crt")))).isEqualTo(first);
            assertThat(output.toString(UTF_8)).contains("SHA-256 fingerprint " + first);
            CallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            assertThat(countRows(sql, bearer, "SELECT 1")).isEqualTo(1);
        }
    }

    private static String url(String options)
    {
        return "jdbc:arrow-flight-sql://localhost:" + server.port() + "/?" + options + "&user=admin&password=" + PASSWORD;
    }

    private static long countRows(String url)
            throws SQLException
    {
        long rows = 0;
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT * FROM tpch.tiny.nation")) {
            while (result.next()) {
                rows++;
            }
        }
        return rows;
    }

    private static long countRows(FlightSqlClient sql, CallOption bearer, String query)
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

    static X509Certificate readCertificate(Path file)
            throws Exception
    {
        try (InputStream in = Files.newInputStream(file)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }
}
