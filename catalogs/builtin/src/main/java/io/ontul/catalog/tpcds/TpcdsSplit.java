package io.ontul.catalog.tpcds;

import static java.util.Objects.requireNonNull;

import io.ontul.spi.Split;
import io.trino.tpcds.Table;

/** Chunk {@code chunk} of {@code chunks} of a TPC-DS table at a scale factor (1 of 1: all of it). */
public record TpcdsSplit(Table table, double scaleFactor, int chunk, int chunks)
        implements Split
{
    public TpcdsSplit
    {
        requireNonNull(table, "table is null");
    }

    @Override
    public String describe()
    {
        return "tpcds " + table.getName() + " at scale " + scaleFactor + ", chunk " + chunk + " of " + chunks;
    }
}
