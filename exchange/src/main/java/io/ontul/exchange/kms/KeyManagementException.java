package io.ontul.exchange.kms;

import java.io.IOException;

/**
 * A key management failure: a wrong or missing master key, an unusable key directory, a wrapped
 * key that does not authenticate. Messages name the key and the directory, not the data file:
 * callers that read a file add its name.
 */
public class KeyManagementException
        extends IOException
{
    public KeyManagementException(String message)
    {
        super(message);
    }

    public KeyManagementException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
