package io.ontul.exchange.crypto;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The unencrypted mode's protection: a CRC32C of header | i64 chunk index | flags | data after
 * each chunk. It catches corruption, truncation and reordering, not deliberate tampering.
 */
final class Crc32cChunkSealer
        implements ChunkSealer
{
    private static final int CHECKSUM_BYTES = 4;

    private final String fileName;
    private final byte[] headerBytes;
    private final CRC32C checksum = new CRC32C();
    private final ByteBuffer position = ByteBuffer.allocate(9);

    Crc32cChunkSealer(String fileName, byte[] headerBytes)
    {
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.headerBytes = requireNonNull(headerBytes, "headerBytes is null").clone();
    }

    @Override
    public int overhead()
    {
        return CHECKSUM_BYTES;
    }

    @Override
    public int seal(long index, byte flags, byte[] input, int offset, int length, byte[] output, int outputOffset)
    {
        System.arraycopy(input, offset, output, outputOffset, length);
        ByteBuffer.wrap(output, outputOffset + length, CHECKSUM_BYTES).putInt(checksum(index, flags, input, offset, length));
        return length + CHECKSUM_BYTES;
    }

    @Override
    public int open(long index, byte flags, byte[] input, int offset, int length, byte[] output, int outputOffset)
            throws IOException
    {
        int dataLength = length - CHECKSUM_BYTES;
        if (dataLength < 0 || ByteBuffer.wrap(input, offset + dataLength, CHECKSUM_BYTES).getInt() != checksum(index, flags, input, offset, dataLength)) {
            throw new ExchangeFileException(fileName, fileName + ": chunk " + index + " failed its checksum (corrupted or reordered)");
        }
        System.arraycopy(input, offset, output, outputOffset, dataLength);
        return dataLength;
    }

    private int checksum(long index, byte flags, byte[] data, int offset, int length)
    {
        checksum.reset();
        checksum.update(headerBytes);
        position.clear();
        position.putLong(index).put(flags).flip();
        checksum.update(position);
        checksum.update(data, offset, length);
        return (int) checksum.getValue();
    }
}
