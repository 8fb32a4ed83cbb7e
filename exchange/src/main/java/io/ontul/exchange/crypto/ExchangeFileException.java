package io.ontul.exchange.crypto;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * An exchange file that cannot be read or written: not an Ontul file, an unsupported version, a
 * wrong master key, a chunk that fails authentication, truncation, trailing data. The message
 * names the file.
 */
public class ExchangeFileException
        extends IOException
{
    private final String fileName;

    public ExchangeFileException(String fileName, String message)
    {
        this(fileName, message, null);
    }

    public ExchangeFileException(String fileName, String message, Throwable cause)
    {
        super(requireNonNull(message, "message is null"), cause);
        this.fileName = requireNonNull(fileName, "fileName is null");
    }

    /** The file (or stream description) the error is about. */
    public String fileName()
    {
        return fileName;
    }
}
