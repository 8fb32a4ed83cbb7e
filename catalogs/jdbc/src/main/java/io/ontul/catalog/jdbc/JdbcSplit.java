package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import io.ontul.catalog.jdbc.query.SplitRange;
import io.ontul.spi.Split;

/**
 * One part of a table scan: the whole table, or the rows of one range of the table's split
 * column.
 */
public record JdbcSplit(JdbcTableHandle table, Optional<SplitRange> range, int part, int partCount)
        implements Split
{
    public JdbcSplit
    {
        requireNonNull(table, "table is null");
        requireNonNull(range, "range is null");
    }

    @Override
    public String describe()
    {
        return "jdbc " + table.qualifiedName() + range.map(split -> " part " + part + "/" + partCount + " (" + split.describe() + ")").orElse("");
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
