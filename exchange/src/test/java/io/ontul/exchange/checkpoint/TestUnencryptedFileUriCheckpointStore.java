package io.ontul.exchange.checkpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

/** A {@code file:///} URI as base directory, files unencrypted (CRC32C per chunk) and zstd-compressed. */
public class TestUnencryptedFileUriCheckpointStore
        extends AbstractTestCheckpointStore
{
    @Override
    protected String baseDirectory(Path directory)
    {
        return directory.toUri().toString();
    }

    @Override
    protected ExchangeStreamFactory streams(Path keyDirectory)
            throws IOException
    {
        return ExchangeStreamFactory.create(EncryptionConfig.fromProperties(Map.of(EncryptionConfig.ENABLED, "false", EncryptionConfig.COMPRESSION, "zstd")), keyDirectory, Optional.empty());
    }

    @Override
    protected boolean encrypted()
    {
        return false;
    }
}
