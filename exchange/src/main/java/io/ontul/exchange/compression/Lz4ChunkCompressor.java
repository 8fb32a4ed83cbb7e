package io.ontul.exchange.compression;

import java.io.IOException;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 block compression: fast enough to pay for itself on a spill to disk.
 */
final class Lz4ChunkCompressor
        implements ChunkCompressor
{
    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();

    private final LZ4Compressor compressor = FACTORY.fastCompressor();
    // The safe decompressor checks bounds: never trust a length read from disk.
    private final LZ4SafeDecompressor decompressor = FACTORY.safeDecompressor();

    @Override
    public int maxCompressedLength(int length)
    {
        return compressor.maxCompressedLength(length);
    }

    @Override
    public int compress(byte[] input, int offset, int length, byte[] output, int outputOffset)
    {
        return compressor.compress(input, offset, length, output, outputOffset, output.length - outputOffset);
    }

    @Override
    public int decompress(byte[] input, int offset, int length, byte[] output, int outputOffset, int maxLength)
            throws IOException
    {
        try {
            return decompressor.decompress(input, offset, length, output, outputOffset, maxLength);
        }
        catch (LZ4Exception e) {
            throw new IOException("invalid LZ4 data: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {}
}
