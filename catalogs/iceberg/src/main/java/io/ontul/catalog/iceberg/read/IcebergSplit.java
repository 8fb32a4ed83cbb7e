package io.ontul.catalog.iceberg.read;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.FileScanTask;

import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.spi.Split;

/**
 * One file scan task of a table scan: a data file, or the row groups of one that start in
 * {@code [task.start(), task.start() + task.length())}, with its delete files and the residual
 * filter for row-group skipping.
 */
public record IcebergSplit(IcebergTableHandle table, FileScanTask task)
        implements Split
{
    public IcebergSplit
    {
        requireNonNull(table, "table is null");
        requireNonNull(task, "task is null");
    }

    @Override
    public String describe()
    {
        String location = task.file().location();
        String name = location.substring(location.lastIndexOf('/') + 1);
        return "iceberg " + table.qualifiedName() + " " + name + " bytes " + task.start() + "+" + task.length() + (task.deletes().isEmpty() ? "" : " (" + task.deletes().size() + " delete files)");
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
