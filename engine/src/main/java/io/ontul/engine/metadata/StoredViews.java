package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.OntulException;

/**
 * The views Ontul keeps for its catalogs, rows of {@code ontul_views}; their columns are an Arrow
 * schema as JSON. Every call is one transaction.
 */
public final class StoredViews
{
    private static final String COLUMNS = "catalog_name, schema_name, view_name, definition, default_catalog, default_schema, view_columns, owner_name, created_at";

    private final MetadataStore store;

    StoredViews(MetadataStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    /** The views of one schema, by name. */
    public List<StoredView> list(String catalog, String schema)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT " + COLUMNS + " FROM ontul_views WHERE catalog_name = ? AND schema_name = ? ORDER BY view_name")) {
                select.setString(1, catalog);
                select.setString(2, schema);
                return views(select);
            }
        });
    }

    public Optional<StoredView> get(String catalog, String schema, String name)
    {
        return store.inTransaction(connection -> read(connection, catalog, schema, name));
    }

    /**
     * Records the view; when one of that name exists, replaces it if {@code replace} is set.
     *
     * @return false if a view of that name exists and {@code replace} is not set
     */
    public boolean create(StoredView view, boolean replace)
    {
        return store.insertUnlessPresent(connection -> {
            if (read(connection, view.catalog(), view.schema(), view.name()).isPresent()) {
                if (!replace) {
                    return false;
                }
                delete(connection, view.catalog(), view.schema(), view.name());
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO ontul_views (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, view.catalog());
                insert.setString(2, view.schema());
                insert.setString(3, view.name());
                insert.setString(4, view.definition());
                insert.setString(5, view.defaultCatalog().orElse(null));
                insert.setString(6, view.defaultSchema().orElse(null));
                insert.setString(7, view.columns().toJson());
                insert.setString(8, view.owner());
                insert.setTimestamp(9, Timestamp.from(view.createdAt()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Deletes the view; returns whether there was one. */
    public boolean delete(String catalog, String schema, String name)
    {
        return store.inTransaction(connection -> delete(connection, catalog, schema, name));
    }

    private static boolean delete(Connection connection, String catalog, String schema, String name)
            throws SQLException
    {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM ontul_views WHERE catalog_name = ? AND schema_name = ? AND view_name = ?")) {
            delete.setString(1, catalog);
            delete.setString(2, schema);
            delete.setString(3, name);
            return delete.executeUpdate() > 0;
        }
    }

    private static Optional<StoredView> read(Connection connection, String catalog, String schema, String name)
            throws SQLException
    {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + COLUMNS + " FROM ontul_views WHERE catalog_name = ? AND schema_name = ? AND view_name = ?")) {
            select.setString(1, catalog);
            select.setString(2, schema);
            select.setString(3, name);
            List<StoredView> views = views(select);
            return views.isEmpty() ? Optional.empty() : Optional.of(views.get(0));
        }
    }

    private static List<StoredView> views(PreparedStatement select)
            throws SQLException
    {
        List<StoredView> views = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                views.add(new StoredView(
                        rows.getString(1),
                        rows.getString(2),
                        rows.getString(3),
                        rows.getString(4),
                        Optional.ofNullable(rows.getString(5)),
                        Optional.ofNullable(rows.getString(6)),
                        columns(rows.getString(7)),
                        rows.getString(8),
                        rows.getTimestamp(9).toInstant()));
            }
        }
        return views;
    }

    private static Schema columns(String json)
    {
        try {
            return Schema.fromJSON(json);
        }
        catch (IOException e) {
            throw OntulException.internal("cannot read a view's columns from the metadata store", e);
        }
    }
}
