package io.ontul.catalog.kafka.decoder;

import static java.util.Objects.requireNonNull;

/**
 * A record that does not decode into a row of its table: not a JSON object, invalid JSON, or a
 * value that does not convert to its column's type. The message is the reason, for users. Cheap
 * to throw (no stack trace): malformed records may be frequent.
 */
public final class MalformedRecordException
        extends Exception
{
    public MalformedRecordException(String reason)
    {
        super(requireNonNull(reason, "reason is null"), null, false, false);
    }

    public String reason()
    {
        return getMessage();
    }
}
