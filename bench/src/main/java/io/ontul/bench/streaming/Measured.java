package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/** The fields of one optional part of the benchmark (latency, recovery): measured, failed with a reason, or skipped (both empty). */
record Measured(Optional<Map<String, ?>> fields, Optional<String> failure)
{
    Measured
    {
        requireNonNull(fields, "fields is null");
        requireNonNull(failure, "failure is null");
        fields = fields.map(Map::copyOf);
    }

    static Measured skipped()
    {
        return new Measured(Optional.empty(), Optional.empty());
    }

    static Measured of(Map<String, ?> fields)
    {
        return new Measured(Optional.of(fields), Optional.empty());
    }

    static Measured failed(String reason)
    {
        return new Measured(Optional.empty(), Optional.of(reason));
    }

    /** A field as text. */
    String get(String name)
    {
        return String.valueOf(fields.orElseThrow().get(name));
    }

    /** A field that holds a whole number (as a number or as its text). */
    long getLong(String name)
    {
        return Long.parseLong(get(name));
    }
}
