package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.ontul.spi.ConnectorStore;

/** One catalog's {@link ConnectorStore}, rows of {@code ontul_connector_entries}. */
final class StoredConnectorEntries
        implements ConnectorStore
{
    private final MetadataStore store;
    private final String catalog;

    StoredConnectorEntries(MetadataStore store, String catalog)
    {
        this.store = requireNonNull(store, "store is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public Map<String, String> entries(String kind)
    {
        return store.inTransaction(connection -> {
            Map<String, String> entries = new TreeMap<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT entry_key, entry_value FROM ontul_connector_entries WHERE catalog_name = ? AND kind = ?")) {
                select.setString(1, catalog);
                select.setString(2, requireNonNull(kind, "kind is null"));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        entries.put(rows.getString(1), rows.getString(2));
                    }
                }
            }
            return entries;
        });
    }

    @Override
    public Optional<String> get(String kind, String key)
    {
        return store.inTransaction(connection -> read(connection, kind, key));
    }

    @Override
    public void put(String kind, String key, String value)
    {
        // a concurrent first put of the same key makes the insert fail: then the update applies
        if (!store.insertUnlessPresent(connection -> update(connection, kind, key, value))) {
            store.inTransaction(connection -> update(connection, kind, key, value));
        }
    }

    /** Updates the entry, or inserts it if there is none. */
    private boolean update(Connection connection, String kind, String key, String value)
            throws SQLException
    {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE ontul_connector_entries SET entry_value = ?, updated_at = ? WHERE catalog_name = ? AND kind = ? AND entry_key = ?")) {
            update.setString(1, requireNonNull(value, "value is null"));
            update.setTimestamp(2, Timestamp.from(Instant.now()));
            update.setString(3, catalog);
            update.setString(4, kind);
            update.setString(5, key);
            if (update.executeUpdate() == 0) {
                insert(connection, kind, key, value);
            }
        }
        return true;
    }

    @Override
    public boolean putIfAbsent(String kind, String key, String value)
    {
        return store.insertUnlessPresent(connection -> {
            if (read(connection, kind, key).isPresent()) {
                return false;
            }
            insert(connection, kind, key, value);
            return true;
        });
    }

    @Override
    public boolean delete(String kind, String key)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM ontul_connector_entries WHERE catalog_name = ? AND kind = ? AND entry_key = ?")) {
                delete.setString(1, catalog);
                delete.setString(2, requireNonNull(kind, "kind is null"));
                delete.setString(3, requireNonNull(key, "key is null"));
                return delete.executeUpdate() > 0;
            }
        });
    }

    private Optional<String> read(Connection connection, String kind, String key)
            throws SQLException
    {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT entry_value FROM ontul_connector_entries WHERE catalog_name = ? AND kind = ? AND entry_key = ?")) {
            select.setString(1, catalog);
            select.setString(2, requireNonNull(kind, "kind is null"));
            select.setString(3, requireNonNull(key, "key is null"));
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
            }
        }
    }

    private void insert(Connection connection, String kind, String key, String value)
            throws SQLException
    {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO ontul_connector_entries (catalog_name, kind, entry_key, entry_value, updated_at) VALUES (?, ?, ?, ?, ?)")) {
            insert.setString(1, catalog);
            insert.setString(2, requireNonNull(kind, "kind is null"));
            insert.setString(3, requireNonNull(key, "key is null"));
            insert.setString(4, requireNonNull(value, "value is null"));
            insert.setTimestamp(5, Timestamp.from(Instant.now()));
            insert.executeUpdate();
        }
    }
}
