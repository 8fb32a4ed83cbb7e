package io.ontul.spi;

/**
 * What the planner knows about a table's size. {@code rowCount} is an estimate; negative means
 * unknown.
 */
public record TableStatistics(double rowCount)
{
    public static final TableStatistics UNKNOWN = new TableStatistics(-1);

    public boolean isKnown()
    {
        return rowCount >= 0;
    }
}
