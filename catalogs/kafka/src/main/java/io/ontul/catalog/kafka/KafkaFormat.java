package io.ontul.catalog.kafka;

import java.util.Arrays;
import java.util.Optional;

/** How a Kafka table reads its records ({@code 'format'} option). */
public enum KafkaFormat
{
    /** The value is a JSON object whose fields are the declared columns. */
    JSON("json"),
    /** Columns {@code key} and {@code value}: the record's bytes as UTF-8 text. */
    RAW("raw");

    private final String optionValue;

    KafkaFormat(String optionValue)
    {
        this.optionValue = optionValue;
    }

    public String optionValue()
    {
        return optionValue;
    }

    public static Optional<KafkaFormat> fromOptionValue(String value)
    {
        return Arrays.stream(values()).filter(format -> format.optionValue.equals(value)).findFirst();
    }
}
