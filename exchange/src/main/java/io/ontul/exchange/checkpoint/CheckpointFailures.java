package io.ontul.exchange.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.hadoop.fs.Path;

/** Storage failures as the store reports them: unchecked, naming the file. */
final class CheckpointFailures
{
    private CheckpointFailures() {}

    static UncheckedIOException cannotRead(Path file, IOException cause)
    {
        return failure("Cannot read checkpoint file", file, cause);
    }

    static UncheckedIOException cannotWrite(Path file, IOException cause)
    {
        return failure("Cannot write checkpoint file", file, cause);
    }

    private static UncheckedIOException failure(String what, Path file, IOException cause)
    {
        String message = String.valueOf(cause.getMessage());
        // Exchange file errors start with the file name already.
        if (message.startsWith(file.toString())) {
            return new UncheckedIOException(what + " " + message, cause);
        }
        return new UncheckedIOException(what + " " + file + ": " + message, cause);
    }
}
