package io.ontul.engine.system;

import java.util.List;

import io.ontul.engine.query.QueryInfo;
import io.ontul.spi.Split;

/**
 * A system table ({@code table}, its handle) and, for the queries, audit, stream task and node tables,
 * the rows the reading query may see, taken when it started.
 */
record SystemSplit(String table, List<QueryInfo> queries, List<io.ontul.engine.security.AuditLog.Event> events, List<StreamTasksTable.Row> streamTasks,
        List<NodesTable.Row> nodes)
        implements Split
{
    SystemSplit
    {
        java.util.Objects.requireNonNull(table, "table is null");
        queries = List.copyOf(queries);
        events = List.copyOf(events);
        streamTasks = List.copyOf(streamTasks);
        nodes = List.copyOf(nodes);
    }

    @Override
    public String describe()
    {
        return switch (table) {
            case TypesTable.NAME -> "system.jdbc.types";
            case AuditEventsTable.NAME -> "system.audit.events (" + events.size() + " rows)";
            case StreamTasksTable.NAME -> "system.runtime.stream_tasks (" + streamTasks.size() + " rows)";
            case NodesTable.NAME -> "system.runtime.nodes (" + nodes.size() + " rows)";
            default -> "system.runtime.queries (" + queries.size() + " rows)";
        };
    }
}
