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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.spi.OntulException;

/**
 * The runtime catalogs in the metadata store; properties are kept as a JSON object, sealed as
 * {@link CatalogSecrets} says.
 */
public final class StoredCatalogs
{
    private static final Logger LOG = LoggerFactory.getLogger(StoredCatalogs.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MetadataStore store;
    private final CatalogSecrets secrets;

    StoredCatalogs(MetadataStore store, CatalogSecrets secrets)
    {
        this.store = requireNonNull(store, "store is null");
        this.secrets = requireNonNull(secrets, "secrets is null");
    }

    /** The catalogs; properties stored in plain JSON are sealed now, if sealing is on. */
    public List<StoredCatalog> list()
    {
        return store.inTransaction(connection -> {
            List<StoredCatalog> catalogs = new ArrayList<>();
            List<StoredCatalog> unsealed = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT name, connector_name, properties FROM ontul_catalogs ORDER BY name");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String name = rows.getString(1);
                    String stored = rows.getString(3);
                    StoredCatalog catalog = new StoredCatalog(name, rows.getString(2), fromJson(secrets.open(name, stored)));
                    catalogs.add(catalog);
                    if (secrets.seals() && !CatalogSecrets.isSealed(stored)) {
                        unsealed.add(catalog);
                    }
                }
            }
            for (StoredCatalog catalog : unsealed) {
                try (PreparedStatement update = connection.prepareStatement("UPDATE ontul_catalogs SET properties = ? WHERE name = ?")) {
                    update.setString(1, secrets.seal(catalog.name(), toJson(catalog.properties())));
                    update.setString(2, catalog.name());
                    update.executeUpdate();
                }
                LOG.info("The properties of catalog '{}' were stored unencrypted; they are encrypted now", catalog.name());
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
                insert.setString(3, secrets.seal(catalog.name(), toJson(catalog.properties())));
                insert.setString(4, createdBy);
                insert.setTimestamp(5, Timestamp.from(Instant.now()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Deletes the catalog, every entry its connector kept and its views, in one transaction; returns whether it existed. */
    public boolean delete(String name)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement views = connection.prepareStatement("DELETE FROM ontul_views WHERE catalog_name = ?")) {
                views.setString(1, name);
                views.executeUpdate();
            }
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
