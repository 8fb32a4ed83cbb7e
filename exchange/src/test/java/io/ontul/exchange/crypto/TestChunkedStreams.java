package io.ontul.exchange.crypto;

import static io.ontul.exchange.crypto.TestingFiles.mixedData;
import static io.ontul.exchange.crypto.TestingFiles.randomData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.kms.KeyManagementService;
import io.ontul.exchange.kms.LocalKeyManagementService;

public class TestChunkedStreams
{
    private static final int CHUNK = 4096;

    @TempDir
    static Path temporary;
    private static KeyManagementService keyManagement;
    private static TestingFiles files;

    @BeforeAll
    static void setUp()
            throws IOException
    {
        keyManagement = new LocalKeyManagementService(temporary.resolve("kms"), Optional.empty());
        files = new TestingFiles(keyManagement);
    }

    static Stream<Arguments> roundTripCases()
    {
        Stream.Builder<Arguments> cases = Stream.builder();
        for (boolean encrypted : new boolean[] {true, false}) {
            for (CompressionCodec codec : CompressionCodec.values()) {
                for (int size : new int[] {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, CHUNK * 7 / 2}) {
                    cases.add(Arguments.of(encrypted, codec, size));
                }
            }
        }
        return cases.build();
    }

    @ParameterizedTest(name = "encrypted={0} codec={1} size={2}")
    @MethodSource("roundTripCases")
    void roundTrip(boolean encrypted, CompressionCodec codec, int size)
            throws IOException
    {
        byte[] data = mixedData(size, size);
        for (int writeSize : new int[] {1, 1000, CHUNK, 3 * CHUNK}) {
            byte[] file = files.write(encrypted, codec, CHUNK, data, writeSize);
            assertThat(files.readAll(file, "f", 777)).isEqualTo(data);
            assertThat(files.readAll(file, "f", 5 * CHUNK)).isEqualTo(data);
            assertThat(files.readByteByByte(file)).isEqualTo(data);
        }
    }

