package io.ontul.catalog.jdbc.type;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * How one database column appears to the engine: its Arrow type (with optional field metadata such
 * as {@code ontul.type = VARCHAR(20)}), how its values are read and bound, and which predicates on
 * it may be sent to the database. An array column ({@link ArrowType.List}) has the mapping of its
 * elements as {@code element}, which becomes the field's one child.
 */
public record ColumnMapping(ArrowType type, Map<String, String> metadata, Optional<ColumnMapping> element, ColumnReader reader, ValueBinder binder,
        PredicatePushdown pushdown)
{
    public static final String TYPE_METADATA = "ontul.type";
    /** The name of an array field's child, as the engine names it. */
    public static final String ELEMENT_NAME = "element";

    public ColumnMapping
    {
        requireNonNull(type, "type is null");
        metadata = Map.copyOf(requireNonNull(metadata, "metadata is null"));
        requireNonNull(element, "element is null");
        if (element.isPresent() != type instanceof ArrowType.List) {
            throw new IllegalArgumentException("an element mapping goes with a List type, and only with it: " + type);
        }
        requireNonNull(reader, "reader is null");
        requireNonNull(binder, "binder is null");
        requireNonNull(pushdown, "pushdown is null");
    }

    public ColumnMapping(ArrowType type, ColumnReader reader, PredicatePushdown pushdown)
    {
        this(type, Map.of(), Optional.empty(), reader, ValueBinders.BY_VALUE, pushdown);
    }

    public ColumnMapping withBinder(ValueBinder binder)
    {
        return new ColumnMapping(type, metadata, element, reader, binder, pushdown);
    }

    public ColumnMapping withPushdown(PredicatePushdown pushdown)
    {
        return new ColumnMapping(type, metadata, element, reader, binder, pushdown);
    }

    public ColumnMapping withMetadata(Map<String, String> metadata)
    {
        return new ColumnMapping(type, metadata, element, reader, binder, pushdown);
    }

    public Field field(String name, boolean nullable)
    {
        List<Field> children = element.map(mapping -> List.of(mapping.field(ELEMENT_NAME, true))).orElse(null);
        return new Field(name, new FieldType(nullable, type, null, metadata.isEmpty() ? null : metadata), children);
    }
}
