package io.ontul.exchange.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

public class TestChunkCompressors
{
    @Test
    void codecsRoundTripAndRejectGarbage()
            throws IOException
    {
        byte[] input = "abcabcabcabc-ontul-".repeat(500).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (CompressionCodec codec : new CompressionCodec[] {CompressionCodec.LZ4, CompressionCodec.ZSTD}) {
            try (ChunkCompressor compressor = codec.newCompressor().orElseThrow()) {
                byte[] compressed = new byte[compressor.maxCompressedLength(input.length)];
                int compressedLength = compressor.compress(input, 0, input.length, compressed, 0);
                assertThat(compressedLength).isLessThan(input.length / 10);
                byte[] output = new byte[input.length];
                assertThat(compressor.decompress(compressed, 0, compressedLength, output, 0, output.length)).isEqualTo(input.length);
                assertThat(output).isEqualTo(input);
                // Output that would not fit is an error, never an overflow.
                assertThatThrownBy(() -> compressor.decompress(compressed, 0, compressedLength, new byte[100], 0, 100))
                        .isInstanceOf(IOException.class);
                byte[] garbage = new byte[64];
                Arrays.fill(garbage, (byte) 0xF3);
                assertThatThrownBy(() -> compressor.decompress(garbage, 0, garbage.length, output, 0, output.length))
                        .isInstanceOf(IOException.class);
            }
        }
    }

    @Test
    void namesAndIds()
    {
        assertThat(CompressionCodec.fromName(" LZ4 ")).contains(CompressionCodec.LZ4);
        assertThat(CompressionCodec.fromName("zstd")).contains(CompressionCodec.ZSTD);
        assertThat(CompressionCodec.fromName("gzip")).isEmpty();
        assertThat(CompressionCodec.fromId(0)).contains(CompressionCodec.NONE);
        assertThat(CompressionCodec.fromId(2)).contains(CompressionCodec.ZSTD);
        assertThat(CompressionCodec.fromId(3)).isEmpty();
        assertThat(CompressionCodec.NONE.newCompressor()).isEmpty();
    }
}
