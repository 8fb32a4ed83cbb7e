package io.ontul.engine.system;

import java.util.List;

import io.ontul.engine.query.QueryInfo;
import io.ontul.spi.Split;

/** A system table ({@code table}, its handle) and, for the queries table, the rows the reading query may see, taken when it started. */
record SystemSplit(String table, List<QueryInfo> queries)
        implements Split
{
    SystemSplit
    {
        java.util.Objects.requireNonNull(table, "table is null");
        queries = List.copyOf(queries);
    }

    @Override
    public String describe()
    {
        return table.equals(TypesTable.NAME) ? "system.jdbc.types" : "system.runtime.queries (" + queries.size() + " rows)";
    }
}
