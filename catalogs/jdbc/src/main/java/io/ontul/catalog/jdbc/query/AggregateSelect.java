package io.ontul.catalog.jdbc.query;

import java.util.List;

/**
 * The parts of an aggregating SELECT: its select list (grouping expressions first), its GROUP BY
 * expressions (none for a global aggregate) and how the result columns become the vectors of the
 * engine's rows.
 */
public record AggregateSelect(List<String> selectItems, List<String> groupBy, List<ResultColumn> columns)
{
    public AggregateSelect
    {
        selectItems = List.copyOf(selectItems);
        groupBy = List.copyOf(groupBy);
        columns = List.copyOf(columns);
    }
}
