package io.ontul.catalog.iceberg.type;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * Maps Iceberg types to the Arrow types the engine understands and back.
 * <p>
 * Reading: boolean, int, long, float, double, decimal, string, date map to their Arrow equals;
 * time to Time(MILLISECOND) (microseconds are truncated); timestamp and timestamp_ns to
 * Timestamp(MICROSECOND) without zone; timestamptz and timestamptz_ns to Timestamp(MICROSECOND,
 * "UTC") (TIMESTAMP WITH TIME ZONE: the instant);
 * uuid to Utf8 text marked {@code ontul.type = UUID} (Ontul's UUID); binary and fixed to Binary;
 * a list of any of these to a List (Ontul's ARRAY) of it. Lists of nested types, maps, structs and
 * variant columns have no Ontul type: they are left out of the table (and logged).
 * <p>
 * Writing (CREATE TABLE): Int(8/16/32) become int, Int(64) long, timestamps of any unit
 * timestamp (with a zone: timestamptz), Time time, Date date, Utf8 string (uuid when marked
 * UUID), Binary binary, a List of these list (its element optional when the element field is
 * nullable). Field ids: the top-level columns 1..n in order, then the list elements.
 */
public final class IcebergTypes
{
    public static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
    public static final ArrowType TIMESTAMP_WITH_ZONE = new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");

    private IcebergTypes() {}

    /** The Arrow type Ontul reads an Iceberg type as, or empty if Ontul cannot read it. */
    public static Optional<ArrowType> toArrow(Type type)
    {
        return Optional.ofNullable(switch (type.typeId()) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case INTEGER -> new ArrowType.Int(32, true);
            case LONG -> new ArrowType.Int(64, true);
            case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> {
                Types.DecimalType decimal = (Types.DecimalType) type;
                yield new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128);
            }
            case STRING, UUID -> ArrowType.Utf8.INSTANCE;
            case BINARY, FIXED -> ArrowType.Binary.INSTANCE;
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIME -> new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case TIMESTAMP, TIMESTAMP_NANO -> adjustsToUtc(type) ? TIMESTAMP_WITH_ZONE : TIMESTAMP;
            default -> null;
        });
    }

    /** The Arrow field Ontul reads an Iceberg field as (a list with its element), or empty if Ontul cannot read it. */
    public static Optional<Field> toArrowField(String name, Type type, boolean nullable)
    {
        if (type.isListType()) {
            Types.NestedField element = type.asListType().fields().get(0);
            if (!element.type().isPrimitiveType()) {
                return Optional.empty();
            }
            return toArrowField("element", element.type(), element.isOptional())
                    .map(child -> new Field(name, new FieldType(nullable, ArrowType.List.INSTANCE, null), List.of(child)));
        }
        Map<String, String> metadata = type.typeId() == Type.TypeID.UUID ? Map.of(TableHandle.TYPE_METADATA, TableHandle.UUID_TYPE) : null;
        return toArrow(type).map(arrowType -> new Field(name, new FieldType(nullable, arrowType, null, metadata), null));
    }

    /** Whether a timestamp type holds instants (timestamptz, timestamptz_ns). */
    public static boolean adjustsToUtc(Type type)
    {
        return type instanceof Types.TimestampType timestamp && timestamp.shouldAdjustToUTC()
                || type instanceof Types.TimestampNanoType nano && nano.shouldAdjustToUTC();
    }

    /** The readable top-level columns of a schema, in order; unreadable ones go to {@code skipped}. */
    public static List<IcebergColumn> columns(Schema schema, List<Types.NestedField> skipped)
    {
        List<IcebergColumn> columns = new ArrayList<>();
        for (Types.NestedField field : schema.columns()) {
            Optional<Field> arrowField = toArrowField(field.name(), field.type(), field.isOptional());
            if (arrowField.isEmpty()) {
                skipped.add(field);
                continue;
            }
            columns.add(new IcebergColumn(field.name(), field.fieldId(), field.type(), field.isRequired(), arrowField.get()));
        }
        return List.copyOf(columns);
    }

    /**
     * The Iceberg schema of a new table with the engine's columns; field ids are assigned in order.
     *
     * @throws OntulException NOT_SUPPORTED naming a column whose type has no Iceberg equivalent
     */
    public static Schema toIcebergSchema(String tableName, org.apache.arrow.vector.types.pojo.Schema columns)
    {
        List<Types.NestedField> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int id = 1;
        // the elements of lists are numbered after the top-level columns, as Iceberg numbers new schemas
        int[] nestedId = {columns.getFields().size()};
        for (Field field : columns.getFields()) {
            if (!names.add(field.getName())) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Column '%s' specified more than once in table '%s'", field.getName(), tableName);
            }
            Type type = toIceberg(tableName, field, field.getName(), () -> ++nestedId[0]);
            fields.add(field.isNullable() ? Types.NestedField.optional(id, field.getName(), type) : Types.NestedField.required(id, field.getName(), type));
            id++;
        }
        // a PRIMARY KEY becomes the table's identifier fields (recorded for engines that upsert; Iceberg enforces nothing)
        Set<Integer> identifiers = new HashSet<>();
        for (String column : io.ontul.spi.TableConstraints.primaryKey(columns).orElse(List.of())) {
            fields.stream().filter(field -> field.name().equals(column)).forEach(field -> identifiers.add(field.fieldId()));
        }
        return new Schema(fields, identifiers);
    }

    private static Type toIceberg(String tableName, Field field, String column, IntSupplier nextId)
    {
        ArrowType type = field.getType();
        if (type.getTypeID() == ArrowType.ArrowTypeID.List) {
            Field element = field.getChildren().get(0);
            if (element.getType().getTypeID() == ArrowType.ArrowTypeID.List || element.getType().getTypeID() == ArrowType.ArrowTypeID.Struct) {
                throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Column '%s' of table '%s' has type %s, which Iceberg tables written by Ontul do not support (arrays of scalar types only)",
                        column, tableName, type);
            }
            int elementId = nextId.getAsInt();
            Type elementType = toIceberg(tableName, element, column, nextId);
            return element.isNullable() ? Types.ListType.ofOptional(elementId, elementType) : Types.ListType.ofRequired(elementId, elementType);
        }
        Type converted = switch (type.getTypeID()) {
            case Bool -> Types.BooleanType.get();
            case Int -> {
                ArrowType.Int integer = (ArrowType.Int) type;
                if (!integer.getIsSigned()) {
                    yield null;
                }
                yield integer.getBitWidth() <= 32 ? Types.IntegerType.get() : Types.LongType.get();
            }
            case FloatingPoint -> ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.DOUBLE ? Types.DoubleType.get() : Types.FloatType.get();
            case Decimal -> {
                ArrowType.Decimal decimal = (ArrowType.Decimal) type;
                yield decimal.getPrecision() <= 38 ? Types.DecimalType.of(decimal.getPrecision(), decimal.getScale()) : null;
            }
            case Utf8, LargeUtf8 -> TableHandle.isUuid(field) ? Types.UUIDType.get() : Types.StringType.get();
            case Binary, LargeBinary -> Types.BinaryType.get();
            case Date -> Types.DateType.get();
            case Time -> Types.TimeType.get();
            case Timestamp -> ((ArrowType.Timestamp) type).getTimezone() == null ? Types.TimestampType.withoutZone() : Types.TimestampType.withZone();
            default -> null;
        };
        if (converted == null) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Column '%s' of table '%s' has type %s, which Iceberg tables written by Ontul do not support", column, tableName, type);
        }
        return converted;
    }
}
