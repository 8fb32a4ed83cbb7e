package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.TreeMap;

/** A catalog created with {@code CREATE CATALOG}: its name, connector and properties. */
public record StoredCatalog(String name, String connectorName, Map<String, String> properties)
{
    public StoredCatalog
    {
        requireNonNull(name, "name is null");
        requireNonNull(connectorName, "connectorName is null");
        properties = Map.copyOf(requireNonNull(properties, "properties is null"));
    }

    /** Names only: the values may hold passwords. */
    @Override
    public String toString()
    {
        return "StoredCatalog[" + name + " using " + connectorName + " with " + new TreeMap<>(properties).keySet() + "]";
    }
}
