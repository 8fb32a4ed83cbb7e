package io.ontul.engine.system;

import java.util.List;

import io.ontul.engine.query.QueryInfo;
import io.ontul.spi.Split;

/** The rows of a system table as the reading query may see them, taken when the query started. */
record SystemSplit(List<QueryInfo> queries)
        implements Split
{
    SystemSplit
    {
        queries = List.copyOf(queries);
    }

    @Override
    public String describe()
    {
        return "system.runtime.queries (" + queries.size() + " rows)";
    }
}
