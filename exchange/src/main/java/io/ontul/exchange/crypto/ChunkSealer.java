package io.ontul.exchange.crypto;

import java.io.IOException;

/**
 * Protects one chunk of an exchange file: binds it to the file's header, its index and its flags,
 * so a chunk moved to another place or file, or altered, fails {@link #open}. One instance serves
 * one stream (one thread).
 */
interface ChunkSealer
{
    /** Bytes {@link #seal} adds to a chunk. */
    int overhead();

    /**
     * Seals {@code input[offset, offset + length)} into {@code output} at {@code outputOffset}
     * (room for length + {@link #overhead()}); returns the sealed length.
     */
    int seal(long index, byte flags, byte[] input, int offset, int length, byte[] output, int outputOffset)
            throws IOException;

    /**
     * Checks and unseals a chunk into {@code output} at {@code outputOffset}; returns the data
     * length.
     *
     * @throws ExchangeFileException naming the file and the chunk if it does not check out
     */
    int open(long index, byte flags, byte[] input, int offset, int length, byte[] output, int outputOffset)
            throws IOException;
}
