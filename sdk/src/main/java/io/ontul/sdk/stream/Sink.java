package io.ontul.sdk.stream;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;

/** Where a streaming job writes, exactly once: a table of an Iceberg, JDBC (PostgreSQL) or Kafka catalog. */
public record Sink(String type, String table)
{
    static final Set<String> TYPES = Set.of("iceberg", "jdbc", "kafka");

    public Sink
    {
        requireNonNull(type, "type is null");
        type = type.toLowerCase(Locale.ROOT);
        if (!TYPES.contains(type)) {
            throw new IllegalArgumentException("A sink is iceberg, jdbc or kafka (the sinks that commit exactly once), not '" + type + "'");
        }
        StreamingJobSql.qualifiedName("sink table", table);
    }

    public static Sink iceberg(String table)
    {
        return new Sink("iceberg", table);
    }

    public static Sink jdbc(String table)
    {
        return new Sink("jdbc", table);
    }

    public static Sink kafka(String table)
    {
        return new Sink("kafka", table);
    }
}
