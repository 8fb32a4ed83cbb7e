package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * How the properties of runtime catalogs (connection passwords, SASL configurations, REST
 * credentials...) are kept in the metadata store: sealed with the Exchange Manager's key
 * management service, as an encrypted exchange file (a fresh data key wrapped by the master key,
 * AES-256-GCM) written out in Base64 after the marker {@value #MARKER}. A master key rotation
 * leaves sealed properties readable, as it does spill files. With encryption turned off
 * ({@code ontul.exchange.encryption.enabled=false}) properties are stored as plain JSON; plain
 * JSON stored before sealing existed is still read, and sealed when next listed.
 */
public final class CatalogSecrets
{
    static final String MARKER = "sealed:v1:";

    private final Optional<ExchangeStreamFactory> streams;

    private CatalogSecrets(Optional<ExchangeStreamFactory> streams)
    {
        this.streams = requireNonNull(streams, "streams is null");
    }

    /** Seals with the KMS of {@code streams} when its encryption is on; plain JSON otherwise. */
    public static CatalogSecrets sealedWith(ExchangeStreamFactory streams)
    {
        return new CatalogSecrets(Optional.of(streams));
    }

    /** Plain JSON, for stores without a key management service (tests, tools). */
    public static CatalogSecrets plaintext()
    {
        return new CatalogSecrets(Optional.empty());
    }

    /** Whether {@link #seal} encrypts. */
    public boolean seals()
    {
        return streams.map(factory -> factory.config().enabled()).orElse(false);
    }

    static boolean isSealed(String stored)
    {
        return stored.startsWith(MARKER);
    }

    /** The text to store for the properties of {@code catalog}, given as JSON. */
    String seal(String catalog, String json)
    {
        if (!seals()) {
            return json;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = streams.orElseThrow().newOutputStream(bytes, fileName(catalog))) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "Cannot encrypt the properties of catalog '" + catalog + "': " + e.getMessage(), e);
        }
        return MARKER + Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** The JSON of what {@link #seal} stored (or of plain JSON stored as it is). */
    String open(String catalog, String stored)
    {
        if (!isSealed(stored)) {
            return stored;
        }
        if (streams.isEmpty()) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "The properties of catalog '" + catalog + "' are encrypted, and this process has no key to read them");
        }
        byte[] sealed;
        try {
            sealed = Base64.getDecoder().decode(stored.substring(MARKER.length()));
        }
        catch (IllegalArgumentException e) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "The encrypted properties of catalog '" + catalog + "' are damaged in the metadata store: " + e.getMessage(), e);
        }
        try (InputStream in = streams.get().newInputStream(new ByteArrayInputStream(sealed), fileName(catalog))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "Cannot decrypt the properties of catalog '" + catalog
                    + "' (is this the key directory, or the ONTUL_MASTER_KEY, they were encrypted with?): " + e.getMessage(), e);
        }
    }

    private static String fileName(String catalog)
    {
        return "properties of catalog '" + catalog + "'";
    }
}
