package io.ontul.catalog.iceberg;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalLong;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A table name as written in a query: {@code orders}, a metadata table {@code orders$snapshots},
 * or a snapshot of the table {@code orders@8744736658442914487} (time travel, the equivalent of
 * {@code FOR VERSION AS OF}). Both forms must be quoted in SQL: {@code iceberg.db."orders$files"}.
 */
public record IcebergTableName(String tableName, Optional<String> metadataTable, OptionalLong snapshotId)
{
    public IcebergTableName
    {
        requireNonNull(tableName, "tableName is null");
        requireNonNull(metadataTable, "metadataTable is null");
        requireNonNull(snapshotId, "snapshotId is null");
    }

    /** Parses {@code name}; a name without {@code $} or {@code @} is a plain table. */
    public static IcebergTableName parse(String qualifiedName, String name)
    {
        int dollar = name.lastIndexOf('$');
        int at = name.lastIndexOf('@');
        if (dollar > 0 && dollar > at) {
            return new IcebergTableName(name.substring(0, dollar), Optional.of(name.substring(dollar + 1)), OptionalLong.empty());
        }
        if (at > 0) {
            String id = name.substring(at + 1);
            try {
                return new IcebergTableName(name.substring(0, at), Optional.empty(), OptionalLong.of(Long.parseLong(id)));
            }
            catch (NumberFormatException e) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Table '%s': '%s' is not a snapshot id; write the table as \"table@<snapshot id>\" with the id from \"table$snapshots\"", qualifiedName, id);
            }
        }
        return new IcebergTableName(name, Optional.empty(), OptionalLong.empty());
    }

    public boolean isPlain()
    {
        return metadataTable.isEmpty() && snapshotId.isEmpty();
    }
}
