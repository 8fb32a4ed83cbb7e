package io.ontul.engine.system;

import java.util.List;

import io.ontul.engine.query.QueryInfo;
import io.ontul.spi.Split;

/**
 * A system table ({@code table}, its handle) and, for the queries and audit tables, the rows the
 * reading query may see, taken when it started.
 */
record SystemSplit(String table, List<QueryInfo> queries, List<io.ontul.engine.security.AuditLog.Event> events)
        implements Split
{
    SystemSplit
    {
        java.util.Objects.requireNonNull(table, "table is null");
        queries = List.copyOf(queries);
        events = List.copyOf(events);
    }

    @Override
    public String describe()
    {
        return switch (table) {
            case TypesTable.NAME -> "system.jdbc.types";
            case AuditEventsTable.NAME -> "system.audit.events (" + events.size() + " rows)";
            default -> "system.runtime.queries (" + queries.size() + " rows)";
        };
    }
}
