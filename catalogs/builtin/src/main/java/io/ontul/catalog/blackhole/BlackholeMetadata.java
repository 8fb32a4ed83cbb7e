package io.ontul.catalog.blackhole;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * Schemas and tables of a blackhole catalog, kept in its {@link ConnectorStore}: kind
 * {@code schema} for schemas made by CREATE SCHEMA, kind {@code table} (key {@code schema.table},
 * value the columns as Arrow's schema JSON). Schema {@code default} always exists. Tables report
 * zero rows.
 */
final class BlackholeMetadata
        implements ConnectorMetadata
{
    static final String DEFAULT_SCHEMA = "default";
    private static final String SCHEMA_KIND = "schema";
    private static final String TABLE_KIND = "table";

    private final String catalogName;
    private final ConnectorStore store;

    BlackholeMetadata(String catalogName, ConnectorStore store)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.store = requireNonNull(store, "store is null");
    }

    @Override
    public List<String> listSchemas()
    {
        TreeSet<String> schemas = new TreeSet<>(store.entries(SCHEMA_KIND).keySet());
        schemas.add(DEFAULT_SCHEMA);
        return List.copyOf(schemas);
    }

    @Override
    public List<String> listTables(String schema)
    {
        String prefix = schema + ".";
        return store.entries(TABLE_KIND).keySet().stream()
                .filter(key -> key.startsWith(prefix))
                .map(key -> key.substring(prefix.length()))
                .sorted()
                .toList();
    }

    @Override
    public Optional<TableHandle> getTable(String schema, String table)
    {
        return store.get(TABLE_KIND, schema + "." + table).map(json -> handle(schema, table, parse(schema, table, json)));
    }

    @Override
    public TableHandle createTable(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        if (!properties.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Tables of blackhole catalog '%s' take no properties: %s", catalogName, new TreeSet<>(properties.keySet()));
        }
        requireSchema(schema);
        if (!store.putIfAbsent(TABLE_KIND, schema + "." + table, columns.toJson())) {
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Table '%s' already exists", qualifiedName(schema, table));
        }
        return handle(schema, table, columns);
    }

    @Override
    public void dropTable(String schema, String table)
    {
        if (!store.delete(TABLE_KIND, schema + "." + table)) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s' does not exist", qualifiedName(schema, table));
        }
    }

    @Override
    public void createSchema(String schema, Map<String, Object> properties)
    {
        if (!properties.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schemas of blackhole catalog '%s' take no properties: %s", catalogName, new TreeSet<>(properties.keySet()));
        }
        if (schema.contains(".")) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema name '%s' of blackhole catalog '%s' must not contain '.'", schema, catalogName);
        }
        if (schema.equals(DEFAULT_SCHEMA) || !store.putIfAbsent(SCHEMA_KIND, schema, "{}")) {
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Schema '%s.%s' already exists", catalogName, schema);
        }
    }

    @Override
    public void dropSchema(String schema)
    {
        if (schema.equals(DEFAULT_SCHEMA)) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s' cannot be dropped", catalogName, schema);
        }
        requireSchema(schema);
        if (!listTables(schema).isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s' is not empty: drop its tables first", catalogName, schema);
        }
        store.delete(SCHEMA_KIND, schema);
    }

    private void requireSchema(String schema)
    {
        if (!schema.equals(DEFAULT_SCHEMA) && store.get(SCHEMA_KIND, schema).isEmpty()) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Schema '%s.%s' does not exist", catalogName, schema);
        }
    }

    private Schema parse(String schema, String table, String json)
    {
        try {
            return Schema.fromJSON(json);
        }
        catch (java.io.IOException | RuntimeException e) {
            throw OntulException.internal("stored definition of blackhole table '" + qualifiedName(schema, table) + "' cannot be read: " + e.getMessage(), e);
        }
    }

    private TableHandle handle(String schema, String table, Schema columns)
    {
        return new TableHandle(catalogName, schema, table, columns, new TableStatistics(0), null);
    }

    private String qualifiedName(String schema, String table)
    {
        return catalogName + "." + schema + "." + table;
    }
}
