package io.ontul.catalog.iceberg;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.iceberg.Table;

import io.ontul.catalog.iceberg.type.IcebergColumn;

/**
 * A read-only metadata table of an Iceberg table ({@code orders$snapshots}, {@code orders$files}...):
 * Iceberg's own metadata table, whose nested columns Ontul shows as text.
 */
public record IcebergMetadataTableHandle(String qualifiedName, Table metadataTable, List<IcebergColumn> columns)
{
    public IcebergMetadataTableHandle
    {
        requireNonNull(qualifiedName, "qualifiedName is null");
        requireNonNull(metadataTable, "metadataTable is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }

    @Override
    public String toString()
    {
        return "iceberg metadata table " + qualifiedName;
    }
}
