package io.ontul.exchange.crypto;

import static io.ontul.exchange.crypto.ExchangeFileFormat.FLAG_COMPRESSED;
import static io.ontul.exchange.crypto.ExchangeFileFormat.FLAG_FINAL;
import static io.ontul.exchange.crypto.ExchangeFileFormat.FRAME_HEADER_BYTES;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

import io.ontul.exchange.compression.ChunkCompressor;
import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.kms.DataKey;
import io.ontul.exchange.kms.KeyManagementService;
import io.ontul.exchange.kms.MasterKeyVersion;

/**
 * Writes an exchange file ({@link ExchangeFileFormat}): the header at once, then a chunk each time
 * chunk-size bytes have been written and more follow (or, shorter, when {@link #endChunk()} is
 * called), and the final chunk on {@link #finish()} or {@link #close()}. Memory use is about
 * three chunks, whatever the file size.
 *
 * <p>{@link #flush()} flushes the underlying stream but never cuts a chunk short. A file is
 * complete only once {@link #finish()} or {@link #close()} returned; after a failure call
 * {@link #abort()} and delete the file. Not thread-safe.
 */
public final class ChunkedOutputStream
        extends OutputStream
        implements WritableByteChannel
{
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] EMPTY = new byte[0];

    private final OutputStream out;
    private final String fileName;
    private final FileHeader header;
    private final ChunkSealer sealer;
    // made on first use, dropped by endChunk (a zstd context holds native memory); null without compression
    private ChunkCompressor compressor;
    private final int chunkSize;
    // grown as data comes, up to chunkSize: a small file never pays for a chunk's full buffers
    private byte[] chunk;
    private byte[] compressed = EMPTY;
    private byte[] frame = EMPTY;
    private int chunkLength;
    private long chunkIndex;
    private boolean finished;
    private boolean failed;
    private boolean closed;

    private ChunkedOutputStream(OutputStream out, String fileName, FileHeader header, ChunkSealer sealer)
            throws IOException
    {
        this.out = out;
        this.fileName = fileName;
        this.header = header;
        this.sealer = sealer;
        this.chunkSize = header.chunkSize();
        this.chunk = new byte[Math.min(chunkSize, ExchangeFileFormat.INITIAL_BUFFER_BYTES)];
        try {
            out.write(header.bytes());
        }
        catch (IOException e) {
            failed = true;
            throw new ExchangeFileException(fileName, fileName + ": cannot write the header: " + e.getMessage(), e);
        }
    }

    /**
     * Starts an encrypted file on {@code out}: a fresh data key from {@code keyManagement},
     * wrapped into the header.
     *
     * @param fileName names the file in error messages
     */
    public static ChunkedOutputStream encrypted(OutputStream out, String fileName, KeyManagementService keyManagement, CompressionCodec codec, int chunkSize)
            throws IOException
    {
        requireNonNull(out, "out is null");
        requireNonNull(fileName, "fileName is null");
        requireNonNull(keyManagement, "keyManagement is null");
        requireNonNull(codec, "codec is null");
        ExchangeFileFormat.checkChunkSize(chunkSize);
        DataKey dataKey = keyManagement.generateDataKey();
        try {
            byte[] noncePrefix = new byte[ExchangeFileFormat.NONCE_PREFIX_BYTES];
            RANDOM.nextBytes(noncePrefix);
            FileHeader header = new FileHeader(codec, chunkSize, Optional.of(new FileHeader.Encryption(noncePrefix, dataKey.wrappedKey())));
            byte[] key = dataKey.plaintextKey();
            ChunkSealer sealer = new AesGcmChunkSealer(fileName, key, noncePrefix, header.bytes());
            Arrays.fill(key, (byte) 0);
            return new ChunkedOutputStream(out, fileName, header, sealer);
        }
        finally {
            dataKey.destroy();
        }
    }

    /**
     * Starts an unencrypted file on {@code out}: same chunking and compression, chunks protected
     * by a CRC32C only.
     */
    public static ChunkedOutputStream unencrypted(OutputStream out, String fileName, CompressionCodec codec, int chunkSize)
            throws IOException
    {
        requireNonNull(out, "out is null");
        requireNonNull(fileName, "fileName is null");
        requireNonNull(codec, "codec is null");
        ExchangeFileFormat.checkChunkSize(chunkSize);
        FileHeader header = new FileHeader(codec, chunkSize, Optional.empty());
        return new ChunkedOutputStream(out, fileName, header, new Crc32cChunkSealer(fileName, header.bytes()));
    }

    public boolean isEncrypted()
    {
        return header.encryption().isPresent();
    }

    /** The master key version that wraps this file's data key; empty if unencrypted. */
    public Optional<MasterKeyVersion> masterKey()
    {
        return header.encryption().map(encryption -> encryption.wrappedKey().masterKey());
    }

    @Override
    public void write(int value)
            throws IOException
    {
        checkWritable();
        makeRoom();
        chunk[chunkLength++] = (byte) value;
    }

    @Override
    public void write(byte[] buffer, int offset, int length)
            throws IOException
    {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        checkWritable();
        while (length > 0) {
            makeRoom();
            int count = Math.min(length, chunk.length - chunkLength);
            System.arraycopy(buffer, offset, chunk, chunkLength, count);
            chunkLength += count;
            offset += count;
            length -= count;
        }
    }

    /**
     * Writes the rest of {@code source} straight into the chunk buffer (one copy, where writing
     * through {@link java.nio.channels.Channels#newChannel} copies twice): Arrow's IPC writer
     * writes batches' buffers this way ({@link WritableByteChannel}).
     */
    @Override
    public int write(ByteBuffer source)
            throws IOException
    {
        checkWritable();
        int written = source.remaining();
        while (source.hasRemaining()) {
            makeRoom(source.remaining());
            int count = Math.min(source.remaining(), chunk.length - chunkLength);
            source.get(chunk, chunkLength, count);
            chunkLength += count;
        }
        return written;
    }

    /**
     * Tells the stream that about {@code bytes} are written next, so that the chunk buffer grows
     * once to hold them (up to the chunk size) rather than doubling as they come: an emptied
     * buffer ({@link #endChunk()}) to just that size, not to
     * {@link ExchangeFileFormat#INITIAL_BUFFER_BYTES} and up; a buffer in use at least doubles,
     * as when it fills. A hint only: writing more or less is fine.
     */
    public void expect(long bytes)
    {
        long wanted = chunkLength + Math.max(0, bytes);
        if (wanted > chunk.length && chunk.length < chunkSize) {
            chunk = Arrays.copyOf(chunk, (int) Math.min(chunkSize, Math.max(wanted, 2L * chunk.length)));
        }
    }

    @Override
    public boolean isOpen()
    {
        return !closed;
    }

    /** Flushes the underlying stream; buffered data stays until its chunk is full or the end. */
    @Override
    public void flush()
            throws IOException
    {
        checkWritable();
        out.flush();
    }

    /**
     * Seals what was written since the last chunk as a chunk of its own, however short, writes
     * it out and flushes, then gives back the buffers (made again by the next write). For a
     * stream kept open across many small writes, such as one per partition of a partitioned
     * spill: between writes it then holds no data, no buffers and no compressor (made again when
     * needed). Readers see the same bytes.
     */
    public void endChunk()
            throws IOException
    {
        checkWritable();
        if (chunkLength > 0) {
            writeChunk(false);
        }
        out.flush();
        chunk = EMPTY;
        compressed = EMPTY;
        frame = EMPTY;
        closeCompressor();
    }

    /** The chunk compressor, made when first needed; null when the file is not compressed. */
    private ChunkCompressor compressor()
    {
        if (compressor == null) {
            compressor = header.codec().newCompressor().orElse(null);
        }
        return compressor;
    }

    private void closeCompressor()
    {
        if (compressor != null) {
            compressor.close();
            compressor = null;
        }
    }

    /**
     * Writes the final chunk and flushes, leaving the underlying stream open (e.g. to fsync it).
     * Idempotent.
     */
    public void finish()
            throws IOException
    {
        if (finished) {
            return;
        }
        checkWritable();
        writeChunk(true);
        finished = true;
        out.flush();
    }

    /** Completes the file ({@link #finish()}) and closes the underlying stream. */
    @Override
    public void close()
            throws IOException
    {
        if (closed) {
            return;
        }
        try {
            if (!failed) {
                finish();
            }
        }
        finally {
            closeQuietly();
        }
    }

    /**
     * Closes the underlying stream without writing the final chunk: a reader will report the file
     * as truncated. Use it when writing failed half-way.
     */
    public void abort()
            throws IOException
    {
        if (closed) {
            return;
        }
        failed = true;
        closeQuietly();
    }

    private void closeQuietly()
            throws IOException
    {
        closed = true;
        closeCompressor();
        out.close();
    }

    private void checkWritable()
            throws IOException
    {
        if (closed) {
            throw new ExchangeFileException(fileName, fileName + ": stream is closed");
        }
        if (failed) {
            throw new ExchangeFileException(fileName, fileName + ": an earlier write failed; abort and delete the file");
        }
        if (finished) {
            throw new ExchangeFileException(fileName, fileName + ": file is already finished");
        }
    }

    private void makeRoom()
            throws IOException
    {
        makeRoom(1);
    }

    /**
     * Grows the chunk buffer (at least doubling it, or to {@code wanted} bytes more, up to the
     * chunk size), or writes the chunk once it is full.
     */
    private void makeRoom(int wanted)
            throws IOException
    {
        if (chunkLength < chunk.length) {
            return;
        }
        if (chunk.length < chunkSize) {
            long size = Math.max(Math.max(ExchangeFileFormat.INITIAL_BUFFER_BYTES, 2L * chunk.length), (long) chunkLength + wanted);
            chunk = Arrays.copyOf(chunk, (int) Math.min(chunkSize, size));
            return;
        }
        // A full chunk is written only when more data follows, so that close() can mark the
        // last one final.
        writeChunk(false);
    }

    private void writeChunk(boolean last)
            throws IOException
    {
        if (chunkIndex >= ExchangeFileFormat.MAXIMUM_CHUNKS) {
            failed = true;
            throw new ExchangeFileException(fileName, fileName + ": file exceeds " + ExchangeFileFormat.MAXIMUM_CHUNKS + " chunks");
        }
        boolean written = false;
        try {
            byte[] data = chunk;
            int dataLength = chunkLength;
            int flags = last ? FLAG_FINAL : 0;
            ChunkCompressor codec = chunkLength > 0 ? compressor() : null;
            if (codec != null) {
                int room = codec.maxCompressedLength(chunkLength);
                if (compressed.length < room) {
                    compressed = new byte[room];
                }
                int compressedLength = codec.compress(chunk, 0, chunkLength, compressed, 0);
                // Keeping a chunk raw when compression does not help bounds every chunk by chunk size.
                if (compressedLength < chunkLength) {
                    data = compressed;
                    dataLength = compressedLength;
                    flags |= FLAG_COMPRESSED;
                }
            }
            if (frame.length < FRAME_HEADER_BYTES + dataLength + sealer.overhead()) {
                // sized for the chunk buffer: a stream that keeps its buffers seals every chunk in this one frame
                frame = new byte[FRAME_HEADER_BYTES + Math.max(chunk.length, dataLength) + sealer.overhead()];
            }
            int sealedLength = sealer.seal(chunkIndex, (byte) flags, data, 0, dataLength, frame, FRAME_HEADER_BYTES);
            ByteBuffer.wrap(frame, 0, FRAME_HEADER_BYTES).put((byte) flags).putInt(sealedLength);
            writeFrame(FRAME_HEADER_BYTES + sealedLength);
            written = true;
        }
        finally {
            if (!written) {
                failed = true;
            }
        }
        chunkIndex++;
        chunkLength = 0;
    }

    private void writeFrame(int length)
            throws IOException
    {
        try {
            out.write(frame, 0, length);
        }
        catch (IOException e) {
            throw new ExchangeFileException(fileName, fileName + ": cannot write chunk " + chunkIndex + ": " + e.getMessage(), e);
        }
    }
}
