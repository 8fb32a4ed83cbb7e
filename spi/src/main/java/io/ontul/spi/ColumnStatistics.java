package io.ontul.spi;

/**
 * What the planner knows about one column's values: how many distinct non-NULL values it holds,
 * which share of its rows are NULL, and its smallest and largest value. Used to estimate how many
 * rows a filter keeps and how many groups an aggregation makes, which decide the join order and
 * the build side of each hash join.
 * <p>
 * {@code min} and {@code max} are numbers on one scale per type: numbers (integers, DECIMAL,
 * floating point) as their value, DATE as days since 1970-01-01, TIMESTAMP as milliseconds since
 * 1970-01-01 00:00, TIME as milliseconds of the day, BOOLEAN as 0 and 1. Text and binary columns
 * have none. Anything unknown is {@code NaN}.
 */
public record ColumnStatistics(double distinctCount, double nullFraction, double min, double max)
{
    public static final ColumnStatistics UNKNOWN = new ColumnStatistics(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    public boolean hasDistinctCount()
    {
        return distinctCount >= 0;
    }

    public boolean hasNullFraction()
    {
        return nullFraction >= 0 && nullFraction <= 1;
    }

    public boolean hasRange()
    {
        return !Double.isNaN(min) && !Double.isNaN(max) && min <= max;
    }
}
