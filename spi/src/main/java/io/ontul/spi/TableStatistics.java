package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What the planner knows about a table: an estimated row count (negative means unknown) and
 * column sets known to be unique (primary keys, or columns a connector found to hold no
 * duplicates). Unique keys let the optimizer recognise key/foreign-key joins when it orders
 * joins.
 */
public record TableStatistics(double rowCount, List<List<String>> uniqueKeys)
{
    public static final TableStatistics UNKNOWN = new TableStatistics(-1);

    public TableStatistics
    {
        uniqueKeys = requireNonNull(uniqueKeys, "uniqueKeys is null").stream().map(List::copyOf).toList();
    }

    public TableStatistics(double rowCount)
    {
        this(rowCount, List.of());
    }

    public boolean isKnown()
    {
        return rowCount >= 0;
    }
}
