package io.ontul.exchange.compression;

import java.io.IOException;

/**
 * Compresses and decompresses whole chunks between byte arrays. One instance serves one stream
 * (one thread) and may hold native state until {@link #close()}.
 */
public interface ChunkCompressor
        extends AutoCloseable
{
    /** Room {@link #compress} needs in the worst case for {@code length} input bytes. */
    int maxCompressedLength(int length);

    /**
     * Compresses {@code input[offset, offset + length)} into {@code output} starting at
     * {@code outputOffset}, which has at least {@link #maxCompressedLength} bytes of room.
     * Returns the compressed length.
     */
    int compress(byte[] input, int offset, int length, byte[] output, int outputOffset);

    /**
     * Decompresses {@code input[offset, offset + length)} into {@code output} starting at
     * {@code outputOffset}, writing at most {@code maxLength} bytes. Returns the decompressed
     * length.
     *
     * @throws IOException if the input is not valid compressed data or decompresses to more than
     * {@code maxLength} bytes
     */
    int decompress(byte[] input, int offset, int length, byte[] output, int outputOffset, int maxLength)
            throws IOException;

    @Override
    void close();
}
