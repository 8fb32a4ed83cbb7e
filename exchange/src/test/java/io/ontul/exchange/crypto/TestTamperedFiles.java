package io.ontul.exchange.crypto;

import static io.ontul.exchange.crypto.TestingFiles.mixedData;
import static io.ontul.exchange.crypto.TestingFiles.randomData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.ChunkLayout.Frame;
import io.ontul.exchange.kms.LocalKeyManagementService;

/**
 * Every way a stored file can be altered must fail with a message naming the file and, where it
 * applies, the chunk.
 */
public class TestTamperedFiles
{
    private static final int CHUNK = 4096;
    private static final String NAME = "spill/query-7/part-3.bin";

    @TempDir
    static Path temporary;
    private static TestingFiles files;
    private static byte[] data;
    private static byte[] file;
    private static ChunkLayout layout;

    @BeforeAll
    static void setUp()
            throws IOException
    {
        files = new TestingFiles(new LocalKeyManagementService(temporary.resolve("kms"), Optional.empty()));
        // 3.5 chunks of random data: four chunks, the first three of equal size.
        data = randomData(CHUNK * 7 / 2, 3);
        file = files.write(true, CompressionCodec.LZ4, CHUNK, data, CHUNK);
        layout = ChunkLayout.of(file);
        assertThat(layout.frames()).hasSize(4);
        assertThat(files.readAll(file, NAME, 1000)).isEqualTo(data);
    }

    @Test
    void everyHeaderByteIsProtected()
    {
        for (int position = 0; position < layout.headerLength(); position++) {
            byte[] tampered = flip(file, position);
            assertThatThrownBy(() -> files.readAll(tampered, NAME, 1000))
                    .as("byte %s of the header", position)
                    .isInstanceOf(ExchangeFileException.class)
                    .hasMessageContaining(NAME);
        }
    }

    @Test
    void headerFieldsFailWithTheirOwnMessage()
    {
        files.assertFails(flip(file, 0), NAME, "Not an Ontul encrypted file: " + NAME);
        files.assertFails(flip(file, 8), NAME, NAME + ": unsupported format version 0 (this Ontul reads version 1)");
        files.assertFails(withByte(file, 9, 77), NAME, NAME + ": unknown compression codec id 77 (corrupted header?)");
        // Codec LZ4 (1) read as NONE (0): the header no longer matches the one the chunks were sealed with.
        files.assertFails(flip(file, 9), NAME, NAME + ": chunk 0 failed authentication (tampered, reordered or wrong key)");
        files.assertFails(withByte(file, 10, 0x7F), NAME, NAME + ": invalid chunk size 2130710528 (corrupted header)");
        files.assertFails(flip(file, 12), NAME, NAME + ": chunk 0 failed authentication (tampered, reordered or wrong key)");
        // Nonce prefix.
        files.assertFails(flip(file, 14), NAME, NAME + ": chunk 0 failed authentication (tampered, reordered or wrong key)");
        // Master key id "local" becomes "mocal".
        files.assertFails(flip(file, 24), NAME, "Cannot unwrap data key of " + NAME + ": master key 'mocal' is unknown: the local key management service has only 'local'");
        // Master key version 1 becomes 9 or 0.
        files.assertFails(withByte(file, 32, 9), NAME, "Cannot unwrap data key of " + NAME + ": master key local version 9 does not exist in key files in " + temporary.resolve("kms"));
        files.assertFails(withByte(file, 32, 0), NAME, NAME + ": invalid master key version 0 (corrupted header)");
        // Wrapped data key: its scheme byte and its last byte (the tag).
        files.assertFails(flip(file, 35), NAME, "Cannot unwrap data key of " + NAME + ": wrong master key or corrupted header");
        files.assertFails(flip(file, layout.headerLength() - 1), NAME, "Cannot unwrap data key of " + NAME + ": wrong master key or corrupted header");
        files.assertFails(Arrays.copyOf(file, 20), NAME, NAME + ": truncated in the header");
    }

