package io.ontul.exchange.checkpoint;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

/** A plain local path as base directory, files encrypted without compression in 4 KiB chunks. */
public class TestEncryptedLocalPathCheckpointStore
        extends AbstractTestCheckpointStore
{
    @Override
    protected String baseDirectory(Path directory)
    {
        return directory.toString();
    }

    @Override
    protected ExchangeStreamFactory streams(Path keyDirectory)
            throws IOException
    {
        // no compression, so only encryption can hide the values; small chunks, so files have many
        EncryptionConfig config = new EncryptionConfig(true, CompressionCodec.NONE, Optional.empty(), 4096);
        return ExchangeStreamFactory.create(config, keyDirectory, Optional.empty());
    }

    @Override
    protected boolean encrypted()
    {
        return true;
    }

    @Test
    public void filesHoldNoPlaintext()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of("pending-commit", "plaintext-marker"));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(checkpointFolder(JOB, 1))) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertThat(files).hasSize(4);
        for (Path file : files) {
            String content = new String(Files.readAllBytes(file), ISO_8859_1);
            assertThat(content).doesNotContain("plaintext-marker", "customer-", "data-file-", "source.orders", "window_start", "task-0");
        }
    }
}
