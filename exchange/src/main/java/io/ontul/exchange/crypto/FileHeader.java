package io.ontul.exchange.crypto;

import static io.ontul.exchange.crypto.ExchangeFileFormat.ENCRYPTED_MAGIC;
import static io.ontul.exchange.crypto.ExchangeFileFormat.FORMAT_VERSION;
import static io.ontul.exchange.crypto.ExchangeFileFormat.MAGIC_BYTES;
import static io.ontul.exchange.crypto.ExchangeFileFormat.MAXIMUM_CHUNK_SIZE;
import static io.ontul.exchange.crypto.ExchangeFileFormat.MINIMUM_CHUNK_SIZE;
import static io.ontul.exchange.crypto.ExchangeFileFormat.NONCE_PREFIX_BYTES;
import static io.ontul.exchange.crypto.ExchangeFileFormat.UNENCRYPTED_MAGIC;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.kms.MasterKeyVersion;
import io.ontul.exchange.kms.WrappedDataKey;

/**
 * The header of an exchange file (see {@link ExchangeFileFormat}), with its exact bytes, which
 * every chunk authenticates.
 */
final class FileHeader
{
    private static final int MAXIMUM_KEY_ID_BYTES = 1024;
    private static final int MAXIMUM_WRAPPED_KEY_BYTES = 8192;

    private final CompressionCodec codec;
    private final int chunkSize;
    private final Optional<Encryption> encryption;
    private final byte[] bytes;

    /** The encryption part of a header: present exactly for encrypted files. */
    record Encryption(byte[] noncePrefix, WrappedDataKey wrappedKey)
    {
        Encryption
        {
            requireNonNull(noncePrefix, "noncePrefix is null");
            requireNonNull(wrappedKey, "wrappedKey is null");
            if (noncePrefix.length != NONCE_PREFIX_BYTES) {
                throw new IllegalArgumentException("nonce prefix must be " + NONCE_PREFIX_BYTES + " bytes");
            }
        }
    }

    FileHeader(CompressionCodec codec, int chunkSize, Optional<Encryption> encryption)
    {
        this.codec = requireNonNull(codec, "codec is null");
        ExchangeFileFormat.checkChunkSize(chunkSize);
        this.chunkSize = chunkSize;
        this.encryption = requireNonNull(encryption, "encryption is null");
        this.bytes = serialize();
    }

    private FileHeader(CompressionCodec codec, int chunkSize, Optional<Encryption> encryption, byte[] bytes)
    {
        this.codec = codec;
        this.chunkSize = chunkSize;
        this.encryption = encryption;
        this.bytes = bytes;
    }

    CompressionCodec codec()
    {
        return codec;
    }

    int chunkSize()
    {
        return chunkSize;
    }

    Optional<Encryption> encryption()
    {
        return encryption;
    }

    byte[] bytes()
    {
        return bytes.clone();
    }

