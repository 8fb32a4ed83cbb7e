package io.ontul.server.tls;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;
import io.ontul.spi.OntulException;

class TestTlsCertificates
{
    private static final Instant NOW = Instant.parse("2030-05-01T10:00:00Z");

    @TempDir
    Path dataDirectory;

    @Test
    void generatedCertificateNamesTheConfiguredHost()
            throws Exception
    {
        TlsConfig config = TlsConfig.from(tlsEnabled(Map.of()));
        ServerCertificate certificate = ServerCertificates.obtain(config, dataDirectory, "db.example.com", NOW);
        assertThat(certificate.generated()).isTrue();
        assertThat(certificate.names("localhost")).isTrue();
        assertThat(certificate.names("127.0.0.1")).isTrue();
        assertThat(certificate.names("DB.example.com")).isTrue();
        assertThat(certificate.names("other.example.com")).isFalse();
        assertThat(certificate.notAfter()).isEqualTo(NOW.plus(SelfSignedCertificate.VALIDITY));

        ServerCertificate ipv6 = ServerCertificates.obtain(config, dataDirectory.resolve("v6"), "[::1]", NOW);
        assertThat(ipv6.names("0:0:0:0:0:0:0:1")).isTrue();
        assertThat(HostNames.forListenAddress("0.0.0.0")).startsWith("localhost", "127.0.0.1").doesNotContain("0.0.0.0");
        assertThat(HostNames.forListenAddress("localhost")).containsExactly("localhost", "127.0.0.1");
    }

    @Test
    void generatedCertificateIsReusedUntilItExpiresOrTheHostChanges()
            throws Exception
    {
        TlsConfig config = TlsConfig.from(tlsEnabled(Map.of()));
        String first = ServerCertificates.obtain(config, dataDirectory, "127.0.0.1", NOW).fingerprint();
        assertThat(ServerCertificates.obtain(config, dataDirectory, "127.0.0.1", NOW.plus(Duration.ofDays(300))).fingerprint()).isEqualTo(first);
        assertThat(ServerCertificates.obtain(config, dataDirectory, "localhost", NOW.plus(Duration.ofDays(300))).fingerprint()).isEqualTo(first);

        String renewed = ServerCertificates.obtain(config, dataDirectory, "127.0.0.1", NOW.plus(Duration.ofDays(365))).fingerprint();
        assertThat(renewed).isNotEqualTo(first);
        String moved = ServerCertificates.obtain(config, dataDirectory, "db.example.com", NOW.plus(Duration.ofDays(365))).fingerprint();
        assertThat(moved).isNotEqualTo(renewed);
        try (var files = Files.list(dataDirectory.resolve(ServerCertificates.DIRECTORY))) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactlyInAnyOrder("server.crt", "server.key");
        }
    }

    @Test
    void certificateAndKeyFilesOfTheirOwnAreServed(@TempDir Path configurationDirectory)
            throws Exception
    {
        // an OpenSSL-style EC key ("BEGIN EC PRIVATE KEY"), which gRPC cannot read without conversion
        SelfSignedCertificate own = SelfSignedCertificate.generate(List.of("localhost"), Instant.now());
        Path certificateFile = configurationDirectory.resolve("own.crt");
        Path keyFile = configurationDirectory.resolve("own.key");
        Files.writeString(certificateFile, PemFiles.toPem(own.certificate()), US_ASCII);
        Files.writeString(keyFile, openSslEcKey(own), US_ASCII);

        EngineConfig config = tlsEnabled(Map.of(TlsConfig.CERTIFICATE_FILE, certificateFile.toString(), TlsConfig.KEY_FILE, keyFile.toString()));
        try (BufferAllocator allocator = new RootAllocator();
                OntulServer server = OntulServer.start(config, dataDirectory, Optional.of(0), Optional.of("own-password-1"), new PrintStream(OutputStream.nullOutputStream()));
                InputStream trusted = Files.newInputStream(certificateFile);
                FlightClient client = FlightClient.builder(allocator, Location.forGrpcTls("localhost", server.port())).trustedCertificates(trusted).build()) {
            Optional<CredentialCallOption> bearer = client.authenticateBasicToken("admin", "own-password-1");
            assertThat(bearer).isPresent();
        }
        assertThat(dataDirectory.resolve(ServerCertificates.DIRECTORY)).doesNotExist();
    }

    @Test
    void badSettingsAreNamed(@TempDir Path configurationDirectory)
            throws Exception
    {
        assertThatThrownBy(() -> TlsConfig.from(tlsEnabled(Map.of(TlsConfig.CERTIFICATE_FILE, "/etc/ontul/server.crt"))))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("Set both ontul.flight.tls.certificate-file and ontul.flight.tls.key-file, or neither");
        assertThatThrownBy(() -> TlsConfig.from(EngineConfig.embeddedDefaults().withProperty(TlsConfig.ENABLED, "yes")))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("Invalid ontul.flight.tls.enabled 'yes'");
        assertThat(TlsConfig.from(EngineConfig.embeddedDefaults()).enabled()).isFalse();

        Path empty = Files.writeString(configurationDirectory.resolve("empty.pem"), "nothing here\n");
        TlsConfig noCertificate = TlsConfig.from(tlsEnabled(Map.of(TlsConfig.CERTIFICATE_FILE, empty.toString(), TlsConfig.KEY_FILE, empty.toString())));
        assertThatThrownBy(() -> ServerCertificates.obtain(noCertificate, dataDirectory, "localhost", NOW))
                .hasMessageContaining(empty + " holds no PEM certificate");
    }

    /** The key as {@code openssl ecparam -genkey} writes it: SEC1 with the curve and the public key. */
    private static String openSslEcKey(SelfSignedCertificate certificate)
            throws Exception
    {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(certificate.privateKey().getEncoded());
        ASN1ObjectIdentifier curve = (ASN1ObjectIdentifier) info.getPrivateKeyAlgorithm().getParameters();
        BigInteger secret = ECPrivateKey.getInstance(info.parsePrivateKey()).getKey();
        DERBitString publicKey = new DERBitString(SubjectPublicKeyInfo.getInstance(certificate.certificate().getPublicKey().getEncoded()).getPublicKeyData().getBytes());
        StringWriter pem = new StringWriter();
        try (PemWriter writer = new PemWriter(pem)) {
            writer.writeObject(new PemObject("EC PRIVATE KEY", new ECPrivateKey(256, secret, publicKey, curve).getEncoded()));
        }
        return pem.toString();
    }

    private static EngineConfig tlsEnabled(Map<String, String> properties)
    {
        EngineConfig config = EngineConfig.embeddedDefaults().withProperty(TlsConfig.ENABLED, "true");
        for (Map.Entry<String, String> property : properties.entrySet()) {
            config = config.withProperty(property.getKey(), property.getValue());
        }
        return config;
    }
}
