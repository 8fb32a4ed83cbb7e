package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.ontul.spi.Split;

/**
 * A group of stored batches of one table, from the snapshot taken when the scan started.
 */
record MemorySplit(MemoryTable table, List<MemoryBatch> batches, int part, int partCount)
        implements Split
{
    MemorySplit
    {
        requireNonNull(table, "table is null");
        batches = List.copyOf(requireNonNull(batches, "batches is null"));
    }

    @Override
    public String describe()
    {
        return "memory " + table.schemaName() + "." + table.tableName() + " part " + part + "/" + partCount + " (" + batches.size() + " batches)";
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
