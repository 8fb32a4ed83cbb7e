package io.ontul.engine.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ontul.spi.ConnectorStore;

/**
 * The metadata store's contract, run against each database it supports. Subclasses give a fresh,
 * empty store per test through {@link #store()}.
 */
abstract class AbstractTestMetadataStore
{
    protected abstract MetadataStore store();

    @Test
    void catalogsAreCreatedListedAndDeletedWithTheirEntries()
    {
        StoredCatalogs catalogs = store().catalogs();
        assertThat(catalogs.list()).isEmpty();
        StoredCatalog pg = new StoredCatalog("pg", "jdbc", Map.of("connection-url", "jdbc:postgresql://127.0.0.1:5432/db", "connection-password", "s3cret"));
        assertThat(catalogs.create(pg, "admin")).isTrue();
        assertThat(catalogs.create(new StoredCatalog("pg", "kafka", Map.of()), "admin")).isFalse();
        assertThat(catalogs.create(new StoredCatalog("events", "kafka", Map.of("kafka.bootstrap-servers", "127.0.0.1:9092")), "admin")).isTrue();
        assertThat(catalogs.list()).containsExactly(
                new StoredCatalog("events", "kafka", Map.of("kafka.bootstrap-servers", "127.0.0.1:9092")),
                pg);
        assertThat(pg.toString()).doesNotContain("s3cret");

        ConnectorStore entries = store().connectorStore("events");
        entries.put("table", "default.clicks", "{\"topic\":\"clicks\"}");
        assertThat(catalogs.delete("events")).isTrue();
        assertThat(catalogs.delete("events")).isFalse();
        assertThat(entries.entries("table")).isEmpty();
        assertThat(catalogs.list()).containsExactly(pg);
    }

    @Test
    void connectorEntriesAreScopedByCatalogAndKind()
    {
        ConnectorStore kafka = store().connectorStore("kafka");
        ConnectorStore other = store().connectorStore("other");
        kafka.put("table", "default.b", "B");
        kafka.put("table", "default.a", "A");
        kafka.put("schema", "staging", "{}");
        other.put("table", "default.a", "other A");

        assertThat(kafka.entries("table")).containsExactly(Map.entry("default.a", "A"), Map.entry("default.b", "B"));
        assertThat(kafka.entries("schema")).containsOnlyKeys("staging");
        assertThat(other.entries("table")).containsExactly(Map.entry("default.a", "other A"));

        kafka.put("table", "default.a", "A2");
        assertThat(kafka.get("table", "default.a")).contains("A2");
        assertThat(kafka.putIfAbsent("table", "default.a", "A3")).isFalse();
        assertThat(kafka.putIfAbsent("table", "default.c", "C")).isTrue();
        assertThat(kafka.get("table", "default.c")).contains("C");
        assertThat(kafka.delete("table", "default.a")).isTrue();
        assertThat(kafka.delete("table", "default.a")).isFalse();
        assertThat(kafka.get("table", "default.a")).isEmpty();
        assertThat(other.get("table", "default.a")).contains("other A");
    }

    @Test
    void longValuesRoundTrip()
    {
        String json = "{\"columns\":\"" + "x".repeat(200_000) + "\"}";
        store().connectorStore("kafka").put("table", "default.wide", json);
        assertThat(store().connectorStore("kafka").get("table", "default.wide")).contains(json);
    }

    @Test
    void users()
    {
        StoredUsers users = store().users();
        assertThat(users.create("alice", "hash-1")).isTrue();
        assertThat(users.create("alice", "hash-2")).isFalse();
        assertThat(users.hash("alice")).contains("hash-1");
        assertThat(users.replace("alice", "hash-3")).isTrue();
        assertThat(users.replace("bob", "hash-4")).isFalse();
        assertThat(users.hashes()).containsExactly(Map.entry("alice", "hash-3"));
        assertThat(users.delete("alice")).isTrue();
        assertThat(users.delete("alice")).isFalse();
        assertThat(users.hashes()).isEmpty();
    }

    @Test
    void schemaIsAtTheNewestVersion()
    {
        assertThat(store().schemaVersion()).isEqualTo(SchemaMigrations.SCRIPTS.size());
    }
}
