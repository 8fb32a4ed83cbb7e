package io.ontul.exchange.crypto;

import static io.ontul.exchange.crypto.ExchangeFileFormat.FLAG_COMPRESSED;
import static io.ontul.exchange.crypto.ExchangeFileFormat.FLAG_FINAL;
import static io.ontul.exchange.crypto.ExchangeFileFormat.FRAME_HEADER_BYTES;
import static io.ontul.exchange.crypto.ExchangeFileFormat.KNOWN_FLAGS;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

import io.ontul.exchange.compression.ChunkCompressor;
import io.ontul.exchange.kms.KeyManagementService;
import io.ontul.exchange.kms.MasterKeyVersion;

/**
 * Reads an exchange file ({@link ExchangeFileFormat}) one chunk at a time: no byte is returned
 * before its chunk has been authenticated, and memory use is about three chunks whatever the file
 * size. Reaching the end without a final chunk, or finding bytes after it, is an error, so a
 * reader that gets -1 has seen the whole file as written. Not thread-safe.
 */
public final class ChunkedInputStream
        extends InputStream
        implements ReadableByteChannel
{
    private final InputStream in;
    private final String fileName;
    private final FileHeader header;
    private final ChunkSealer sealer;
    private final Optional<ChunkCompressor> compressor;
    private final int chunkSize;
    // sized by the chunks read, up to a chunk's full size: a small file never pays for more
    private byte[] frame = new byte[0];
    private byte[] opened = new byte[0];
    private byte[] decompressed = new byte[0];
    private final byte[] frameHeader = new byte[FRAME_HEADER_BYTES];
    private byte[] current;
    private int position;
    private int limit;
    private long chunkIndex;
    private boolean finalChunkRead;
    private boolean failed;
    private boolean closed;

    private ChunkedInputStream(InputStream in, String fileName, FileHeader header, ChunkSealer sealer)
    {
        this.in = in;
        this.fileName = fileName;
        this.header = header;
        this.sealer = sealer;
        this.compressor = header.codec().newCompressor();
        this.chunkSize = header.chunkSize();
    }

    /**
     * Reads the header of the exchange file on {@code in} and unwraps its data key.
     *
     * @param fileName names the file in error messages
     * @param keyManagement unwraps the data key of encrypted files; empty if none is configured
     * @param requireEncryption refuse unencrypted files (encryption is enabled: an unencrypted
     * file could have been planted)
     * @throws ExchangeFileException if the file is not an exchange file, has an unsupported
     * version or a corrupted header, its data key cannot be unwrapped, or it is unencrypted while
     * encryption is required
     */
    public static ChunkedInputStream open(InputStream in, String fileName, Optional<KeyManagementService> keyManagement, boolean requireEncryption)
            throws IOException
    {
        requireNonNull(in, "in is null");
        requireNonNull(fileName, "fileName is null");
        requireNonNull(keyManagement, "keyManagement is null");
        FileHeader header = FileHeader.read(in, fileName);
        if (header.encryption().isEmpty()) {
            if (requireEncryption) {
                throw new ExchangeFileException(fileName, fileName + " is not encrypted, but exchange encryption is enabled (ontul.exchange.encryption.enabled=true): refusing to read it");
            }
            return new ChunkedInputStream(in, fileName, header, new Crc32cChunkSealer(fileName, header.bytes()));
        }
        FileHeader.Encryption encryption = header.encryption().get();
        if (keyManagement.isEmpty()) {
            throw new ExchangeFileException(fileName, fileName + " is encrypted, but no key management service is configured to unwrap its data key");
        }
        byte[] dataKey;
        try {
            dataKey = keyManagement.get().unwrapDataKey(encryption.wrappedKey());
        }
        catch (IOException e) {
            throw new ExchangeFileException(fileName, "Cannot unwrap data key of " + fileName + ": " + e.getMessage(), e);
        }
        try {
            return new ChunkedInputStream(in, fileName, header, new AesGcmChunkSealer(fileName, dataKey, encryption.noncePrefix(), header.bytes()));
        }
        finally {
            Arrays.fill(dataKey, (byte) 0);
        }
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
    public int read()
            throws IOException
    {
        if (!fill()) {
            return -1;
        }
        return current[position++] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length)
            throws IOException
    {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int count = Math.min(length, limit - position);
        System.arraycopy(current, position, buffer, offset, count);
        position += count;
        return count;
    }

    /**
     * Reads into {@code target} straight from the current chunk (one copy, where reading through
     * {@link java.nio.channels.Channels#newChannel} copies twice): Arrow's IPC reader loads
     * batches this way ({@link java.nio.channels.ReadableByteChannel}).
     */
    @Override
    public int read(ByteBuffer target)
            throws IOException
    {
        if (!target.hasRemaining()) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int count = Math.min(target.remaining(), limit - position);
        target.put(current, position, count);
        position += count;
        return count;
    }

    @Override
    public boolean isOpen()
    {
        return !closed;
    }

    @Override
    public int available()
    {
        return closed ? 0 : limit - position;
    }

    @Override
    public void close()
            throws IOException
    {
        if (closed) {
            return;
        }
        closed = true;
        compressor.ifPresent(ChunkCompressor::close);
        in.close();
    }

    /** Makes data available; false at the verified end of the file. */
    private boolean fill()
            throws IOException
    {
        if (closed) {
            throw new ExchangeFileException(fileName, fileName + ": stream is closed");
        }
        if (failed) {
            throw new ExchangeFileException(fileName, fileName + ": an earlier read failed");
        }
        while (position == limit) {
            if (finalChunkRead) {
                return false;
            }
            try {
                readChunk();
            }
            catch (IOException | RuntimeException e) {
                failed = true;
                throw e;
            }
        }
        return true;
    }

    private void readChunk()
            throws IOException
    {
        int headerLength = in.readNBytes(frameHeader, 0, FRAME_HEADER_BYTES);
        if (headerLength == 0) {
            String after = chunkIndex == 0 ? "the header" : "chunk " + (chunkIndex - 1);
            throw new ExchangeFileException(fileName, fileName + ": truncated after " + after + " (no final chunk)");
        }
        if (headerLength < FRAME_HEADER_BYTES) {
            throw truncatedIn();
        }
        ByteBuffer frameHeaderBuffer = ByteBuffer.wrap(frameHeader);
        byte flags = frameHeaderBuffer.get();
        int sealedLength = frameHeaderBuffer.getInt();
        if (sealedLength < sealer.overhead() || sealedLength > chunkSize + sealer.overhead()) {
            throw new ExchangeFileException(fileName, fileName + ": chunk " + chunkIndex + " has an invalid length " + sealedLength + " (corrupted)");
        }
        if (frame.length < sealedLength) {
            frame = new byte[sealedLength];
            opened = new byte[sealedLength];
        }
        if (in.readNBytes(frame, 0, sealedLength) < sealedLength) {
            throw truncatedIn();
        }
        int dataLength = sealer.open(chunkIndex, flags, frame, 0, sealedLength, opened, 0);
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw new ExchangeFileException(fileName, fileName + ": chunk " + chunkIndex + " has unknown flags " + (flags & 0xFF) + " (written by a newer Ontul?)");
        }
        if ((flags & FLAG_COMPRESSED) != 0) {
            if (compressor.isEmpty()) {
                throw new ExchangeFileException(fileName, fileName + ": chunk " + chunkIndex + " is marked compressed, but the file has no compression codec (corrupted)");
            }
            limit = decompress(dataLength);
            current = decompressed;
        }
        else {
            current = opened;
            limit = dataLength;
        }
        position = 0;
        if ((flags & FLAG_FINAL) != 0) {
            finalChunkRead = true;
            if (in.read() != -1) {
                throw new ExchangeFileException(fileName, fileName + ": data after final chunk " + chunkIndex);
            }
        }
        chunkIndex++;
    }

    /**
     * Decompresses the opened chunk, whose length is not stored: first into a buffer sized from
     * its compressed length (four times it, at least {@link ExchangeFileFormat#INITIAL_BUFFER_BYTES}),
     * then, if it does not fit, into a full chunk's, kept for the rest of the stream. Files of
     * short chunks ({@link ChunkedOutputStream#endChunk}, e.g. runs of a partitioned spill) thus
     * never allocate a full chunk's buffer each time they are read.
     */
    private int decompress(int dataLength)
            throws IOException
    {
        if (decompressed.length < chunkSize && decompressed.length < 4L * dataLength) {
            decompressed = new byte[(int) Math.min(chunkSize, Math.max(ExchangeFileFormat.INITIAL_BUFFER_BYTES, 4L * dataLength))];
        }
        while (true) {
            try {
                return compressor.get().decompress(opened, 0, dataLength, decompressed, 0, decompressed.length);
            }
            catch (IOException e) {
                if (decompressed.length >= chunkSize) {
                    throw new ExchangeFileException(fileName, fileName + ": chunk " + chunkIndex + " cannot be decompressed: " + e.getMessage(), e);
                }
                decompressed = new byte[chunkSize];
            }
        }
    }

    private ExchangeFileException truncatedIn()
    {
        return new ExchangeFileException(fileName, fileName + ": truncated in chunk " + chunkIndex);
    }
}
