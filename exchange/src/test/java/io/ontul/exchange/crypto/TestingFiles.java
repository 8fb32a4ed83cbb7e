package io.ontul.exchange.crypto;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Random;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.kms.KeyManagementService;

/** Writes and reads exchange files in memory with one key management service. */
final class TestingFiles
{
    private final KeyManagementService keyManagement;

    TestingFiles(KeyManagementService keyManagement)
    {
        this.keyManagement = requireNonNull(keyManagement, "keyManagement is null");
    }

    byte[] write(boolean encrypted, CompressionCodec codec, int chunkSize, byte[] data, int writeSize)
            throws IOException
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ChunkedOutputStream stream = encrypted
                ? ChunkedOutputStream.encrypted(out, "f", keyManagement, codec, chunkSize)
                : ChunkedOutputStream.unencrypted(out, "f", codec, chunkSize)) {
            int offset = 0;
            while (offset < data.length) {
                int count = Math.min(writeSize, data.length - offset);
                if (count == 1) {
                    stream.write(data[offset]);
                }
                else {
                    stream.write(data, offset, count);
                }
                offset += count;
            }
        }
        return out.toByteArray();
    }

    ChunkedInputStream open(byte[] file, String fileName)
            throws IOException
    {
        return ChunkedInputStream.open(new ByteArrayInputStream(file), fileName, Optional.of(keyManagement), false);
    }

    byte[] readAll(byte[] file, String fileName, int readSize)
            throws IOException
    {
        try (InputStream in = open(file, fileName)) {
            return readAll(in, readSize);
        }
    }

    static byte[] readAll(InputStream in, int readSize)
            throws IOException
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[readSize];
        int count;
        while ((count = in.read(buffer)) != -1) {
            out.write(buffer, 0, count);
        }
        assertThat(in.read()).isEqualTo(-1);
        return out.toByteArray();
    }

    byte[] readByteByByte(byte[] file)
            throws IOException
    {
        try (InputStream in = open(file, "f")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int value;
            while ((value = in.read()) != -1) {
                out.write(value);
            }
            return out.toByteArray();
        }
    }

    /** Reading the whole file fails with exactly this message. */
    void assertFails(byte[] file, String fileName, String message)
    {
        assertThatThrownBy(() -> readAll(file, fileName, 8192))
                .isInstanceOf(ExchangeFileException.class)
                .hasMessage(message);
    }

    /** Runs of a repeated pattern between runs of random bytes: some chunks compress, some do not. */
    static byte[] mixedData(int size, long seed)
    {
        Random random = new Random(seed);
        byte[] data = new byte[size];
        int offset = 0;
        while (offset < size) {
            int run = Math.min(size - offset, 1 + random.nextInt(3000));
            if (random.nextBoolean()) {
                byte[] bytes = new byte[run];
                random.nextBytes(bytes);
                System.arraycopy(bytes, 0, data, offset, run);
            }
            else {
                for (int i = 0; i < run; i++) {
                    data[offset + i] = (byte) "ontul".charAt(i % 5);
                }
            }
            offset += run;
        }
        return data;
    }

    static byte[] randomData(int size, long seed)
    {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }
}
