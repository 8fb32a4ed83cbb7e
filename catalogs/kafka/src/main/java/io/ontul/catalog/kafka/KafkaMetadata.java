package io.ontul.catalog.kafka;

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
 * Schemas and tables of a Kafka catalog, all kept in the catalog's {@link ConnectorStore}: kind
 * {@code schema} (key: the name) for schemas made by CREATE SCHEMA, kind {@code table} (key
 * {@code schema.table}, value {@link KafkaTableDefinition#toJson()}) for tables. Schema
 * {@code default} always exists. Creating a table checks that its topic exists; dropping a table
 * or schema never touches topics. Nothing is cached: every call reads the store.
 */
public final class KafkaMetadata
        implements ConnectorMetadata
{
    public static final String DEFAULT_SCHEMA = "default";
    public static final String SCHEMA_KIND = "schema";
    public static final String TABLE_KIND = "table";

    private final String catalogName;
    private final ConnectorStore store;
    private final KafkaTopicAdmin admin;

    public KafkaMetadata(String catalogName, ConnectorStore store, KafkaTopicAdmin admin)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.store = requireNonNull(store, "store is null");
        this.admin = requireNonNull(admin, "admin is null");
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
        return definition(schema, table).map(this::handle);
    }

    /** The stored definition of a table, or empty if there is none. */
    public Optional<KafkaTableDefinition> definition(String schema, String table)
    {
        return store.get(TABLE_KIND, key(schema, table)).map(json -> parse(schema, table, json));
    }

    @Override
    public TableHandle createTable(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        String qualifiedName = qualifiedName(schema, table);
        requireSchema(schema);
        if (store.get(TABLE_KIND, key(schema, table)).isPresent()) {
            throw alreadyExists(qualifiedName);
        }
        KafkaTableDefinition definition = KafkaTableOptions.validate(qualifiedName, schema, table, columns, properties);
        admin.partitions(definition.topic());
        if (!store.putIfAbsent(TABLE_KIND, key(schema, table), definition.toJson())) {
            throw alreadyExists(qualifiedName);
        }
        return handle(definition);
    }

    @Override
    public void dropTable(String schema, String table)
    {
        if (!store.delete(TABLE_KIND, key(schema, table))) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s' does not exist", qualifiedName(schema, table));
        }
    }

    @Override
    public void createSchema(String schema, Map<String, Object> properties)
    {
        if (!properties.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schemas of Kafka catalog '%s' take no properties: %s", catalogName, new TreeSet<>(properties.keySet()));
        }
        if (schema.contains(".")) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema name '%s' of Kafka catalog '%s' must not contain '.'", schema, catalogName);
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

    private KafkaTableDefinition parse(String schema, String table, String json)
    {
        try {
            return KafkaTableDefinition.fromJson(json);
        }
        catch (RuntimeException e) {
            throw OntulException.internal("stored definition of Kafka table '" + qualifiedName(schema, table) + "' cannot be read: " + e.getMessage(), e);
        }
    }

    private TableHandle handle(KafkaTableDefinition definition)
    {
        return new TableHandle(catalogName, definition.schemaName(), definition.tableName(), definition.schema(), TableStatistics.UNKNOWN, definition);
    }

    private String qualifiedName(String schema, String table)
    {
        return catalogName + "." + schema + "." + table;
    }

    private static OntulException alreadyExists(String qualifiedName)
    {
        return OntulException.userError(ErrorCode.ALREADY_EXISTS, "Table '%s' already exists", qualifiedName);
    }

    static String key(String schema, String table)
    {
        return schema + "." + table;
    }
}
