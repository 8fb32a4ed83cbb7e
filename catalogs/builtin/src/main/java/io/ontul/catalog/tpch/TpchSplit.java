package io.ontul.catalog.tpch;

import static java.util.Objects.requireNonNull;

import io.ontul.spi.Split;

/**
 * Part {@code part} (1-based) of {@code partCount} of a table, in the generator's own partitioning:
 * the parts of one count together hold every row of the table exactly once.
 */
public record TpchSplit(TpchTableHandle table, int part, int partCount)
        implements Split
{
    public TpchSplit
    {
        requireNonNull(table, "table is null");
        if (partCount < 1 || part < 1 || part > partCount) {
            throw new IllegalArgumentException("invalid part " + part + " of " + partCount);
        }
    }

    @Override
    public String describe()
    {
        return "tpch " + table.schema() + "." + table.table().name() + " part " + part + "/" + partCount;
    }
}
