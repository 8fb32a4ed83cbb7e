package io.ontul.sdk.stream;

import static java.util.Objects.requireNonNull;

/**
 * Where a streaming job reads: a Kafka table ({@code catalog.schema.table}), which carries the
 * topic, the format of its records, where reading starts and the event-time column.
 */
public record Source(String type, String table)
{
    public Source
    {
        requireNonNull(type, "type is null");
        StreamingJobSql.qualifiedName("source table", table);
    }

    /** The Kafka table {@code catalog.schema.table}, as {@code CREATE TABLE ... WITH ('topic' = ...)} declared it. */
    public static Source kafka(String table)
    {
        return new Source("kafka", table);
    }
}
