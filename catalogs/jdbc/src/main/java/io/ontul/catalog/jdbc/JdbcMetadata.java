package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.catalog.jdbc.type.RemoteColumn;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ColumnStatistics;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableConstraints;
import io.ontul.spi.TableStatistics;

/**
 * Schemas, tables, columns and primary keys of the database, read through
 * {@link DatabaseMetaData} on every call (no cache: the database may change under Ontul).
 * <p>
 * Names arrive lower case unless the user quoted them. A name matches the database's name
 * exactly, or else ignoring case if exactly one name matches that way, so that {@code orders}
 * finds a table created as {@code "Orders"}.
 */
final class JdbcMetadata
        implements ConnectorMetadata
{
    private static final Logger LOG = LoggerFactory.getLogger(JdbcMetadata.class);

    private final String catalogName;
    private final JdbcDialect dialect;
    private final JdbcConnectionPool pool;
    private final JdbcErrors errors;
    private final Set<String> reportedColumns = ConcurrentHashMap.newKeySet();

    JdbcMetadata(String catalogName, JdbcDialect dialect, JdbcConnectionPool pool, JdbcErrors errors)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.pool = requireNonNull(pool, "pool is null");
        this.errors = requireNonNull(errors, "errors is null");
    }

    @Override
    public List<String> listSchemas()
    {
        try (Connection connection = pool.connection()) {
            return schemas(connection.getMetaData());
        }
        catch (SQLException e) {
            throw errors.failure("Cannot list the schemas of catalog '" + catalogName + "'", e);
        }
    }

    @Override
    public List<String> listTables(String schema)
    {
        try (Connection connection = pool.connection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            Optional<String> remoteSchema = match(schema, schemas(metaData));
            if (remoteSchema.isEmpty()) {
                return List.of();
            }
            return tables(metaData, remoteSchema.get(), null);
        }
        catch (SQLException e) {
            throw errors.failure("Cannot list the tables of schema '" + catalogName + "." + schema + "'", e);
        }
    }

    @Override
    public Optional<TableHandle> getTable(String schema, String table)
    {
        try (Connection connection = pool.connection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            Optional<String> remoteSchema = match(schema, schemas(metaData));
            if (remoteSchema.isEmpty()) {
                return Optional.empty();
            }
            Optional<String> remoteTable = remoteTable(metaData, remoteSchema.get(), table);
            if (remoteTable.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(handle(connection, remoteSchema.get(), remoteTable.get()));
        }
        catch (SQLException e) {
            throw errors.failure("Cannot read the definition of table '" + catalogName + "." + schema + "." + table + "'", e);
        }
    }

    @Override
    public void createSchema(String schema, Map<String, Object> properties)
    {
        rejectProperties(properties, "schema");
        if (listSchemas().stream().anyMatch(name -> name.equals(schema))) {
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Schema '%s.%s' already exists", catalogName, schema);
        }
        execute("CREATE SCHEMA " + dialect.quote(schema), "Cannot create schema '" + catalogName + "." + schema + "'");
    }

    @Override
    public void dropSchema(String schema)
    {
        Optional<String> remoteSchema = match(schema, listSchemas());
        if (remoteSchema.isEmpty()) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Schema '%s.%s' does not exist", catalogName, schema);
        }
        // MySQL's DROP SCHEMA would drop the tables with it
        if (!listTables(remoteSchema.get()).isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s' is not empty: drop its tables first", catalogName, remoteSchema.get());
        }
        execute("DROP SCHEMA " + dialect.quote(remoteSchema.get()), "Cannot drop schema '" + catalogName + "." + remoteSchema.get() + "'");
    }

    @Override
    public TableHandle createTable(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        rejectProperties(properties, "table");
        Optional<String> remoteSchema = match(schema, listSchemas());
        if (remoteSchema.isEmpty()) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Schema '%s.%s' does not exist", catalogName, schema);
        }
        if (getTable(remoteSchema.get(), table).isPresent()) {
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Table '%s.%s.%s' already exists", catalogName, schema, table);
        }
        if (columns.getFields().isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Table '%s.%s.%s' needs at least one column", catalogName, schema, table);
        }
        Set<String> names = new HashSet<>();
        List<String> definitions = new ArrayList<>();
        for (Field field : columns.getFields()) {
            if (!names.add(field.getName())) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Column '%s' specified more than once in table '%s.%s.%s'", field.getName(), catalogName, schema, table);
            }
            definitions.add(dialect.quote(field.getName()) + " " + dialect.columnType(field) + (field.isNullable() ? "" : " NOT NULL"));
        }
        TableConstraints.primaryKey(columns).ifPresent(key -> definitions.add("PRIMARY KEY (" + quoted(key) + ")"));
        TableConstraints.uniqueKeys(columns).forEach(key -> definitions.add("UNIQUE (" + quoted(key) + ")"));
        String sql = "CREATE TABLE " + dialect.qualifiedName(remoteSchema.get(), table) + " (" + String.join(", ", definitions) + ")";
        execute(sql, "Cannot create table '" + catalogName + "." + schema + "." + table + "'");
        return getTable(remoteSchema.get(), table)
                .orElseThrow(() -> new OntulException(ErrorCode.EXTERNAL_ERROR, "Table '%s.%s.%s' was created but is not visible".formatted(catalogName, schema, table)));
    }

    /** PRIMARY KEY and UNIQUE go into the database's CREATE TABLE; the database enforces them. */
    @Override
    public Set<TableConstraints.Kind> supportedConstraints()
    {
        return Set.of(TableConstraints.Kind.PRIMARY_KEY, TableConstraints.Kind.UNIQUE);
    }

    @Override
    public void createIndex(String schema, String table, String index, List<String> columns, boolean unique)
    {
        TableHandle handle = getTable(schema, table)
                .orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s.%s.%s' does not exist", catalogName, schema, table));
        execute("CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + dialect.quote(index) + " ON " + dialect.qualifiedName(handle.schema(), handle.table()) + " (" + quoted(columns) + ")",
                "Cannot create index '" + index + "' on table '" + handle.qualifiedName() + "'");
    }

    @Override
    public void dropIndex(String schema, String table, String index)
    {
        TableHandle handle = getTable(schema, table)
                .orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s.%s.%s' does not exist", catalogName, schema, table));
        execute(dialect.dropIndex(handle.schema(), handle.table(), index), "Cannot drop index '" + index + "' of table '" + handle.qualifiedName() + "'");
    }

    private String quoted(List<String> columns)
    {
        return String.join(", ", columns.stream().map(dialect::quote).toList());
    }

    @Override
    public void dropTable(String schema, String table)
    {
        TableHandle handle = getTable(schema, table)
                .orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s.%s.%s' does not exist", catalogName, schema, table));
        execute("DROP TABLE " + dialect.qualifiedName(handle.schema(), handle.table()), "Cannot drop table '" + handle.qualifiedName() + "'");
    }

    private void execute(String sql, String action)
    {
        try (Connection connection = pool.connection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
        catch (SQLException e) {
            OntulException failure = errors.failure(action, e);
            if ("42P06".equals(e.getSQLState()) || "42P07".equals(e.getSQLState())) {
                throw new OntulException(ErrorCode.ALREADY_EXISTS, failure.getMessage(), e);
            }
            throw failure;
        }
    }

    private void rejectProperties(Map<String, Object> properties, String kind)
    {
        if (!properties.isEmpty()) {
            String property = new TreeMap<>(properties).firstKey();
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Unknown %s property '%s': the jdbc connector takes none", kind, property);
        }
    }

    private TableHandle handle(Connection connection, String schema, String table)
            throws SQLException
    {
        DatabaseMetaData metaData = connection.getMetaData();
        List<JdbcColumn> columns = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (RemoteColumn remote : columns(metaData, schema, table)) {
            Optional<ColumnMapping> mapping = dialect.columnMapping(remote);
            if (mapping.isPresent()) {
                columns.add(new JdbcColumn(remote, mapping.get()));
                continue;
            }
            leftOut.add(remote.name());
            if (reportedColumns.add(schema + "." + table + "." + remote.name() + ":" + remote.typeName())) {
                LOG.info("Catalog '{}': column {}.{}.{} has type {}, which Ontul does not support; the column is left out", catalogName, schema, table, remote.name(), remote.typeName());
            }
        }
        List<String> primaryKey = primaryKey(metaData, schema, table);
        List<List<String>> uniqueKeys = !primaryKey.isEmpty() && primaryKey.stream().allMatch(name -> columns.stream().anyMatch(column -> column.name().equals(name)))
                ? List.of(primaryKey)
                : List.of();
        double rowCount = rowCount(connection, schema, table);
        JdbcTableHandle jdbcTable = new JdbcTableHandle(catalogName, schema, table, columns, leftOut);
        Schema arrowSchema = new Schema(columns.stream().map(JdbcColumn::field).toList());
        return new TableHandle(catalogName, schema, table, arrowSchema,
                new TableStatistics(rowCount, uniqueKeys, columnStatistics(connection, schema, table, arrowSchema, rowCount)), jdbcTable);
    }

    private Map<String, ColumnStatistics> columnStatistics(Connection connection, String schema, String table, Schema columns, double rowCount)
    {
        try {
            return dialect.columnStatistics(connection, schema, table, columns.getFields(), rowCount);
        }
        catch (SQLException e) {
            LOG.debug("Catalog '{}': no column statistics for {}.{}: {}", catalogName, schema, table, errors.scrub(String.valueOf(e.getMessage())));
            return Map.of();
        }
    }

    private double rowCount(Connection connection, String schema, String table)
    {
        try {
            OptionalLong estimate = dialect.estimateRowCount(connection, schema, table);
            return estimate.isPresent() ? estimate.getAsLong() : -1;
        }
        catch (SQLException e) {
            LOG.debug("Catalog '{}': no row count estimate for {}.{}: {}", catalogName, schema, table, errors.scrub(String.valueOf(e.getMessage())));
            return -1;
        }
    }

    private List<String> schemas(DatabaseMetaData metaData)
            throws SQLException
    {
        List<String> schemas = new ArrayList<>();
        try (ResultSet resultSet = dialect.schemasAreCatalogs() ? metaData.getCatalogs() : metaData.getSchemas()) {
            while (resultSet.next()) {
                String name = resultSet.getString(dialect.schemasAreCatalogs() ? "TABLE_CAT" : "TABLE_SCHEM");
                if (name != null && !dialect.isSystemSchema(name)) {
                    schemas.add(name);
                }
            }
        }
        schemas.sort(null);
        return schemas;
    }

    /** Tables of the schema; only those named {@code table} if it is not null. */
    private List<String> tables(DatabaseMetaData metaData, String schema, String table)
            throws SQLException
    {
        String escape = metaData.getSearchStringEscape();
        String tablePattern = table == null ? "%" : escapePattern(table, escape);
        List<String> tables = new ArrayList<>();
        try (ResultSet resultSet = metaData.getTables(catalogArgument(schema), schemaPattern(schema, escape), tablePattern, dialect.tableTypes().toArray(new String[0]))) {
            while (resultSet.next()) {
                String name = resultSet.getString("TABLE_NAME");
                if (remoteSchemaOf(resultSet).equals(schema) && (table == null || name.equals(table))) {
                    tables.add(name);
                }
            }
        }
        tables.sort(null);
        return tables;
    }

    private Optional<String> remoteTable(DatabaseMetaData metaData, String schema, String table)
            throws SQLException
    {
        List<String> exact = tables(metaData, schema, table);
        if (!exact.isEmpty()) {
            return Optional.of(exact.get(0));
        }
        return match(table, tables(metaData, schema, null));
    }

    private List<RemoteColumn> columns(DatabaseMetaData metaData, String schema, String table)
            throws SQLException
    {
        String escape = metaData.getSearchStringEscape();
        TreeMap<Integer, RemoteColumn> columns = new TreeMap<>();
        try (ResultSet resultSet = metaData.getColumns(catalogArgument(schema), schemaPattern(schema, escape), escapePattern(table, escape), null)) {
            while (resultSet.next()) {
                if (!remoteSchemaOf(resultSet).equals(schema) || !resultSet.getString("TABLE_NAME").equals(table)) {
                    continue;
                }
                int decimalDigits = resultSet.getInt("DECIMAL_DIGITS");
                if (resultSet.wasNull()) {
                    decimalDigits = -1;
                }
                RemoteColumn column = new RemoteColumn(
                        resultSet.getString("COLUMN_NAME"),
                        resultSet.getInt("DATA_TYPE"),
                        String.valueOf(resultSet.getString("TYPE_NAME")),
                        resultSet.getInt("COLUMN_SIZE"),
                        decimalDigits,
                        resultSet.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls);
                columns.put(resultSet.getInt("ORDINAL_POSITION"), column);
            }
        }
        return List.copyOf(columns.values());
    }

    private List<String> primaryKey(DatabaseMetaData metaData, String schema, String table)
            throws SQLException
    {
        TreeMap<Integer, String> columns = new TreeMap<>();
        try (ResultSet resultSet = metaData.getPrimaryKeys(catalogArgument(schema), dialect.schemasAreCatalogs() ? null : schema, table)) {
            while (resultSet.next()) {
                columns.put(resultSet.getInt("KEY_SEQ"), resultSet.getString("COLUMN_NAME"));
            }
        }
        return List.copyOf(columns.values());
    }

    private String catalogArgument(String schema)
    {
        return dialect.schemasAreCatalogs() ? schema : null;
    }

    private String schemaPattern(String schema, String escape)
    {
        return dialect.schemasAreCatalogs() ? null : escapePattern(schema, escape);
    }

    private String remoteSchemaOf(ResultSet resultSet)
            throws SQLException
    {
        return String.valueOf(resultSet.getString(dialect.schemasAreCatalogs() ? "TABLE_CAT" : "TABLE_SCHEM"));
    }

    private static String escapePattern(String name, String escape)
    {
        if (escape == null || escape.isEmpty()) {
            return name;
        }
        return name.replace(escape, escape + escape).replace("_", escape + "_").replace("%", escape + "%");
    }

    /** The name itself if present, else the one name equal to it ignoring case. */
    static Optional<String> match(String name, List<String> names)
    {
        if (names.contains(name)) {
            return Optional.of(name);
        }
        List<String> matches = names.stream().filter(candidate -> candidate.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))).toList();
        return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
    }
}
