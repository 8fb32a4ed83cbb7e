package io.ontul.catalog.kafka;

import java.util.Arrays;
import java.util.Optional;

/**
 * Where reading a partition starts ({@code 'scan.startup.mode'}). A SELECT reads from there to
 * the end offsets at query start; a streaming job reads from there on.
 */
public enum KafkaStartupMode
{
    /** The first offset still in the partition. */
    EARLIEST_OFFSET("earliest-offset"),
    /** The end of the partition at query start: a SELECT sees no rows, a streaming job only new ones. */
    LATEST_OFFSET("latest-offset"),
    /** The offsets committed by the consumer group {@code 'properties.group.id'}; the earliest offset where it has none. */
    GROUP_OFFSETS("group-offsets"),
    /** The first record whose timestamp is at or after {@code 'scan.startup.timestamp-millis'}. */
    TIMESTAMP("timestamp");

    private final String optionValue;

    KafkaStartupMode(String optionValue)
    {
        this.optionValue = optionValue;
    }

    public String optionValue()
    {
        return optionValue;
    }

    public static Optional<KafkaStartupMode> fromOptionValue(String value)
    {
        return Arrays.stream(values()).filter(mode -> mode.optionValue.equals(value)).findFirst();
    }
}
