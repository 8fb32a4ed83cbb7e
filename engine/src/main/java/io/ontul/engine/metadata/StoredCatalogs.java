package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ontul.spi.OntulException;

/** The runtime catalogs in the metadata store; properties are kept as a JSON object. */
public final class StoredCatalogs
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MetadataStore store;

    StoredCatalogs(MetadataStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    public List<StoredCatalog> list()
    {
        return store.inTransaction(connection -> {
            List<StoredCatalog> catalogs = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT name, connector_name, properties FROM ontul_catalogs ORDER BY name");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    catalogs.add(new StoredCatalog(rows.getString(1), rows.getString(2), fromJson(rows.getString(3))));
                }
            }
            return catalogs;
        });
    }

    /** Records the catalog unless one of that name exists; returns whether it did. */
    public boolean create(StoredCatalog catalog, String createdBy)
    {
        return store.insertUnlessPresent(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM ontul_catalogs WHERE name = ?")) {
                select.setString(1, catalog.name());
                try (ResultSet rows = select.executeQuery()) {
                    if (rows.next()) {
                        return false;
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO ontul_catalogs (name, connector_name, properties, created_by, created_at) VALUES (?, ?, ?, ?, ?)")) {
                insert.setString(1, catalog.name());
                insert.setString(2, catalog.connectorName());
                insert.setString(3, toJson(catalog.properties()));
                insert.setString(4, createdBy);
                insert.setTimestamp(5, Timestamp.from(Instant.now()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Deletes the catalog and every entry its connector kept, in one transaction; returns whether it existed. */
    public boolean delete(String name)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement entries = connection.prepareStatement("DELETE FROM ontul_connector_entries WHERE catalog_name = ?")) {
                entries.setString(1, name);
                entries.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM ontul_catalogs WHERE name = ?")) {
                delete.setString(1, name);
                return delete.executeUpdate() > 0;
            }
        });
    }

    private static String toJson(Map<String, String> properties)
    {
        try {
            return JSON.writeValueAsString(new TreeMap<>(properties));
        }
        catch (JsonProcessingException e) {
            throw OntulException.internal("cannot write catalog properties as JSON", e);
        }
    }

    private static Map<String, String> fromJson(String json)
    {
        try {
            return JSON.readValue(json, new TypeReference<Map<String, String>>() {});
        }
        catch (JsonProcessingException e) {
            throw OntulException.internal("cannot read catalog properties from the metadata store", e);
        }
    }
}