    @ParameterizedTest(name = "encrypted={0} codec={1} size={2}")
    @MethodSource("roundTripCases")
    void roundTripThroughByteBuffers(boolean encrypted, CompressionCodec codec, int size)
            throws IOException
    {
        // the channel side of the streams, which Arrow's IPC writer and reader use, with direct buffers as Arrow's are
        byte[] data = mixedData(size, size + 1);
        for (int writeSize : new int[] {1, 1000, CHUNK, 3 * CHUNK + 5}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ChunkedOutputStream stream = encrypted
                    ? ChunkedOutputStream.encrypted(out, "f", keyManagement, codec, CHUNK)
                    : ChunkedOutputStream.unencrypted(out, "f", codec, CHUNK)) {
                for (int offset = 0; offset < data.length; offset += writeSize) {
                    int count = Math.min(writeSize, data.length - offset);
                    ByteBuffer buffer = ByteBuffer.allocateDirect(count + 3);
                    buffer.position(3);
                    buffer.put(data, offset, count).position(3);
                    assertThat(stream.write(buffer)).isEqualTo(count);
                    assertThat(buffer.hasRemaining()).isFalse();
                }
                assertThat(stream.write(ByteBuffer.allocateDirect(0))).isZero();
            }
            byte[] file = out.toByteArray();
            assertThat(files.readAll(file, "f", 5 * CHUNK)).isEqualTo(data);
            for (int readSize : new int[] {777, 5 * CHUNK}) {
                try (ChunkedInputStream in = files.open(file, "f")) {
                    ByteArrayOutputStream read = new ByteArrayOutputStream();
                    ByteBuffer buffer = ByteBuffer.allocateDirect(readSize);
                    while (in.read(buffer.clear()) >= 0) {
                        byte[] part = new byte[buffer.flip().remaining()];
                        buffer.get(part);
                        read.write(part);
                    }
                    assertThat(read.toByteArray()).isEqualTo(data);
                    assertThat(in.read(buffer.clear())).isEqualTo(-1);
                }
            }
        }
    }

    @Test
    void chunkCountFollowsTheData()
            throws IOException
    {
        // Data ending on a chunk boundary needs no extra empty chunk: the last full one is final.
        assertThat(frames(new byte[0])).isEqualTo(1);
        assertThat(frames(new byte[CHUNK])).isEqualTo(1);
        assertThat(frames(new byte[CHUNK + 1])).isEqualTo(2);
        assertThat(frames(new byte[CHUNK * 3])).isEqualTo(3);
        assertThat(frames(new byte[CHUNK * 7 / 2])).isEqualTo(4);
    }

    private static int frames(byte[] data)
            throws IOException
    {
        return ChunkLayout.of(files.write(true, CompressionCodec.NONE, CHUNK, data, 100)).frames().size();
    }

    @Test
    void compressionShrinksCompressibleChunksAndKeepsOthersRaw()
            throws IOException
    {
        byte[] zeros = new byte[CHUNK * 4];
        byte[] random = randomData(CHUNK * 4, 1);
        int header = ChunkLayout.of(files.write(true, CompressionCodec.NONE, CHUNK, new byte[0], 1)).headerLength();
        for (CompressionCodec codec : new CompressionCodec[] {CompressionCodec.LZ4, CompressionCodec.ZSTD}) {
            byte[] small = files.write(true, codec, CHUNK, zeros, CHUNK);
            assertThat(small.length).isLessThan(CHUNK / 2);
            byte[] raw = files.write(true, codec, CHUNK, random, CHUNK);
            // Incompressible chunks are stored raw: only the frame and tag overhead is added.
            assertThat(raw.length).isEqualTo(header + random.length + 4 * (ExchangeFileFormat.FRAME_HEADER_BYTES + 16));
            assertThat(files.readAll(small, "f", CHUNK)).isEqualTo(zeros);
            assertThat(files.readAll(raw, "f", CHUNK)).isEqualTo(random);
        }
    }

    @Test
    void buffersGrowFromSmallToAFullChunk()
            throws IOException
    {
        // buffers start at INITIAL_BUFFER_BYTES; a final chunk of zeros decompresses to far more
        // than its compressed length suggests, so the reader retries in a full chunk's buffer
        int chunk = ExchangeFileFormat.DEFAULT_CHUNK_SIZE;
        int initial = ExchangeFileFormat.INITIAL_BUFFER_BYTES;
        for (CompressionCodec codec : CompressionCodec.values()) {
            for (int size : new int[] {100, initial - 1, initial, initial + 1, 300_000, chunk, chunk + 300_000}) {
                for (byte[] data : new byte[][] {new byte[size], mixedData(size, size)}) {
                    for (int writeSize : new int[] {1000, 3 * chunk}) {
                        byte[] file = files.write(true, codec, chunk, data, writeSize);
                        assertThat(files.readAll(file, "f", 1 << 16)).as("%s, %s bytes, writes of %s", codec, size, writeSize).isEqualTo(data);
                    }
                }
            }
        }
    }

    @Test
    void expectIsOnlyAHint()
            throws IOException
    {
        // whatever size is announced, the same bytes make the same chunks and read back
        byte[] data = mixedData(CHUNK * 2 + 300, 11);
        for (CompressionCodec codec : CompressionCodec.values()) {
            List<Integer> layout = null;
            for (long hint : new long[] {-1, 0, 1, 500, CHUNK - 1, CHUNK, 10L * CHUNK}) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (ChunkedOutputStream stream = ChunkedOutputStream.unencrypted(out, "f", codec, CHUNK)) {
                    int offset = 0;
                    for (int piece : new int[] {700, CHUNK, 0, 300}) {
                        if (hint >= 0) {
                            stream.expect(hint);
                        }
                        stream.write(data, offset, piece);
                        offset += piece;
                        stream.endChunk();
                    }
                    stream.expect(hint);
                    stream.write(data, offset, data.length - offset);
                }
                byte[] file = out.toByteArray();
                assertThat(files.readAll(file, "f", 333)).as("%s, hint %s", codec, hint).isEqualTo(data);
                List<Integer> frames = ChunkLayout.of(file).frames().stream().map(ChunkLayout.Frame::length).toList();
                if (layout == null) {
                    layout = frames;
                }
                assertThat(frames).as("%s, hint %s", codec, hint).isEqualTo(layout);
            }
        }
    }

    @Test
    void endChunkSealsWhatIsWrittenAndTheStreamGoesOn()
            throws IOException
    {
        // a stream kept open across small writes, each ended as a short chunk of its own: the
        // bytes reach the underlying stream at once and read back as one stream
        byte[] data = mixedData(CHUNK * 5 / 2, 7);
        for (boolean encrypted : new boolean[] {true, false}) {
            for (CompressionCodec codec : CompressionCodec.values()) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int[] pieces = {10, CHUNK - 10, 1, 0, CHUNK + 500, 7};
                try (ChunkedOutputStream stream = encrypted
                        ? ChunkedOutputStream.encrypted(out, "f", keyManagement, codec, CHUNK)
                        : ChunkedOutputStream.unencrypted(out, "f", codec, CHUNK)) {
                    int offset = 0;
                    for (int piece : pieces) {
                        stream.write(data, offset, piece);
                        offset += piece;
                        int before = out.size();
                        stream.endChunk();
                        if (piece == 0) {
                            assertThat(out.size()).as("nothing to end: no chunk").isEqualTo(before);
                        }
                        else {
                            assertThat(out.size()).as("ended chunk written out").isGreaterThan(before);
                        }
                    }
                    stream.write(data, offset, data.length - offset);
                }
                byte[] file = out.toByteArray();
                assertThat(files.readAll(file, "f", 777)).as("encrypted=%s %s", encrypted, codec).isEqualTo(data);
                assertThat(files.readByteByByte(file)).isEqualTo(data);
                // the piece larger than a chunk fills one and ends the rest: 6 frames, then the final one
                assertThat(ChunkLayout.of(file).frames()).hasSize(7);
            }
        }
    }

    @Test
    void defaultChunkSizeWithSeveralMegabytes()
            throws IOException
    {
        byte[] data = mixedData(5 * (1 << 20) + 12345, 42);
        for (CompressionCodec codec : CompressionCodec.values()) {
            byte[] file = files.write(true, codec, ExchangeFileFormat.DEFAULT_CHUNK_SIZE, data, 300_000);
            assertThat(ChunkLayout.of(file).frames()).hasSize(6);
            assertThat(files.readAll(file, "big", 1 << 16)).isEqualTo(data);
        }
    }

    @Test
    void encryptedFilesHideTheDataAndRecordTheMasterKey()
            throws IOException
    {
        byte[] data = "the quick brown fox jumps over the lazy dog ".repeat(200).getBytes(StandardCharsets.US_ASCII);
        byte[] file = files.write(true, CompressionCodec.NONE, CHUNK, data, data.length);
        assertThat(new String(file, StandardCharsets.ISO_8859_1)).startsWith("ONTULENC").doesNotContain("quick brown");
        try (ChunkedInputStream in = files.open(file, "f")) {
            assertThat(in.isEncrypted()).isTrue();
            assertThat(in.masterKey()).contains(keyManagement.currentMasterKey());
        }
        // The same content twice gives different files: a fresh data key and nonce prefix per file.
        assertThat(files.write(true, CompressionCodec.NONE, CHUNK, data, data.length)).isNotEqualTo(file);
    }

    @Test
    void unencryptedFilesSayWhatTheyAre()
            throws IOException
    {
        byte[] file = files.write(false, CompressionCodec.NONE, CHUNK, "plain".getBytes(StandardCharsets.US_ASCII), 5);
        assertThat(new String(file, StandardCharsets.ISO_8859_1)).startsWith("ONTULPLN").contains("plain");
        try (ChunkedInputStream in = files.open(file, "f")) {
            assertThat(in.isEncrypted()).isFalse();
            assertThat(in.masterKey()).isEmpty();
        }
    }

    @Test
    void abortedFileReadsAsTruncated()
            throws IOException
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChunkedOutputStream stream = ChunkedOutputStream.encrypted(out, "f", keyManagement, CompressionCodec.LZ4, CHUNK);
        stream.write(mixedData(CHUNK * 2 + 10, 5));
        stream.abort();
        stream.close();
        files.assertFails(out.toByteArray(), "f", "f: truncated after chunk 1 (no final chunk)");
    }

    @Test
    void finishLeavesTheUnderlyingStreamOpenAndEndsWrites()
            throws IOException
    {
        ClosingTracker out = new ClosingTracker();
        ChunkedOutputStream stream = ChunkedOutputStream.unencrypted(out, "spill-1", CompressionCodec.NONE, CHUNK);
        stream.write(7);
        stream.finish();
        assertThat(out.closed).isFalse();
        assertThatThrownBy(() -> stream.write(8))
                .isInstanceOf(ExchangeFileException.class)
                .hasMessage("spill-1: file is already finished");
        stream.close();
        assertThat(out.closed).isTrue();
        assertThat(files.readAll(out.toByteArray(), "f", 10)).containsExactly(7);
    }

    @Test
    void invalidChunkSizeIsRefused()
    {
        assertThatThrownBy(() -> ChunkedOutputStream.unencrypted(new ByteArrayOutputStream(), "f", CompressionCodec.NONE, 100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("chunk size must be between 1024 and 16777216 bytes: 100");
    }

    private static final class ClosingTracker
            extends ByteArrayOutputStream
    {
        boolean closed;

        @Override
        public void close()
        {
            closed = true;
        }
    }
}
