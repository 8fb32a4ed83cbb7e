package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * What the planner knows about a table: an estimated row count (negative means unknown), column
 * sets known to be unique (primary keys, or columns a connector found to hold no duplicates), and
 * statistics of single columns by column name ({@link ColumnStatistics}; a column without an entry
 * is unknown). Unique keys let the optimizer recognise key/foreign-key joins when it orders
 * joins; column statistics let it estimate filters and aggregations.
 */
public record TableStatistics(double rowCount, List<List<String>> uniqueKeys, Map<String, ColumnStatistics> columns)
{
    public static final TableStatistics UNKNOWN = new TableStatistics(-1);

    public TableStatistics
    {
        uniqueKeys = requireNonNull(uniqueKeys, "uniqueKeys is null").stream().map(List::copyOf).toList();
        columns = Map.copyOf(requireNonNull(columns, "columns is null"));
    }

    public TableStatistics(double rowCount, List<List<String>> uniqueKeys)
    {
        this(rowCount, uniqueKeys, Map.of());
    }

    public TableStatistics(double rowCount)
    {
        this(rowCount, List.of());
    }

    public boolean isKnown()
    {
        return rowCount >= 0;
    }

    /** The statistics of {@code column}, {@link ColumnStatistics#UNKNOWN} when there are none. */
    public ColumnStatistics column(String column)
    {
        return columns.getOrDefault(column, ColumnStatistics.UNKNOWN);
    }
}