    @Test
    void flippedCiphertextOrTagFailsAuthentication()
    {
        List<Frame> frames = layout.frames();
        for (int chunk = 0; chunk < frames.size(); chunk++) {
            Frame frame = frames.get(chunk);
            String message = NAME + ": chunk " + chunk + " failed authentication (tampered, reordered or wrong key)";
            files.assertFails(flip(file, frame.offset() + ExchangeFileFormat.FRAME_HEADER_BYTES), NAME, message);
            files.assertFails(flip(file, frame.offset() + frame.length() / 2), NAME, message);
            files.assertFails(flip(file, frame.end() - 1), NAME, message);
            files.assertFails(flip(file, frame.end() - 16), NAME, message);
        }
    }

    @Test
    void alteredFlagsFailAuthentication()
    {
        List<Frame> frames = layout.frames();
        // Mark chunk 1 final (and so make the file look shorter), or the final chunk non-final.
        files.assertFails(flip(file, frames.get(1).offset()), NAME, NAME + ": chunk 1 failed authentication (tampered, reordered or wrong key)");
        files.assertFails(flip(file, frames.get(3).offset()), NAME, NAME + ": chunk 3 failed authentication (tampered, reordered or wrong key)");
        // Claim chunk 2 is compressed.
        files.assertFails(withByte(file, frames.get(2).offset(), ExchangeFileFormat.FLAG_COMPRESSED), NAME, NAME + ": chunk 2 failed authentication (tampered, reordered or wrong key)");
    }

    @Test
    void alteredLengthsAreDetected()
    {
        Frame frame = layout.frames().get(1);
        files.assertFails(withByte(file, frame.offset() + 1, 0x7F), NAME, NAME + ": chunk 1 has an invalid length 2130710544 (corrupted)");
        files.assertFails(withByte(withByte(file, frame.offset() + 3, 0), frame.offset() + 4, 15), NAME, NAME + ": chunk 1 has an invalid length 15 (corrupted)");
        files.assertFails(withByte(file, frame.offset() + 4, 0), NAME, NAME + ": chunk 1 failed authentication (tampered, reordered or wrong key)");
    }

    @Test
    void truncationAtAChunkBoundaryIsDetected()
    {
        List<Frame> frames = layout.frames();
        files.assertFails(Arrays.copyOf(file, layout.headerLength()), NAME, NAME + ": truncated after the header (no final chunk)");
        for (int chunk = 0; chunk < frames.size() - 1; chunk++) {
            files.assertFails(Arrays.copyOf(file, frames.get(chunk).end()), NAME, NAME + ": truncated after chunk " + chunk + " (no final chunk)");
        }
    }

    @Test
    void truncationInsideAChunkIsDetected()
    {
        List<Frame> frames = layout.frames();
        for (int chunk = 0; chunk < frames.size(); chunk++) {
            Frame frame = frames.get(chunk);
            for (int cut : new int[] {1, 3, ExchangeFileFormat.FRAME_HEADER_BYTES, frame.length() / 2, frame.length() - 1}) {
                files.assertFails(Arrays.copyOf(file, frame.offset() + cut), NAME, NAME + ": truncated in chunk " + chunk);
            }
        }
    }

    @Test
    void dataIsNotReturnedBeforeItsChunkIsAuthenticated()
            throws IOException
    {
        byte[] tampered = flip(file, layout.frames().get(0).end() - 1);
        try (ChunkedInputStream in = files.open(tampered, NAME)) {
            assertThatThrownBy(in::read)
                    .isInstanceOf(ExchangeFileException.class)
                    .hasMessage(NAME + ": chunk 0 failed authentication (tampered, reordered or wrong key)");
            assertThatThrownBy(in::read)
                    .isInstanceOf(ExchangeFileException.class)
                    .hasMessage(NAME + ": an earlier read failed");
        }
    }

    @Test
    void swappedChunksAreDetected()
    {
        List<Frame> frames = layout.frames();
        files.assertFails(swap(file, frames.get(1), frames.get(2)), NAME, NAME + ": chunk 1 failed authentication (tampered, reordered or wrong key)");
        files.assertFails(swap(file, frames.get(0), frames.get(1)), NAME, NAME + ": chunk 0 failed authentication (tampered, reordered or wrong key)");
        // A chunk replayed in place of the next one.
        files.assertFails(replace(file, frames.get(2), frames.get(1)), NAME, NAME + ": chunk 2 failed authentication (tampered, reordered or wrong key)");
    }

