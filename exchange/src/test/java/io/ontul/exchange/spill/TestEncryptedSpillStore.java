package io.ontul.exchange.spill;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

public class TestEncryptedSpillStore
        extends AbstractTestSpillStore
{
    @Override
    protected ExchangeStreamFactory streams(Path keyDirectory)
            throws IOException
    {
        return ExchangeStreamFactory.create(EncryptionConfig.defaults(), keyDirectory, Optional.empty());
    }

    @Test
    public void spillFilesHoldNoPlaintext()
            throws IOException
    {
        // no compression, so only encryption can hide the values
        EncryptionConfig config = new EncryptionConfig(true, CompressionCodec.NONE, Optional.empty(), EncryptionConfig.defaults().chunkSize());
        SpillStore store = SpillStore.open(temporary().resolve("plain-check"), ExchangeStreamFactory.create(config, temporary().resolve("kms"), Optional.empty()), 1L << 30);
        try (SpillSpace space = store.forQuery("q1")) {
            SpillRun run = writeRun(space, 0, 2, 1000);
            try (var files = Files.list(space.directory())) {
                for (Path file : files.toList()) {
                    String content = new String(Files.readAllBytes(file), ISO_8859_1);
                    assertThat(content).doesNotContain("plaintext-marker").doesNotContain(commentOf(7));
                }
            }
            assertThat(readIds(run)).hasSize(2000);
        }
    }
}
