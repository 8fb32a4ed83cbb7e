package io.ontul.server.tls;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.server.auth.OwnerOnlyFiles;

/**
 * Finds the certificate the server serves TLS with: the configured files, or else a
 * self-signed certificate in {@code DATA_DIR/tls/}, generated on the first start with TLS and
 * reused afterwards, so clients that trust it keep trusting it. The generated one is replaced
 * only when it is about to expire or does not name the host the server listens on.
 */
public final class ServerCertificates
{
    public static final String DIRECTORY = "tls";
    public static final String CERTIFICATE_FILE_NAME = "server.crt";
    public static final String KEY_FILE_NAME = "server.key";

    private static final Logger LOG = LoggerFactory.getLogger(ServerCertificates.class);
    private static final Duration RENEWAL_MARGIN = Duration.ofDays(1);

    private ServerCertificates() {}

    public static ServerCertificate obtain(TlsConfig config, Path dataDirectory, String host, Instant now)
            throws IOException
    {
        if (config.configuredCertificate()) {
            ServerCertificate configured = ServerCertificate.load(config.certificateFile().orElseThrow(), config.keyFile().orElseThrow(), false);
            if (!now.isBefore(configured.notAfter())) {
                LOG.warn("The TLS certificate {} expired at {}: clients will refuse to connect", configured.certificateFile(), configured.notAfter());
            }
            warnIfExposed(config.keyFile().orElseThrow());
            return configured;
        }
        return generated(dataDirectory.resolve(DIRECTORY), HostNames.forListenAddress(host), now);
    }

    private static ServerCertificate generated(Path directory, List<String> hostNames, Instant now)
            throws IOException
    {
        Path certificateFile = directory.resolve(CERTIFICATE_FILE_NAME);
        Path keyFile = directory.resolve(KEY_FILE_NAME);
        if (Files.exists(certificateFile) && Files.exists(keyFile)) {
            ServerCertificate existing = ServerCertificate.load(certificateFile, keyFile, true);
            Optional<String> reason = reasonToReplace(existing, hostNames, now);
            if (reason.isEmpty()) {
                warnIfExposed(keyFile);
                return existing;
            }
            LOG.warn("Replacing the generated TLS certificate {}: {}. Clients that trusted the old one must trust the new one", certificateFile, reason.get());
        }
        SelfSignedCertificate certificate = SelfSignedCertificate.generate(hostNames, now);
        Files.deleteIfExists(certificateFile);
        Files.deleteIfExists(keyFile);
        OwnerOnlyFiles.createIfAbsent(keyFile, PemFiles.toPem(certificate.privateKey()).getBytes(US_ASCII));
        OwnerOnlyFiles.createIfAbsent(certificateFile, PemFiles.toPem(certificate.certificate()).getBytes(US_ASCII));
        // the certificate is public: clients copy it to trust it
        makeReadable(certificateFile);
        LOG.info("Generated a self-signed TLS certificate for {} in {}", String.join(", ", hostNames), certificateFile);
        return ServerCertificate.load(certificateFile, keyFile, true);
    }

    private static Optional<String> reasonToReplace(ServerCertificate certificate, List<String> hostNames, Instant now)
    {
        if (!now.plus(RENEWAL_MARGIN).isBefore(certificate.notAfter())) {
            return Optional.of("it expires at " + certificate.notAfter());
        }
        return hostNames.stream()
                .filter(name -> !certificate.names(name))
                .findFirst()
                .map(name -> "it does not name " + name);
    }

    private static void warnIfExposed(Path keyFile)
            throws IOException
    {
        if (OwnerOnlyFiles.isExposed(keyFile)) {
            LOG.warn("The TLS private key {} is readable by others than its owner (chmod 600 it)", keyFile);
        }
    }

    private static void makeReadable(Path file)
            throws IOException
    {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system
        }
    }
}
