package io.ontul.exchange.checkpoint;

import java.io.IOException;

import org.apache.hadoop.fs.Path;

import io.ontul.exchange.ExchangeStorageException;

/** Storage failures as the store reports them: unchecked, naming the file. */
final class CheckpointFailures
{
    private CheckpointFailures() {}

    static ExchangeStorageException cannotRead(Path file, IOException cause)
    {
        return new ExchangeStorageException("Cannot read checkpoint file", file, cause);
    }

    static ExchangeStorageException cannotWrite(Path file, IOException cause)
    {
        return new ExchangeStorageException("Cannot write checkpoint file", file, cause);
    }
}
