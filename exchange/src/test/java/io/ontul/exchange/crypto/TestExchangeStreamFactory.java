package io.ontul.exchange.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.kms.MasterKeyVersion;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

public class TestExchangeStreamFactory
{
    @TempDir
    Path temporary;

    @Test
    void configDefaultsAndParsing()
    {
        EncryptionConfig defaults = EncryptionConfig.defaults();
        assertThat(defaults.enabled()).isTrue();
        assertThat(defaults.compression()).isEqualTo(CompressionCodec.LZ4);
        assertThat(defaults.keyDirectory()).isEmpty();
        assertThat(defaults.chunkSize()).isEqualTo(1 << 20);

        EncryptionConfig parsed = EncryptionConfig.fromProperties(Map.of(
                "ontul.exchange.encryption.enabled", "FALSE",
                "ontul.exchange.compression", "zstd",
                "ontul.exchange.kms.key-dir", "/var/lib/ontul/kms",
                "ontul.query.max-memory", "2GB"));
        assertThat(parsed).isEqualTo(new EncryptionConfig(false, CompressionCodec.ZSTD, Optional.of(Path.of("/var/lib/ontul/kms")), 1 << 20));
        assertThat(EncryptionConfig.fromProperties(Map.of("ontul.exchange.compression", "none")).compression()).isEqualTo(CompressionCodec.NONE);

        assertThatThrownBy(() -> EncryptionConfig.fromProperties(Map.of("ontul.exchange.encryption.enabled", "yes")))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Invalid value 'yes' for ontul.exchange.encryption.enabled: use true or false");
        assertThatThrownBy(() -> EncryptionConfig.fromProperties(Map.of("ontul.exchange.compression", "gzip")))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Invalid value 'gzip' for ontul.exchange.compression: use none, lz4 or zstd");
    }

    @Test
    void encryptedByDefaultAndUnencryptedFilesAreRefused()
            throws IOException
    {
        ExchangeStreamFactory factory = ExchangeStreamFactory.create(small(Map.of()), temporary.resolve("kms"), Optional.empty());
        Path file = temporary.resolve("spill-1.bin");
        byte[] data = TestingFiles.mixedData(10_000, 1);
        try (ChunkedOutputStream out = factory.createFile(file)) {
            assertThat(out.isEncrypted()).isTrue();
            out.write(data);
        }
        assertThat(Files.readString(file, StandardCharsets.ISO_8859_1)).startsWith("ONTULENC");
        try (ChunkedInputStream in = factory.openFile(file)) {
            assertThat(TestingFiles.readAll(in, 1000)).isEqualTo(data);
        }
        assertThatThrownBy(() -> factory.createFile(file))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);

