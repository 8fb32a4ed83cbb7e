package io.ontul.engine.system;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.query.QueryContext;
import io.ontul.engine.query.QueryInfo;
import io.ontul.engine.query.QueryRegistry;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * The {@code system} catalog: the engine's own state as read-only tables. Schema
 * {@code runtime} holds {@code queries}, the statements of the {@link QueryRegistry} (a user sees
 * their own statements, an administrator everyone's), {@code stream_tasks} and {@code nodes}, the
 * members of the cluster. Schema {@code jdbc} holds {@code types},
 * the SQL types as JDBC's {@code getTypeInfo} reports them. Schema {@code audit} holds
 * {@code events}, the audit log (its schema is for administrators only: the access control says so).
 */
public final class SystemConnector
        implements QueryAwareConnector
{
    public static final String CATALOG = "system";

    private final QueryRegistry registry;
    private final io.ontul.engine.security.AuditLog audit;
    private final java.util.function.Supplier<List<StreamTasksTable.Row>> streamTasks;
    private final java.util.function.Supplier<List<NodesTable.Row>> nodes;
    private final ConnectorMetadata metadata = new ConnectorMetadata()
    {
        @Override
        public List<String> listSchemas()
        {
            return List.of(AuditEventsTable.SCHEMA, TypesTable.SCHEMA, QueriesTable.SCHEMA);
        }

        @Override
        public List<String> listTables(String schema)
        {
            return switch (schema) {
                case QueriesTable.SCHEMA -> List.of(NodesTable.NAME, QueriesTable.NAME, StreamTasksTable.NAME);
                case TypesTable.SCHEMA -> List.of(TypesTable.NAME);
                case AuditEventsTable.SCHEMA -> List.of(AuditEventsTable.NAME);
                default -> List.of();
            };
        }

        @Override
        public Optional<TableHandle> getTable(String schema, String table)
        {
            if (schema.equals(QueriesTable.SCHEMA) && table.equals(QueriesTable.NAME)) {
                return Optional.of(new TableHandle(CATALOG, schema, table, QueriesTable.COLUMNS.schema(), TableStatistics.UNKNOWN, QueriesTable.NAME));
            }
            if (schema.equals(StreamTasksTable.SCHEMA) && table.equals(StreamTasksTable.NAME)) {
                return Optional.of(new TableHandle(CATALOG, schema, table, StreamTasksTable.COLUMNS.schema(), TableStatistics.UNKNOWN, StreamTasksTable.NAME));
            }
            if (schema.equals(NodesTable.SCHEMA) && table.equals(NodesTable.NAME)) {
                return Optional.of(new TableHandle(CATALOG, schema, table, NodesTable.COLUMNS.schema(), TableStatistics.UNKNOWN, NodesTable.NAME));
            }
            if (schema.equals(AuditEventsTable.SCHEMA) && table.equals(AuditEventsTable.NAME)) {
                return Optional.of(new TableHandle(CATALOG, schema, table, AuditEventsTable.COLUMNS.schema(), TableStatistics.UNKNOWN, AuditEventsTable.NAME));
            }
            if (schema.equals(TypesTable.SCHEMA) && table.equals(TypesTable.NAME)) {
                return Optional.of(new TableHandle(CATALOG, schema, table, TypesTable.SCHEMA_COLUMNS, new TableStatistics(io.ontul.engine.type.TypeInfo.rows(null).size()), TypesTable.NAME));
            }
            return Optional.empty();
        }
    };

    /**
     * @param streamTasks the tasks of the running streaming jobs (the job manager is made after the catalogs)
     * @param nodes the members of the cluster
     */
    public SystemConnector(QueryRegistry registry, io.ontul.engine.security.AuditLog audit, java.util.function.Supplier<List<StreamTasksTable.Row>> streamTasks,
            java.util.function.Supplier<List<NodesTable.Row>> nodes)
    {
        this.registry = requireNonNull(registry, "registry is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.streamTasks = requireNonNull(streamTasks, "streamTasks is null");
        this.nodes = requireNonNull(nodes, "nodes is null");
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return metadata;
    }

    /** Without a query there is nobody to show statements to. */
    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        return List.of(new SystemSplit((String) table.connectorHandle(), List.of(), List.of(), List.of(), List.of()));
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits, QueryContext query)
    {
        String name = (String) table.connectorHandle();
        return List.of(new SystemSplit(name, name.equals(QueriesTable.NAME) ? registry.queries(query.user()) : List.of(),
                name.equals(AuditEventsTable.NAME) ? audit.events() : List.of(),
                name.equals(StreamTasksTable.NAME) ? streamTasks.get() : List.of(),
                name.equals(NodesTable.NAME) ? nodes.get() : List.of()));
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        SystemSplit systemSplit = (SystemSplit) split;
        List<QueryInfo> rows = systemSplit.queries();
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
                return switch (systemSplit.table()) {
                    case TypesTable.NAME -> TypesTable.batch(scan.columns(), allocator);
                    case AuditEventsTable.NAME -> AuditEventsTable.COLUMNS.batch(systemSplit.events(), scan.columns(), allocator);
                    case StreamTasksTable.NAME -> StreamTasksTable.COLUMNS.batch(systemSplit.streamTasks(), scan.columns(), allocator);
                    case NodesTable.NAME -> NodesTable.COLUMNS.batch(systemSplit.nodes(), scan.columns(), allocator);
                    default -> QueriesTable.COLUMNS.batch(rows, scan.columns(), allocator);
                };
            }

            @Override
            public void close() {}
        };
    }
}
