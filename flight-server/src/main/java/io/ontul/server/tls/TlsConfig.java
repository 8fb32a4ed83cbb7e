package io.ontul.server.tls;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * TLS settings of the Flight SQL endpoint ({@code ontul.flight.tls.*}). With TLS on and no
 * certificate configured, the server uses a self-signed one it generates in its data directory.
 */
public record TlsConfig(boolean enabled, Optional<Path> certificateFile, Optional<Path> keyFile)
{
    public static final String ENABLED = "ontul.flight.tls.enabled";
    public static final String CERTIFICATE_FILE = "ontul.flight.tls.certificate-file";
    public static final String KEY_FILE = "ontul.flight.tls.key-file";

    public TlsConfig
    {
        requireNonNull(certificateFile, "certificateFile is null");
        requireNonNull(keyFile, "keyFile is null");
        if (certificateFile.isPresent() != keyFile.isPresent()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Set both %s and %s, or neither (then a self-signed certificate is generated)", CERTIFICATE_FILE, KEY_FILE);
        }
    }

    public static TlsConfig disabled()
    {
        return new TlsConfig(false, Optional.empty(), Optional.empty());
    }

    public static TlsConfig from(EngineConfig config)
    {
        String enabled = config.property(ENABLED, "false").trim().toLowerCase(Locale.ROOT);
        if (!enabled.equals("true") && !enabled.equals("false")) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid %s '%s': expected true or false", ENABLED, enabled);
        }
        return new TlsConfig(Boolean.parseBoolean(enabled), path(config, CERTIFICATE_FILE), path(config, KEY_FILE));
    }

    private static Optional<Path> path(EngineConfig config, String key)
    {
        return Optional.ofNullable(config.property(key, null))
                .map(String::trim)
                .filter(value -> !value.isEmpty())
                .map(Path::of);
    }

    /** True if the certificate comes from the configured files rather than being generated. */
    public boolean configuredCertificate()
    {
        return certificateFile.isPresent();
    }
}
