package io.ontul.spi.stream;

import static java.util.Objects.requireNonNull;

/**
 * A record a {@link StreamReader} could not decode, for a job's {@code rejects.table}.
 *
 * @param source where it was read, such as {@code topic events partition 3 offset 1207}
 * @param payload its content as text (bytes that are not UTF-8 replaced), or null if it had none
 * @param reason why it could not be decoded
 */
public record RejectedRecord(String source, String payload, String reason)
{
    public RejectedRecord
    {
        requireNonNull(source, "source is null");
        requireNonNull(reason, "reason is null");
    }
}
