package io.ontul.catalog.iceberg;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.MetadataTableUtils;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.iceberg.metadata.IcebergMetadataTables;
import io.ontul.catalog.iceberg.type.IcebergColumn;
import io.ontul.catalog.iceberg.type.IcebergTypes;
import io.ontul.catalog.iceberg.write.IcebergPartitioning;
import io.ontul.catalog.iceberg.write.IcebergTableProperties;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * Schemas are Iceberg namespaces (one level), tables Iceberg tables. Besides the tables, a name
 * may denote a metadata table ({@code orders$snapshots}) or a past snapshot ({@code orders@<id>}),
 * both read-only. Every call loads the table afresh, so commits of other engines are seen at once.
 */
public final class IcebergMetadata
        implements ConnectorMetadata
{
    /** The version of a table without a snapshot (no data yet), as {@link IcebergConnector#version} names it. */
    public static final String NO_SNAPSHOT = "none";

    private static final Logger LOG = LoggerFactory.getLogger(IcebergMetadata.class);
    /** Appends of concurrent statements commit one after another; each retry is cheap. */
    private static final Map<String, String> COMMIT_RETRY_PROPERTIES = Map.of(
            TableProperties.COMMIT_NUM_RETRIES, "20",
            TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "20",
            TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2000");

    private final IcebergConfig config;
    private final IcebergCatalogSupplier catalog;
    private final io.ontul.spi.HostAccessPolicy hostAccess;
    private final Set<String> loggedSkippedColumns = ConcurrentHashMap.newKeySet();

    IcebergMetadata(IcebergConfig config, IcebergCatalogSupplier catalog, io.ontul.spi.HostAccessPolicy hostAccess)
    {
        this.config = requireNonNull(config, "config is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.hostAccess = requireNonNull(hostAccess, "hostAccess is null");
    }

    @Override
    public List<String> listSchemas()
    {
        return call("listing schemas", () -> {
            try {
                return catalog.namespaces().listNamespaces(Namespace.empty()).stream()
                        .filter(namespace -> namespace.length() == 1)
                        .map(namespace -> namespace.level(0))
                        .sorted()
                        .toList();
            }
            catch (NoSuchNamespaceException e) {
                // a Hadoop catalog whose warehouse directory does not exist yet
                return List.of();
            }
        });
    }

    @Override
    public List<String> listTables(String schema)
    {
        return call("listing the tables of schema '" + schema + "'", () -> {
            try {
                return catalog.catalog().listTables(Namespace.of(schema)).stream()
                        .map(TableIdentifier::name)
                        .sorted()
                        .toList();
            }
            catch (NoSuchNamespaceException e) {
                return List.of();
            }
        });
    }

    @Override
    public Optional<TableHandle> getTable(String schema, String table)
    {
        String qualifiedName = qualified(schema, table);
        IcebergTableName name = IcebergTableName.parse(qualifiedName, table);
        Optional<Table> loaded = load(schema, name.isPlain() ? table : name.tableName());
        if (loaded.isEmpty() && !name.isPlain()) {
            // a table whose own name contains '$' or '@'
            loaded = load(schema, table);
            if (loaded.isPresent()) {
                return Optional.of(dataTable(schema, table, loaded.get(), Optional.ofNullable(loaded.get().currentSnapshot()), false));
            }
        }
        if (loaded.isEmpty()) {
            return Optional.empty();
        }
        Table icebergTable = loaded.get();
        if (name.metadataTable().isPresent()) {
            String metadataName = name.metadataTable().get();
            MetadataTableType type = IcebergMetadataTables.type(metadataName).orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND,
                    "Metadata table '%s' of table '%s' does not exist; use one of %s", metadataName, qualified(schema, name.tableName()), IcebergMetadataTables.supportedNames()));
            Table metadataTable = MetadataTableUtils.createMetadataTableInstance(icebergTable, type);
            List<IcebergColumn> columns = IcebergMetadataTables.columns(metadataTable.schema());
            IcebergMetadataTableHandle handle = new IcebergMetadataTableHandle(qualifiedName, metadataTable, columns);
            return Optional.of(new TableHandle(config.catalogName(), schema, table, arrowSchema(columns), TableStatistics.UNKNOWN, handle));
        }
        if (name.snapshotId().isPresent()) {
            long snapshotId = name.snapshotId().getAsLong();
            Snapshot snapshot = icebergTable.snapshot(snapshotId);
            if (snapshot == null) {
                throw OntulException.userError(ErrorCode.NOT_FOUND, "Snapshot %d of table '%s' does not exist; see \"%s$snapshots\"",
                        snapshotId, qualified(schema, name.tableName()), name.tableName());
            }
            return Optional.of(dataTable(schema, table, icebergTable, Optional.of(snapshot), true));
        }
        return Optional.of(dataTable(schema, table, icebergTable, Optional.ofNullable(icebergTable.currentSnapshot()), false));
    }

    /**
     * The data table at the snapshot another node planned with ({@code version}: a snapshot id, or
     * {@value #NO_SNAPSHOT} when it had none); a metadata table or a snapshot named in
     * {@code table} itself is looked up as usual.
     */
    @Override
    public Optional<TableHandle> getTable(String schema, String table, String version)
    {
        IcebergTableName name = IcebergTableName.parse(qualified(schema, table), table);
        if (!name.isPlain()) {
            return getTable(schema, table);
        }
        Optional<Table> loaded = load(schema, table);
        if (loaded.isEmpty()) {
            return Optional.empty();
        }
        Table icebergTable = loaded.get();
        if (version.equals(NO_SNAPSHOT)) {
            return Optional.of(dataTable(schema, table, icebergTable, Optional.empty(), false));
        }
        Snapshot snapshot;
        try {
            snapshot = icebergTable.snapshot(Long.parseLong(version));
        }
        catch (NumberFormatException e) {
            throw OntulException.internal("version '" + version + "' of Iceberg table '" + qualified(schema, table) + "' is no snapshot id", e);
        }
        if (snapshot == null) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Snapshot %s of table '%s', which the query reads, no longer exists (expired while the query ran?)", version, qualified(schema, table));
        }
        return Optional.of(dataTable(schema, table, icebergTable, Optional.of(snapshot), false));
    }

    private TableHandle dataTable(String schema, String tableName, Table table, Optional<Snapshot> snapshot, boolean timeTravel)
    {
        String qualifiedName = qualified(schema, tableName);
        org.apache.iceberg.Schema icebergSchema = timeTravel ? SnapshotUtil.schemaFor(table, snapshot.orElseThrow().snapshotId()) : table.schema();
        List<Types.NestedField> skipped = new ArrayList<>();
        List<IcebergColumn> columns = IcebergTypes.columns(icebergSchema, skipped);
        for (Types.NestedField field : skipped) {
            if (loggedSkippedColumns.add(qualifiedName + "." + field.name())) {
                LOG.info("Column '{}' of Iceberg table '{}' has type {}, which Ontul cannot read; the column is left out", field.name(), qualifiedName, field.type());
            }
        }
        IcebergTableHandle handle = new IcebergTableHandle(qualifiedName, table, icebergSchema, columns, snapshot, timeTravel);
        return new TableHandle(config.catalogName(), schema, tableName, arrowSchema(columns), statistics(snapshot), handle);
    }

    private static TableStatistics statistics(Optional<Snapshot> snapshot)
    {
        if (snapshot.isEmpty()) {
            return new TableStatistics(0);
        }
        Map<String, String> summary = snapshot.get().summary();
        String totalRecords = summary == null ? null : summary.get(SnapshotSummary.TOTAL_RECORDS_PROP);
        if (totalRecords == null) {
            return TableStatistics.UNKNOWN;
        }
        try {
            return new TableStatistics(Long.parseLong(totalRecords));
        }
        catch (NumberFormatException e) {
            return TableStatistics.UNKNOWN;
        }
    }

    private static Schema arrowSchema(List<IcebergColumn> columns)
    {
        return new Schema(columns.stream().map(IcebergColumn::arrowField).toList());
    }

    private Optional<Table> load(String schema, String table)
    {
        return call("loading table '" + qualified(schema, table) + "'", () -> {
            try {
                return Optional.of(catalog.catalog().loadTable(TableIdentifier.of(schema, table)));
            }
            catch (NoSuchTableException | NoSuchNamespaceException e) {
                return Optional.empty();
            }
        });
    }

    /** A PRIMARY KEY is recorded as the table's identifier fields (Iceberg does not enforce it); Iceberg has no UNIQUE or DEFAULT of ours. */
    @Override
    public java.util.Set<io.ontul.spi.TableConstraints.Kind> supportedConstraints()
    {
        return java.util.Set.of(io.ontul.spi.TableConstraints.Kind.PRIMARY_KEY);
    }

    @Override
    public TableHandle createTable(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        String qualifiedName = qualified(schema, table);
        Catalog.TableBuilder builder = tableBuilder(schema, table, columns, properties);
        call("creating table '" + qualifiedName + "'", () -> {
            try {
                return builder.create();
            }
            catch (AlreadyExistsException e) {
                throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Table '%s' already exists", qualifiedName);
            }
        });
        return getTable(schema, table).orElseThrow(() -> OntulException.internal("table '" + qualifiedName + "' vanished right after it was created", null));
    }

    /**
     * A table that exists only in {@code transaction} until it commits (CREATE TABLE AS): data
     * files are written into its location meanwhile, and the commit creates the table with them.
     */
    public record PendingTable(Transaction transaction, IcebergTableHandle handle) {}

    /**
     * Begins the creation of a table that the catalog sees only when its create-table transaction
     * commits. Data files a crashed server left in the table's default location, named as Ontul
     * names them and belonging to no table, are deleted first.
     */
    public PendingTable beginCreateTable(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        String qualifiedName = qualified(schema, table);
        Catalog.TableBuilder builder = tableBuilder(schema, table, columns, properties);
        Transaction transaction = call("creating table '" + qualifiedName + "'", () -> {
            try {
                return builder.createTransaction();
            }
            catch (AlreadyExistsException e) {
                throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Table '%s' already exists", qualifiedName);
            }
        });
        Table pending = transaction.table();
        if (!properties.containsKey(IcebergTableProperties.LOCATION)) {
            call("removing files of an earlier, unfinished CREATE TABLE '" + qualifiedName + "'", () -> {
                IcebergLeftovers.deleteUncommittedDataFiles(qualifiedName, pending);
                return null;
            });
        }
        TableHandle handle = dataTable(schema, table, pending, Optional.empty(), false);
        return new PendingTable(transaction, (IcebergTableHandle) handle.connectorHandle());
    }

    /** Checks the name, properties and location of a new table and prepares its creation. */
    private Catalog.TableBuilder tableBuilder(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        String qualifiedName = qualified(schema, table);
        if (!IcebergTableName.parse(qualifiedName, table).isPlain()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Table name '%s' is reserved: '$' names metadata tables and '@' snapshots", qualifiedName);
        }
        IcebergTableProperties tableProperties = IcebergTableProperties.parse(qualifiedName, properties);
        tableProperties.location().ifPresent(location -> hostAccess.checkLocation(config.catalogName(), IcebergTableProperties.LOCATION, location));
        org.apache.iceberg.Schema icebergSchema = IcebergTypes.toIcebergSchema(qualifiedName, columns);
        PartitionSpec spec = IcebergPartitioning.parse(qualifiedName, icebergSchema, tableProperties.partitioning());
        Map<String, String> icebergProperties = new HashMap<>(COMMIT_RETRY_PROPERTIES);
        icebergProperties.putAll(tableProperties.icebergProperties());
        icebergProperties.put(TableProperties.FORMAT_VERSION, Integer.toString(tableProperties.formatVersion()));
        return call("creating table '" + qualifiedName + "'", () -> {
            requireSchema(schema);
            Catalog.TableBuilder builder = catalog.catalog().buildTable(TableIdentifier.of(schema, table), icebergSchema)
                    .withPartitionSpec(spec)
                    .withProperties(icebergProperties);
            tableProperties.location().ifPresent(builder::withLocation);
            return builder;
        });
    }

    @Override
    public void dropTable(String schema, String table)
    {
        String qualifiedName = qualified(schema, table);
        if (!IcebergTableName.parse(qualifiedName, table).isPlain() && load(schema, table).isEmpty()) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Cannot drop '%s': metadata tables and snapshots are read-only", qualifiedName);
        }
        boolean dropped = call("dropping table '" + qualifiedName + "'", () -> catalog.catalog().dropTable(TableIdentifier.of(schema, table), true));
        if (!dropped) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s' does not exist", qualifiedName);
        }
    }

    @Override
    public void createSchema(String schema, Map<String, Object> properties)
    {
        Map<String, String> namespaceProperties = new HashMap<>();
        properties.forEach((key, value) -> {
            if (value instanceof List) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s': property '%s' must be a single value", config.catalogName(), schema, key);
            }
            namespaceProperties.put(key, String.valueOf(value));
        });
        if (namespaceProperties.containsKey("location")) {
            hostAccess.checkLocation(config.catalogName(), "location", namespaceProperties.get("location"));
        }
        call("creating schema '" + schema + "'", () -> {
            try {
                catalog.namespaces().createNamespace(Namespace.of(schema), namespaceProperties);
            }
            catch (AlreadyExistsException e) {
                throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Schema '%s.%s' already exists", config.catalogName(), schema);
            }
            catch (UnsupportedOperationException e) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s': the %s catalog takes no schema properties (%s)",
                        config.catalogName(), schema, config.catalogType().propertyValue(), String.join(", ", namespaceProperties.keySet()));
            }
            return null;
        });
    }

    @Override
    public void dropSchema(String schema)
    {
        call("dropping schema '" + schema + "'", () -> {
            requireSchema(schema);
            List<TableIdentifier> tables = catalog.catalog().listTables(Namespace.of(schema));
            if (!tables.isEmpty()) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s' is not empty: it has %d tables (%s); drop them first",
                        config.catalogName(), schema, tables.size(), tables.stream().map(TableIdentifier::name).sorted().limit(5).toList());
            }
            try {
                catalog.namespaces().dropNamespace(Namespace.of(schema));
            }
            catch (NamespaceNotEmptyException e) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Schema '%s.%s' is not empty; drop its tables first", config.catalogName(), schema);
            }
            return null;
        });
    }

    private void requireSchema(String schema)
    {
        if (!catalog.namespaces().namespaceExists(Namespace.of(schema))) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Schema '%s.%s' does not exist", config.catalogName(), schema);
        }
    }

    private String qualified(String schema, String table)
    {
        return config.catalogName() + "." + schema + "." + table;
    }

    private <T> T call(String what, Supplier<T> action)
    {
        try {
            return action.get();
        }
        catch (OntulException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw IcebergErrors.external(config, "failed " + what, e);
        }
    }
}
