package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link ConnectorStore} that forgets everything when the process ends: for unit tests of one
 * connector and for engines started without a metadata store.
 */
public final class InMemoryConnectorStore
        implements ConnectorStore
{
    private final Map<String, Map<String, String>> kinds = new TreeMap<>();

    @Override
    public synchronized Map<String, String> entries(String kind)
    {
        return new TreeMap<>(kinds.getOrDefault(requireNonNull(kind, "kind is null"), Map.of()));
    }

    @Override
    public synchronized Optional<String> get(String kind, String key)
    {
        return Optional.ofNullable(kinds.getOrDefault(requireNonNull(kind, "kind is null"), Map.of()).get(requireNonNull(key, "key is null")));
    }

    @Override
    public synchronized void put(String kind, String key, String value)
    {
        kinds.computeIfAbsent(requireNonNull(kind, "kind is null"), ignored -> new TreeMap<>())
                .put(requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
    }

    @Override
    public synchronized boolean putIfAbsent(String kind, String key, String value)
    {
        return kinds.computeIfAbsent(requireNonNull(kind, "kind is null"), ignored -> new TreeMap<>())
                .putIfAbsent(requireNonNull(key, "key is null"), requireNonNull(value, "value is null")) == null;
    }

    @Override
    public synchronized boolean delete(String kind, String key)
    {
        Map<String, String> entries = kinds.get(requireNonNull(kind, "kind is null"));
        return entries != null && entries.remove(requireNonNull(key, "key is null")) != null;
    }
}
