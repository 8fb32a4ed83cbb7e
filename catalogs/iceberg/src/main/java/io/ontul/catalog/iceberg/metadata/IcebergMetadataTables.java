package io.ontul.catalog.iceberg.metadata;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

import io.ontul.catalog.iceberg.type.IcebergColumn;
import io.ontul.catalog.iceberg.type.IcebergTypes;

/**
 * The metadata tables Ontul serves as {@code table$name}: every Iceberg metadata table whose rows
 * Iceberg produces itself ({@code snapshots}, {@code history}, {@code files}, {@code manifests},
 * {@code partitions}, {@code refs}, {@code entries}...). Columns of a type Ontul has no type for
 * (maps such as a snapshot's {@code summary}, structs such as a file's {@code partition}, lists,
 * binary) are shown as text.
 */
public final class IcebergMetadataTables
{
    private static final List<MetadataTableType> SUPPORTED = Arrays.stream(MetadataTableType.values())
            .filter(type -> type != MetadataTableType.POSITION_DELETES)
            .toList();

    private IcebergMetadataTables() {}

    public static Optional<MetadataTableType> type(String name)
    {
        return SUPPORTED.stream().filter(type -> type.name().toLowerCase(Locale.ROOT).equals(name)).findFirst();
    }

    public static String supportedNames()
    {
        return SUPPORTED.stream().map(type -> type.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
    }

    public static List<IcebergColumn> columns(Schema schema)
    {
        List<IcebergColumn> columns = new ArrayList<>();
        for (Types.NestedField field : schema.columns()) {
            ArrowType arrowType = IcebergTypes.toArrow(field.type()).orElse(ArrowType.Utf8.INSTANCE);
            columns.add(new IcebergColumn(field.name(), field.fieldId(), field.type(), field.isRequired(),
                    new Field(field.name(), new FieldType(true, arrowType, null), null)));
        }
        return List.copyOf(columns);
    }
}
