package io.ontul.catalog.jdbc.type;

import static java.util.Objects.requireNonNull;

import java.util.Map;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * How one database column appears to the engine: its Arrow type (with optional field metadata such
 * as {@code ontul.type = VARCHAR(20)}), how its values are read and bound, and which predicates on
 * it may be sent to the database.
 */
public record ColumnMapping(ArrowType type, Map<String, String> metadata, ColumnReader reader, ValueBinder binder, PredicatePushdown pushdown)
{
    public static final String TYPE_METADATA = "ontul.type";

    public ColumnMapping
    {
        requireNonNull(type, "type is null");
        metadata = Map.copyOf(requireNonNull(metadata, "metadata is null"));
        requireNonNull(reader, "reader is null");
        requireNonNull(binder, "binder is null");
        requireNonNull(pushdown, "pushdown is null");
    }

    public ColumnMapping(ArrowType type, ColumnReader reader, PredicatePushdown pushdown)
    {
        this(type, Map.of(), reader, ValueBinders.BY_VALUE, pushdown);
    }

    public ColumnMapping withBinder(ValueBinder binder)
    {
        return new ColumnMapping(type, metadata, reader, binder, pushdown);
    }

    public ColumnMapping withPushdown(PredicatePushdown pushdown)
    {
        return new ColumnMapping(type, metadata, reader, binder, pushdown);
    }

    public ColumnMapping withMetadata(Map<String, String> metadata)
    {
        return new ColumnMapping(type, metadata, reader, binder, pushdown);
    }

    public Field field(String name, boolean nullable)
    {
        return new Field(name, new FieldType(nullable, type, null, metadata.isEmpty() ? null : metadata), null);
    }
}