    private byte[] serialize()
    {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.write(encryption.isPresent() ? ENCRYPTED_MAGIC : UNENCRYPTED_MAGIC);
            out.writeByte(FORMAT_VERSION);
            out.writeByte(codec.id());
            out.writeInt(chunkSize);
            if (encryption.isPresent()) {
                Encryption header = encryption.get();
                MasterKeyVersion masterKey = header.wrappedKey().masterKey();
                byte[] keyId = masterKey.keyId().getBytes(StandardCharsets.UTF_8);
                byte[] wrapped = header.wrappedKey().wrappedBytes();
                if (keyId.length > MAXIMUM_KEY_ID_BYTES || wrapped.length > MAXIMUM_WRAPPED_KEY_BYTES) {
                    throw new IllegalArgumentException("master key id or wrapped data key too long for the header");
                }
                out.write(header.noncePrefix());
                out.writeShort(keyId.length);
                out.write(keyId);
                out.writeInt(masterKey.version());
                out.writeShort(wrapped.length);
                out.write(wrapped);
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        return buffer.toByteArray();
    }

    /**
     * Reads a header, consuming exactly its bytes.
     *
     * @throws ExchangeFileException if the stream is not an exchange file, has another format
     * version, or its header is truncated or invalid
     */
    static FileHeader read(InputStream input, String fileName)
            throws IOException
    {
        byte[] magic = input.readNBytes(MAGIC_BYTES);
        boolean encrypted = Arrays.equals(magic, ENCRYPTED_MAGIC);
        if (!encrypted && !Arrays.equals(magic, UNENCRYPTED_MAGIC)) {
            throw new ExchangeFileException(fileName, "Not an Ontul encrypted file: " + fileName);
        }
        RecordingInputStream recording = new RecordingInputStream(input);
        recording.record(magic);
        DataInputStream in = new DataInputStream(recording);
        try {
            int version = in.readUnsignedByte();
            if (version != FORMAT_VERSION) {
                throw new ExchangeFileException(fileName, fileName + ": unsupported format version " + version + " (this Ontul reads version " + FORMAT_VERSION + ")");
            }
            int codecId = in.readUnsignedByte();
            CompressionCodec codec = CompressionCodec.fromId(codecId)
                    .orElseThrow(() -> new ExchangeFileException(fileName, fileName + ": unknown compression codec id " + codecId + " (corrupted header?)"));
            int chunkSize = in.readInt();
            if (chunkSize < MINIMUM_CHUNK_SIZE || chunkSize > MAXIMUM_CHUNK_SIZE) {
                throw new ExchangeFileException(fileName, fileName + ": invalid chunk size " + chunkSize + " (corrupted header)");
            }
            Optional<Encryption> encryption = Optional.empty();
            if (encrypted) {
                byte[] noncePrefix = new byte[NONCE_PREFIX_BYTES];
                in.readFully(noncePrefix);
                byte[] keyId = readBlock(in, MAXIMUM_KEY_ID_BYTES, "master key id", fileName);
                int keyVersion = in.readInt();
                byte[] wrapped = readBlock(in, MAXIMUM_WRAPPED_KEY_BYTES, "wrapped data key", fileName);
                if (keyVersion < 1) {
                    throw new ExchangeFileException(fileName, fileName + ": invalid master key version " + keyVersion + " (corrupted header)");
                }
                MasterKeyVersion masterKey = new MasterKeyVersion(new String(keyId, StandardCharsets.UTF_8), keyVersion);
                encryption = Optional.of(new Encryption(noncePrefix, new WrappedDataKey(masterKey, wrapped)));
            }
            return new FileHeader(codec, chunkSize, encryption, recording.recorded());
        }
        catch (EOFException e) {
            throw new ExchangeFileException(fileName, fileName + ": truncated in the header", e);
        }
    }

    private static byte[] readBlock(DataInputStream in, int maximumLength, String what, String fileName)
            throws IOException
    {
        int length = in.readUnsignedShort();
        if (length == 0 || length > maximumLength) {
            throw new ExchangeFileException(fileName, fileName + ": invalid " + what + " length " + length + " (corrupted header)");
        }
        byte[] block = new byte[length];
        in.readFully(block);
        return block;
    }

    /** Keeps a copy of every byte read through it: the header is small. */
    private static final class RecordingInputStream
            extends FilterInputStream
    {
        private final ByteArrayOutputStream recorded = new ByteArrayOutputStream();

        RecordingInputStream(InputStream in)
        {
            super(in);
        }

        void record(byte[] bytes)
        {
            recorded.writeBytes(bytes);
        }

        byte[] recorded()
        {
            return recorded.toByteArray();
        }

        @Override
        public int read()
                throws IOException
        {
            int value = in.read();
            if (value >= 0) {
                recorded.write(value);
            }
            return value;
        }

        @Override
        public int read(byte[] buffer, int offset, int length)
                throws IOException
        {
            int count = in.read(buffer, offset, length);
            if (count > 0) {
                recorded.write(buffer, offset, count);
            }
            return count;
        }
    }
}
