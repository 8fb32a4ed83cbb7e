package io.ontul.catalog.iceberg.type;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.types.Type;

/**
 * A top-level column of an Iceberg table as Ontul sees it: the Iceberg field (by id, so renamed
 * columns still match the files written before the rename) and the Arrow field the engine reads.
 */
public record IcebergColumn(String name, int fieldId, Type icebergType, boolean required, Field arrowField)
{
    public IcebergColumn
    {
        requireNonNull(name, "name is null");
        requireNonNull(icebergType, "icebergType is null");
        requireNonNull(arrowField, "arrowField is null");
    }
}
