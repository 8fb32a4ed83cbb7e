package io.ontul.engine.system;

import static io.ontul.engine.system.SystemColumns.BIGINT;
import static io.ontul.engine.system.SystemColumns.VARCHAR;
import static io.ontul.engine.system.SystemColumns.column;
import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;

import io.ontul.engine.metadata.StoredView;
import io.ontul.engine.metadata.StoredViews;
import io.ontul.engine.security.Securable;
import io.ontul.engine.security.UserAccess;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.engine.type.OntulTypeSystem;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * {@code <catalog>.information_schema}, as PostgreSQL and Trino have it, for the tools that ask
 * it rather than JDBC's metadata calls: {@code schemata}, {@code tables} (base tables and views),
 * {@code columns}, {@code views}, {@code table_constraints} and {@code key_column_usage} (primary
 * keys, {@link TableHandle#primaryKey}). Made for one statement, with its user's access: a user
 * sees the rows of what the listings show them. Rows are read from the catalog when the scan
 * starts, only for the schema and table a scan's equality filter names, when it names them.
 */
public final class InformationSchema
        implements Connector
{
    public static final String SCHEMA = io.ontul.engine.sql.CatalogSchemas.INFORMATION_SCHEMA;

    private static final SystemColumns<List<Object>> SCHEMATA = columns("schemata", "catalog_name", "schema_name");
    private static final SystemColumns<List<Object>> TABLES = columns("tables", "table_catalog", "table_schema", "table_name", "table_type");
    private static final SystemColumns<List<Object>> COLUMNS = new SystemColumns<>("information_schema.columns", List.of(
            column("table_catalog", VARCHAR, false, row -> row.get(0)),
            column("table_schema", VARCHAR, false, row -> row.get(1)),
            column("table_name", VARCHAR, false, row -> row.get(2)),
            column("column_name", VARCHAR, false, row -> row.get(3)),
            column("ordinal_position", BIGINT, false, row -> row.get(4)),
            column("column_default", VARCHAR, true, row -> row.get(5)),
            column("is_nullable", VARCHAR, false, row -> row.get(6)),
            column("data_type", VARCHAR, false, row -> row.get(7))));
    private static final SystemColumns<List<Object>> VIEWS = columns("views", "table_catalog", "table_schema", "table_name", "view_definition");
    private static final SystemColumns<List<Object>> TABLE_CONSTRAINTS = columns("table_constraints",
            "constraint_catalog", "constraint_schema", "constraint_name", "table_catalog", "table_schema", "table_name", "constraint_type");
    private static final SystemColumns<List<Object>> KEY_COLUMN_USAGE = new SystemColumns<>("information_schema.key_column_usage", List.of(
            column("constraint_catalog", VARCHAR, false, row -> row.get(0)),
            column("constraint_schema", VARCHAR, false, row -> row.get(1)),
            column("constraint_name", VARCHAR, false, row -> row.get(2)),
            column("table_catalog", VARCHAR, false, row -> row.get(3)),
            column("table_schema", VARCHAR, false, row -> row.get(4)),
            column("table_name", VARCHAR, false, row -> row.get(5)),
            column("column_name", VARCHAR, false, row -> row.get(6)),
            column("ordinal_position", BIGINT, false, row -> row.get(7))));

    private static final Map<String, SystemColumns<List<Object>>> TABLE_COLUMNS = Map.of(
            "schemata", SCHEMATA, "tables", TABLES, "columns", COLUMNS, "views", VIEWS,
            "table_constraints", TABLE_CONSTRAINTS, "key_column_usage", KEY_COLUMN_USAGE);

    private final String catalog;
    private final Connector connector;
    private final StoredViews views;
    private final UserAccess access;

    /**
     * @param connector the catalog's connector, whose schemas and tables the rows describe
     * @param views the views Ontul keeps, those of this catalog described too
     * @param access the statement's user: rows only for what they can see
     */
    public InformationSchema(String catalog, Connector connector, StoredViews views, UserAccess access)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.connector = requireNonNull(connector, "connector is null");
        this.views = requireNonNull(views, "views is null");
        this.access = requireNonNull(access, "access is null");
    }

    /** The columns of information_schema table {@code table}, if there is one: the same in every catalog. */
    public static Optional<org.apache.arrow.vector.types.pojo.Schema> tableColumns(String table)
    {
        return Optional.ofNullable(TABLE_COLUMNS.get(table)).map(SystemColumns::schema);
    }

    /** The information schemas of the catalogs for one statement's user: {@link io.ontul.engine.sql.CatalogSchemas}'s factory. */
    public static java.util.function.BiFunction<String, Connector, Connector> forUser(StoredViews views, UserAccess access)
    {
        return (catalog, connector) -> new InformationSchema(catalog, connector, views, access);
    }

    private static SystemColumns<List<Object>> columns(String table, String... names)
    {
        List<SystemColumns.Column<List<Object>>> columns = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            int index = i;
            columns.add(column(names[i], VARCHAR, false, row -> row.get(index)));
        }
        return new SystemColumns<>("information_schema." + table, columns);
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return new ConnectorMetadata()
        {
            @Override
            public List<String> listSchemas()
            {
                return List.of(SCHEMA);
            }

            @Override
            public List<String> listTables(String schema)
            {
                return schema.equals(SCHEMA) ? TABLE_COLUMNS.keySet().stream().sorted().toList() : List.of();
            }

            @Override
            public Optional<TableHandle> getTable(String schema, String table)
            {
                SystemColumns<List<Object>> columns = schema.equals(SCHEMA) ? TABLE_COLUMNS.get(table) : null;
                return columns == null ? Optional.empty() : Optional.of(new TableHandle(catalog, SCHEMA, table, columns.schema(), TableStatistics.UNKNOWN, table));
            }
        };
    }

    /** One split holding the rows, read from the catalog now. */
    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        return List.of(new RowsSplit((String) table.connectorHandle(), rows((String) table.connectorHandle(), scan)));
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        RowsSplit rows = (RowsSplit) split;
        return new BatchSource()
        {
            private boolean done;

            @Override
            public VectorSchemaRoot next()
            {
                if (done) {
                    return null;
                }
                done = true;
                return TABLE_COLUMNS.get(rows.table()).batch(rows.rows(), scan.columns(), allocator);
            }

            @Override
            public void close() {}
        };
    }

    private record RowsSplit(String table, List<List<Object>> rows)
            implements Split {}

    private List<List<Object>> rows(String table, ScanSpec scan)
    {
        Predicate<String> schemaWanted = wanted(scan, table.equals("schemata") ? "schema_name" : "table_schema");
        Predicate<String> tableWanted = wanted(scan, "table_name");
        List<List<Object>> rows = new ArrayList<>();
        List<String> schemas = new ArrayList<>(connector.metadata().listSchemas().stream().filter(schema -> access.canSee(Securable.schema(catalog, schema))).sorted().toList());
        if (!schemas.contains(SCHEMA)) {
            schemas.add(SCHEMA);
        }
        JavaTypeFactoryImpl types = new JavaTypeFactoryImpl(OntulTypeSystem.INSTANCE);
        for (String schema : schemas) {
            if (!schemaWanted.test(schema)) {
                continue;
            }
            if (table.equals("schemata")) {
                rows.add(List.of(catalog, schema));
                continue;
            }
            Connector source = schema.equals(SCHEMA) ? this : connector;
            for (String name : source.metadata().listTables(schema)) {
                if (!tableWanted.test(name) || !schema.equals(SCHEMA) && !access.canSee(Securable.table(catalog, schema, name))) {
                    continue;
                }
                switch (table) {
                    case "tables" -> rows.add(List.of(catalog, schema, name, "BASE TABLE"));
                    case "columns" -> source.metadata().getTable(schema, name).ifPresent(handle -> addColumns(rows, schema, name, handle.columns().getFields(), types));
                    case "table_constraints" -> source.metadata().getTable(schema, name).flatMap(TableHandle::primaryKey)
                            .ifPresent(key -> rows.add(List.of(catalog, schema, name + "_pkey", catalog, schema, name, "PRIMARY KEY")));
                    case "key_column_usage" -> source.metadata().getTable(schema, name).flatMap(TableHandle::primaryKey).ifPresent(key -> {
                        for (int i = 0; i < key.size(); i++) {
                            rows.add(List.of(catalog, schema, name + "_pkey", catalog, schema, name, key.get(i), (long) (i + 1)));
                        }
                    });
                    default -> {
                        // "views" lists views only, below
                    }
                }
            }
            if (!schema.equals(SCHEMA) && (table.equals("tables") || table.equals("columns") || table.equals("views"))) {
                for (StoredView view : views.list(catalog, schema)) {
                    if (!tableWanted.test(view.name()) || !access.canSee(Securable.table(catalog, schema, view.name()))) {
                        continue;
                    }
                    switch (table) {
                        case "tables" -> rows.add(List.of(catalog, schema, view.name(), "VIEW"));
                        case "columns" -> addColumns(rows, schema, view.name(), view.columns().getFields(), types);
                        default -> rows.add(List.of(catalog, schema, view.name(), view.definition()));
                    }
                }
            }
        }
        return rows;
    }

    private void addColumns(List<List<Object>> rows, String schema, String table, List<Field> fields, JavaTypeFactoryImpl types)
    {
        for (int i = 0; i < fields.size(); i++) {
            Field field = fields.get(i);
            if ("true".equals(field.getMetadata().get(TableHandle.HIDDEN_COLUMN))) {
                continue;
            }
            List<Object> row = new ArrayList<>(List.of(catalog, schema, table, field.getName(), (long) (i + 1)));
            row.add(null);
            row.add(field.isNullable() ? "YES" : "NO");
            row.add(ArrowTypes.sqlName(ArrowTypes.toRelType(types, field)));
            rows.add(row);
        }
    }

    /** The values an equality (or IN) filter of the scan allows for {@code column}; everything when it has none. */
    private static Predicate<String> wanted(ScanSpec scan, String column)
    {
        for (ColumnPredicate predicate : scan.predicates()) {
            if (predicate.column().equals(column) && (predicate.operator() == ColumnPredicate.Operator.EQUAL || predicate.operator() == ColumnPredicate.Operator.IN)) {
                List<Object> values = predicate.values();
                return name -> values.stream().anyMatch(value -> name.equals(String.valueOf(value)));
            }
        }
        return name -> true;
    }
}
