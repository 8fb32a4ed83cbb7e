package io.ontul.exchange.compression;

import java.util.Locale;
import java.util.Optional;

/**
 * Compression applied to each chunk of an exchange file before it is encrypted. The id is stored
 * in file headers: never renumber.
 */
public enum CompressionCodec
{
    NONE(0),
    LZ4(1),
    ZSTD(2);

    private final int id;

    CompressionCodec(int id)
    {
        this.id = id;
    }

    public int id()
    {
        return id;
    }

    public static Optional<CompressionCodec> fromId(int id)
    {
        for (CompressionCodec codec : values()) {
            if (codec.id == id) {
                return Optional.of(codec);
            }
        }
        return Optional.empty();
    }

    /** Parses {@code none}, {@code lz4} or {@code zstd}, in any case. */
    public static Optional<CompressionCodec> fromName(String name)
    {
        for (CompressionCodec codec : values()) {
            if (codec.name().equals(name.trim().toUpperCase(Locale.ROOT))) {
                return Optional.of(codec);
            }
        }
        return Optional.empty();
    }

    /** A compressor for one stream; empty for {@link #NONE}. Close it with the stream. */
    public Optional<ChunkCompressor> newCompressor()
    {
        return switch (this) {
            case NONE -> Optional.empty();
            case LZ4 -> Optional.of(new Lz4ChunkCompressor());
            // Loads zstd's native library, so only when a file asks for it.
            case ZSTD -> Optional.of(new ZstdChunkCompressor());
        };
    }
}
