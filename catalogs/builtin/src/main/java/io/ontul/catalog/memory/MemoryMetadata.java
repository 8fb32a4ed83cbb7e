package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableConstraints;
import io.ontul.spi.TableStatistics;

/**
 * The schemas and tables of a memory catalog: {@code default} always exists; more come with
 * {@code CREATE SCHEMA} and go with {@code DROP SCHEMA} once empty. All are lost at restart.
 */
public final class MemoryMetadata
        implements ConnectorMetadata
{
    public static final String DEFAULT_SCHEMA = "default";

    private final String catalogName;
    /** Schema name to its tables by name. */
    private final ConcurrentMap<String, ConcurrentMap<String, MemoryTable>> schemas = new ConcurrentHashMap<>();

    public MemoryMetadata(String catalogName)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        schemas.put(DEFAULT_SCHEMA, new ConcurrentHashMap<>());
    }

    @Override
    public List<String> listSchemas()
    {
        return schemas.keySet().stream().sorted().toList();
    }

    @Override
    public List<String> listTables(String schema)
    {
        ConcurrentMap<String, MemoryTable> tables = schemas.get(schema);
        return tables == null ? List.of() : tables.keySet().stream().sorted().toList();
    }

    @Override
    public Optional<TableHandle> getTable(String schema, String table)
    {
        ConcurrentMap<String, MemoryTable> tables = schemas.get(schema);
        return tables == null ? Optional.empty() : Optional.ofNullable(tables.get(table)).map(this::handle);
    }

    @Override
    public void createSchema(String schema, Map<String, Object> properties)
    {
        if (!properties.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Memory schemas have no properties: %s", properties.keySet());
        }
        if (schemas.putIfAbsent(schema, new ConcurrentHashMap<>()) != null) {
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Schema '%s.%s' already exists", catalogName, schema);
        }
    }

    @Override
    public void dropSchema(String schema)
    {
        if (schema.equals(DEFAULT_SCHEMA)) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s' is the memory catalog's own and cannot be dropped", catalogName, schema);
        }
        ConcurrentMap<String, MemoryTable> tables = schemas.get(schema);
        if (tables == null) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Schema '%s.%s' does not exist", catalogName, schema);
        }
        // a CREATE TABLE racing this DROP either lands before the check (and the drop is refused) or finds the schema gone
        synchronized (tables) {
            if (!tables.isEmpty()) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s' is not empty: it has %d table(s)", catalogName, schema, tables.size());
            }
            schemas.remove(schema, tables);
        }
    }

    @Override
    public TableHandle createTable(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        if (!properties.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Memory tables have no properties: %s", properties.keySet());
        }
        ConcurrentMap<String, MemoryTable> tables = schemas.get(schema);
        if (tables == null) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Schema '%s.%s' does not exist", catalogName, schema);
        }
        Set<String> names = new HashSet<>();
        for (Field field : columns.getFields()) {
            if (!names.add(field.getName())) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Column '%s' specified more than once in table '%s.%s.%s'", field.getName(), catalogName, schema, table);
            }
        }
        MemoryTable created = new MemoryTable(catalogName, schema, table, columns);
        synchronized (tables) {
            if (schemas.get(schema) != tables) {
                throw OntulException.userError(ErrorCode.NOT_FOUND, "Schema '%s.%s' does not exist", catalogName, schema);
            }
            if (tables.putIfAbsent(table, created) != null) {
                throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Table '%s' already exists", created.qualifiedName());
            }
        }
        return handle(created);
    }

    @Override
    public void dropTable(String schema, String table)
    {
        ConcurrentMap<String, MemoryTable> tables = schemas.get(schema);
        MemoryTable removed = tables == null ? null : tables.remove(table);
        if (removed == null) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s.%s.%s' does not exist", catalogName, schema, table);
        }
        removed.drop();
    }

    /** Drops every table; for connector shutdown. */
    void dropAll()
    {
        for (ConcurrentMap<String, MemoryTable> tables : schemas.values()) {
            for (String name : List.copyOf(tables.keySet())) {
                MemoryTable removed = tables.remove(name);
                if (removed != null) {
                    removed.drop();
                }
            }
        }
    }

    /** Keys (the primary key first) and column defaults: kept, and keys enforced on every write. */
    @Override
    public Set<TableConstraints.Kind> supportedConstraints()
    {
        return Set.of(TableConstraints.Kind.PRIMARY_KEY, TableConstraints.Kind.UNIQUE, TableConstraints.Kind.DEFAULT);
    }

    /** A unique index is a unique key enforced from now on (the rows there are must satisfy it); other indexes are kept but change nothing. */
    @Override
    public void createIndex(String schema, String table, String index, List<String> columns, boolean unique)
    {
        table(schema, table).createIndex(index, columns, unique);
    }

    @Override
    public void dropIndex(String schema, String table, String index)
    {
        table(schema, table).dropIndex(index);
    }

    private MemoryTable table(String schema, String table)
    {
        ConcurrentMap<String, MemoryTable> tables = schemas.get(schema);
        MemoryTable found = tables == null ? null : tables.get(table);
        if (found == null) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s.%s.%s' does not exist", catalogName, schema, table);
        }
        return found;
    }

    /** The declared keys (the primary key first) are unique keys the planner may use, then the integer columns found unique. */
    private TableHandle handle(MemoryTable table)
    {
        List<List<String>> keys = new java.util.ArrayList<>(TableConstraints.keys(table.schema()));
        table.uniqueColumns().stream().map(List::of).filter(key -> !keys.contains(key)).forEach(keys::add);
        return new TableHandle(catalogName, table.schemaName(), table.tableName(), table.schema(), new TableStatistics(table.rowCount(), keys, table.columnStatistics()), table);
    }
}
