package io.ontul.exchange.spill;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

public class TestUnencryptedSpillStore
        extends AbstractTestSpillStore
{
    @Override
    protected ExchangeStreamFactory streams(Path keyDirectory)
            throws IOException
    {
        return ExchangeStreamFactory.create(EncryptionConfig.fromProperties(Map.of(EncryptionConfig.ENABLED, "false", EncryptionConfig.COMPRESSION, "zstd")), keyDirectory, Optional.empty());
    }
}
