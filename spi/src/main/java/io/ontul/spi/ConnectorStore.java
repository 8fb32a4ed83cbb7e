package io.ontul.spi;

import java.util.Map;
import java.util.Optional;

/**
 * Durable entries a connector keeps in Ontul's metadata store, scoped to its catalog: the
 * definitions users create through the connector (for example Kafka tables). Values are text the
 * connector chooses (JSON, say). Every call is one transaction of its own; a value written is
 * read back after a restart. Thread-safe. Dropping the catalog deletes its entries.
 */
public interface ConnectorStore
{
    /** Entries of one kind, key to value, in key order. */
    Map<String, String> entries(String kind);

    Optional<String> get(String kind, String key);

    /** Creates the entry or replaces its value. */
    void put(String kind, String key, String value);

    /** Creates the entry unless one with this key exists; returns whether it created it. */
    boolean putIfAbsent(String kind, String key, String value);

    /** Deletes the entry; returns whether there was one. */
    boolean delete(String kind, String key);
}