        Path plain = temporary.resolve("planted.bin");
        try (OutputStream out = ChunkedOutputStream.unencrypted(Files.newOutputStream(plain), "planted", CompressionCodec.NONE, 4096)) {
            out.write(data);
        }
        assertThatThrownBy(() -> factory.openFile(plain))
                .isInstanceOf(ExchangeFileException.class)
                .hasMessage(plain + " is not encrypted, but exchange encryption is enabled (ontul.exchange.encryption.enabled=true): refusing to read it");
    }

    @Test
    void disabledEncryptionWritesPlainFilesAndStillReadsEncryptedOnes()
            throws IOException
    {
        Path keyDirectory = temporary.resolve("kms");
        ExchangeStreamFactory encrypting = ExchangeStreamFactory.create(small(Map.of()), keyDirectory, Optional.empty());
        Path encrypted = temporary.resolve("checkpoint-1.bin");
        try (OutputStream out = encrypting.createFile(encrypted)) {
            out.write("state".getBytes(StandardCharsets.US_ASCII));
        }

        ExchangeStreamFactory plain = ExchangeStreamFactory.create(small(Map.of("ontul.exchange.encryption.enabled", "false", "ontul.exchange.compression", "zstd")), keyDirectory, Optional.empty());
        Path file = temporary.resolve("spill-2.bin");
        try (ChunkedOutputStream out = plain.createFile(file)) {
            assertThat(out.isEncrypted()).isFalse();
            out.write("visible".getBytes(StandardCharsets.US_ASCII));
        }
        assertThat(Files.readString(file, StandardCharsets.ISO_8859_1)).startsWith("ONTULPLN");
        try (ChunkedInputStream in = plain.openFile(file)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("visible");
        }
        try (ChunkedInputStream in = plain.openFile(encrypted)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("state");
        }

        // Without a key directory, encryption disabled needs no keys and creates none.
        ExchangeStreamFactory keyless = ExchangeStreamFactory.create(small(Map.of("ontul.exchange.encryption.enabled", "false")), temporary.resolve("none"), Optional.empty());
        assertThat(keyless.keyManagement()).isEmpty();
        assertThat(temporary.resolve("none")).doesNotExist();
        assertThatThrownBy(() -> keyless.openFile(encrypted))
                .isInstanceOf(ExchangeFileException.class)
                .hasMessage(encrypted + " is encrypted, but no key management service is configured to unwrap its data key");
    }

    @Test
    void rotationKeepsOldFilesReadableAndNewFilesUseTheNewVersion()
            throws IOException
    {
        Path keyDirectory = temporary.resolve("kms");
        ExchangeStreamFactory factory = ExchangeStreamFactory.create(small(Map.of()), keyDirectory, Optional.of("a long passphrase"));
        Path old = temporary.resolve("old.bin");
        try (OutputStream out = factory.createFile(old)) {
            out.write("before rotation".getBytes(StandardCharsets.US_ASCII));
        }
        factory.keyManagement().orElseThrow().rotateMasterKey();
        Path newer = temporary.resolve("new.bin");
        try (ChunkedOutputStream out = factory.createFile(newer)) {
            assertThat(out.masterKey()).contains(new MasterKeyVersion("local", 2));
            out.write("after rotation".getBytes(StandardCharsets.US_ASCII));
        }

        ExchangeStreamFactory restarted = ExchangeStreamFactory.create(small(Map.of()), keyDirectory, Optional.of("a long passphrase"));
        try (ChunkedInputStream in = restarted.openFile(old)) {
            assertThat(in.masterKey()).contains(new MasterKeyVersion("local", 1));
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("before rotation");
        }
        try (ChunkedInputStream in = restarted.openFile(newer)) {
            assertThat(in.masterKey()).contains(new MasterKeyVersion("local", 2));
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("after rotation");
        }
    }

    @Test
    void wrongMasterKeyNamesTheFile()
            throws IOException
    {
        ExchangeStreamFactory factory = ExchangeStreamFactory.create(small(Map.of()), temporary.resolve("kms"), Optional.empty());
        Path file = temporary.resolve("spill-3.bin");
        try (OutputStream out = factory.createFile(file)) {
            out.write(1);
        }
        ExchangeStreamFactory otherKeyFiles = ExchangeStreamFactory.create(small(Map.of()), temporary.resolve("other-kms"), Optional.empty());
        assertThatThrownBy(() -> otherKeyFiles.openFile(file))
                .isInstanceOf(ExchangeFileException.class)
                .hasMessage("Cannot unwrap data key of " + file + ": wrong master key or corrupted header");

        ExchangeStreamFactory passphrase = ExchangeStreamFactory.create(small(Map.of()), temporary.resolve("passphrase-kms"), Optional.of("one passphrase"));
        Path derived = temporary.resolve("spill-4.bin");
        try (OutputStream out = passphrase.createFile(derived)) {
            out.write(1);
        }
        ExchangeStreamFactory otherPassphrase = ExchangeStreamFactory.create(small(Map.of()), temporary.resolve("other-passphrase-kms"), Optional.of("another passphrase"));
        assertThatThrownBy(() -> otherPassphrase.openFile(derived))
                .isInstanceOf(ExchangeFileException.class)
                .hasMessage("Cannot unwrap data key of " + derived + ": wrong master key or corrupted header");
    }

    @Test
    void foreignFilesNameTheFile()
            throws IOException
    {
        ExchangeStreamFactory factory = ExchangeStreamFactory.create(small(Map.of()), temporary.resolve("kms"), Optional.empty());
        Path text = Files.writeString(temporary.resolve("notes.txt"), "not an exchange file\n");
        assertThatThrownBy(() -> factory.openFile(text))
                .isInstanceOf(ExchangeFileException.class)
                .hasMessage("Not an Ontul encrypted file: " + text);
    }

    private static EncryptionConfig small(Map<String, String> properties)
    {
        return EncryptionConfig.fromProperties(properties).withChunkSize(4096);
    }
}
