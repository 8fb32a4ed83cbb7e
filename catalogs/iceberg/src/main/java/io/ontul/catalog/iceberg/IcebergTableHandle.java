package io.ontul.catalog.iceberg;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

import io.ontul.catalog.iceberg.type.IcebergColumn;

/**
 * An Iceberg data table as a query sees it: the table loaded when the query was planned, the
 * snapshot it reads (the current one, or the one named with {@code table@<id>}), that snapshot's
 * schema and its readable columns. Scans read {@code snapshot} even if the table changes
 * meanwhile; an empty snapshot means the table has no data yet.
 */
public record IcebergTableHandle(String qualifiedName, Table table, Schema schema, List<IcebergColumn> columns, Optional<Snapshot> snapshot, boolean timeTravel)
{
    public IcebergTableHandle
    {
        requireNonNull(qualifiedName, "qualifiedName is null");
        requireNonNull(table, "table is null");
        requireNonNull(schema, "schema is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(snapshot, "snapshot is null");
    }

    public Optional<IcebergColumn> column(String name)
    {
        return columns.stream().filter(column -> column.name().equals(name)).findFirst();
    }

    @Override
    public String toString()
    {
        return "iceberg table " + qualifiedName + snapshot.map(value -> " at snapshot " + value.snapshotId()).orElse(" (empty)");
    }
}