    @Test
    void chunksOfAnotherFileAreDetected()
            throws IOException
    {
        byte[] other = files.write(true, CompressionCodec.LZ4, CHUNK, data, CHUNK);
        Frame frame = layout.frames().get(1);
        byte[] spliced = file.clone();
        System.arraycopy(other, frame.offset(), spliced, frame.offset(), frame.length());
        files.assertFails(spliced, NAME, NAME + ": chunk 1 failed authentication (tampered, reordered or wrong key)");
    }

    @Test
    void dataAfterTheFinalChunkIsDetected()
    {
        files.assertFails(concat(file, new byte[] {0}), NAME, NAME + ": data after final chunk 3");
        files.assertFails(concat(file, "garbage".getBytes(StandardCharsets.US_ASCII)), NAME, NAME + ": data after final chunk 3");
        // A whole second copy of the last chunk.
        Frame last = layout.frames().get(3);
        files.assertFails(concat(file, Arrays.copyOfRange(file, last.offset(), last.end())), NAME, NAME + ": data after final chunk 3");
    }

    @Test
    void foreignFilesAreRefused()
    {
        files.assertFails(new byte[0], "empty.bin", "Not an Ontul encrypted file: empty.bin");
        files.assertFails(randomData(10_000, 9), "random.bin", "Not an Ontul encrypted file: random.bin");
        files.assertFails("id,name\n1,ontul\n".getBytes(StandardCharsets.US_ASCII), "table.csv", "Not an Ontul encrypted file: table.csv");
        files.assertFails("ONTUL".getBytes(StandardCharsets.US_ASCII), "short.bin", "Not an Ontul encrypted file: short.bin");
    }

    @Test
    void unencryptedFilesDetectCorruptionToo()
            throws IOException
    {
        byte[] plain = files.write(false, CompressionCodec.ZSTD, CHUNK, mixedData(CHUNK * 3, 4), CHUNK);
        ChunkLayout plainLayout = ChunkLayout.of(plain);
        List<Frame> frames = plainLayout.frames();
        assertThat(frames).hasSize(3);
        files.assertFails(flip(plain, frames.get(1).offset() + 10), NAME, NAME + ": chunk 1 failed its checksum (corrupted or reordered)");
        files.assertFails(flip(plain, frames.get(0).offset()), NAME, NAME + ": chunk 0 failed its checksum (corrupted or reordered)");
        files.assertFails(Arrays.copyOf(plain, frames.get(1).end()), NAME, NAME + ": truncated after chunk 1 (no final chunk)");
        files.assertFails(Arrays.copyOf(plain, frames.get(1).end() + 2), NAME, NAME + ": truncated in chunk 2");
        files.assertFails(concat(plain, new byte[] {1}), NAME, NAME + ": data after final chunk 2");
        files.assertFails(flip(plain, 8), NAME, NAME + ": unsupported format version 0 (this Ontul reads version 1)");
    }

    private static byte[] flip(byte[] bytes, int position)
    {
        byte[] copy = bytes.clone();
        copy[position] ^= 1;
        return copy;
    }

    private static byte[] withByte(byte[] bytes, int position, int value)
    {
        byte[] copy = bytes.clone();
        copy[position] = (byte) value;
        return copy;
    }

    private static byte[] concat(byte[] first, byte[] second)
    {
        byte[] result = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, result, first.length, second.length);
        return result;
    }

    private static byte[] swap(byte[] bytes, Frame first, Frame second)
    {
        assertThat(first.length()).isEqualTo(second.length());
        byte[] copy = bytes.clone();
        System.arraycopy(bytes, first.offset(), copy, second.offset(), first.length());
        System.arraycopy(bytes, second.offset(), copy, first.offset(), second.length());
        return copy;
    }

    private static byte[] replace(byte[] bytes, Frame target, Frame source)
    {
        assertThat(target.length()).isEqualTo(source.length());
        byte[] copy = bytes.clone();
        System.arraycopy(bytes, source.offset(), copy, target.offset(), source.length());
        return copy;
    }
}
