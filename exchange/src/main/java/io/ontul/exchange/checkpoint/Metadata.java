package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Metadata maps are kept sorted by key and unmodifiable, so files and equality are deterministic. */
final class Metadata
{
    private Metadata() {}

    static SortedMap<String, String> copyOf(Map<String, String> metadata)
    {
        requireNonNull(metadata, "metadata is null");
        TreeMap<String, String> copy = new TreeMap<>();
        metadata.forEach((key, value) -> copy.put(requireNonNull(key, "metadata key is null"), requireNonNull(value, () -> "metadata value of " + key + " is null")));
        return Collections.unmodifiableSortedMap(copy);
    }
}
