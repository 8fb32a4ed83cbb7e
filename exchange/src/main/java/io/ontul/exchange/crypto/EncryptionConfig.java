package io.ontul.exchange.crypto;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * How the Exchange Manager protects what leaves memory (spill files, checkpoints).
 *
 * @param enabled encrypt files ({@value #ENABLED}, default true); false writes them with a CRC32C
 * per chunk only
 * @param compression codec applied to each chunk before encryption ({@value #COMPRESSION}:
 * {@code none}, {@code lz4} or {@code zstd}; default lz4)
 * @param keyDirectory the local key management service's directory ({@value #KEY_DIRECTORY});
 * empty: the server's default
 * @param chunkSize bytes of data per chunk (default 1 MiB); not a property, tests make it small
 */
public record EncryptionConfig(boolean enabled, CompressionCodec compression, Optional<Path> keyDirectory, int chunkSize)
{
    public static final String ENABLED = "ontul.exchange.encryption.enabled";
    public static final String COMPRESSION = "ontul.exchange.compression";
    public static final String KEY_DIRECTORY = "ontul.exchange.kms.key-dir";

    public EncryptionConfig
    {
        requireNonNull(compression, "compression is null");
        requireNonNull(keyDirectory, "keyDirectory is null");
        ExchangeFileFormat.checkChunkSize(chunkSize);
    }

    public static EncryptionConfig defaults()
    {
        return fromProperties(Map.of());
    }

    /** Reads the settings from server properties; other keys are ignored. */
    public static EncryptionConfig fromProperties(Map<String, String> properties)
    {
        requireNonNull(properties, "properties is null");
        boolean enabled = parseBoolean(properties, ENABLED, true);
        CompressionCodec compression = parseCompression(properties.getOrDefault(COMPRESSION, "lz4"), COMPRESSION);
        Optional<Path> keyDirectory = Optional.ofNullable(properties.get(KEY_DIRECTORY))
                .map(String::trim)
                .filter(value -> !value.isEmpty())
                .map(Path::of);
        return new EncryptionConfig(enabled, compression, keyDirectory, ExchangeFileFormat.DEFAULT_CHUNK_SIZE);
    }

    public EncryptionConfig withChunkSize(int chunkSize)
    {
        return new EncryptionConfig(enabled, compression, keyDirectory, chunkSize);
    }

    public EncryptionConfig withCompression(CompressionCodec compression)
    {
        return new EncryptionConfig(enabled, compression, keyDirectory, chunkSize);
    }

    /** The codec a setting names ({@code none}, {@code lz4} or {@code zstd}); an error naming {@code key} otherwise. */
    public static CompressionCodec parseCompression(String value, String key)
    {
        return CompressionCodec.fromName(value)
                .orElseThrow(() -> OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                        "Invalid value '%s' for %s: use none, lz4 or zstd", value, key));
    }

    private static boolean parseBoolean(Map<String, String> properties, String key, boolean defaultValue)
    {
        String value = properties.get(key);
        if (value == null) {
            return defaultValue;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid value '%s' for %s: use true or false", value, key);
        };
    }
}
