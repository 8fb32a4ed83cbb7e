package io.ontul.catalog.iceberg.write;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.avro.util.Utf8;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Chooses the {@link ArrowValueGetter} for an Arrow vector of the engine and the Iceberg type of
 * the column it is written to. Timestamps with a zone are written as the UTC instant of the value.
 */
final class ArrowValueGetters
{
    private ArrowValueGetters() {}

    static ArrowValueGetter create(FieldVector vector, Type type, String column, String tableName)
    {
        ArrowValueGetter getter = switch (type.typeId()) {
            case BOOLEAN -> vector instanceof BitVector bits ? row -> bits.isNull(row) ? null : bits.get(row) != 0 : null;
            case INTEGER -> integer(vector, column, tableName);
            case LONG -> bigint(vector);
            case FLOAT -> floating(vector, false);
            case DOUBLE -> floating(vector, true);
            case DECIMAL -> vector instanceof DecimalVector decimals ? decimal(decimals, (Types.DecimalType) type, column, tableName) : null;
            case STRING -> text(vector);
            case UUID -> uuid(vector, column, tableName);
            case BINARY -> vector instanceof VarBinaryVector bytes ? row -> bytes.isNull(row) ? null : ByteBuffer.wrap(bytes.get(row)) : null;
            case FIXED -> vector instanceof VarBinaryVector bytes ? fixed(bytes, ((Types.FixedType) type).length(), column, tableName) : null;
            case DATE -> date(vector);
            case TIME -> time(vector);
            case TIMESTAMP, TIMESTAMP_NANO -> timestamp(vector, type);
            case LIST -> vector instanceof ListVector list ? list(list, type.asListType(), column, tableName) : null;
            default -> null;
        };
        if (getter == null) {
            throw OntulException.userError(ErrorCode.TYPE_MISMATCH, "Cannot write values of type %s into column '%s' of type %s of table '%s'",
                    vector.getField().getType(), column, type, tableName);
        }
        return getter;
    }

    private static ArrowValueGetter integer(FieldVector vector, String column, String tableName)
    {
        if (vector instanceof IntVector ints) {
            return row -> ints.isNull(row) ? null : ints.get(row);
        }
        if (vector instanceof SmallIntVector shorts) {
            return row -> shorts.isNull(row) ? null : (int) shorts.get(row);
        }
        if (vector instanceof TinyIntVector bytes) {
            return row -> bytes.isNull(row) ? null : (int) bytes.get(row);
        }
        if (vector instanceof BigIntVector longs) {
            return row -> {
                if (longs.isNull(row)) {
                    return null;
                }
                long value = longs.get(row);
                if (value != (int) value) {
                    throw OntulException.userError(ErrorCode.NUMERIC_OVERFLOW, "Value %d is out of range for INTEGER column '%s' of table '%s'", value, column, tableName);
                }
                return (int) value;
            };
        }
        return null;
    }

    private static ArrowValueGetter bigint(FieldVector vector)
    {
        if (vector instanceof BigIntVector longs) {
            return row -> longs.isNull(row) ? null : longs.get(row);
        }
        if (vector instanceof IntVector ints) {
            return row -> ints.isNull(row) ? null : (long) ints.get(row);
        }
        if (vector instanceof SmallIntVector shorts) {
            return row -> shorts.isNull(row) ? null : (long) shorts.get(row);
        }
        if (vector instanceof TinyIntVector bytes) {
            return row -> bytes.isNull(row) ? null : (long) bytes.get(row);
        }
        return null;
    }

    private static ArrowValueGetter floating(FieldVector vector, boolean toDouble)
    {
        if (vector instanceof Float8Vector doubles) {
            return toDouble ? row -> doubles.isNull(row) ? null : doubles.get(row) : row -> doubles.isNull(row) ? null : (float) doubles.get(row);
        }
        if (vector instanceof Float4Vector floats) {
            return toDouble ? row -> floats.isNull(row) ? null : (double) floats.get(row) : row -> floats.isNull(row) ? null : floats.get(row);
        }
        return null;
    }

    private static ArrowValueGetter date(FieldVector vector)
    {
        if (vector instanceof DateDayVector dates) {
            return row -> dates.isNull(row) ? null : LocalDate.ofEpochDay(dates.get(row));
        }
        if (vector instanceof DateMilliVector dates) {
            return row -> dates.isNull(row) ? null : LocalDate.ofEpochDay(Math.floorDiv(dates.get(row), 86_400_000L));
        }
        return null;
    }

    private static ArrowValueGetter decimal(DecimalVector decimals, Types.DecimalType type, String column, String tableName)
    {
        int scale = decimals.getScale();
        if (scale == type.scale() && decimals.getPrecision() <= 18) {
            // the low eight bytes (little-endian) hold the whole unscaled value
            return row -> decimals.isNull(row) ? null : BigDecimal.valueOf(decimals.getDataBuffer().getLong((long) row * DecimalVector.TYPE_WIDTH), scale);
        }
        return row -> {
            if (decimals.isNull(row)) {
                return null;
            }
            BigDecimal value = decimals.getObject(row);
            if (value.scale() == type.scale()) {
                return value;
            }
            try {
                return value.setScale(type.scale(), RoundingMode.UNNECESSARY);
            }
            catch (ArithmeticException e) {
                throw OntulException.userError(ErrorCode.NUMERIC_OVERFLOW, "Value %s does not fit column '%s' of type %s of table '%s'", value, column, type, tableName);
            }
        };
    }

    private static ArrowValueGetter text(FieldVector vector)
    {
        // Utf8 hands the bytes to Parquet without a round trip through String
        if (vector instanceof VarCharVector text) {
            return row -> text.isNull(row) ? null : new Utf8(text.get(row));
        }
        if (vector instanceof LargeVarCharVector text) {
            return row -> text.isNull(row) ? null : new Utf8(text.get(row));
        }
        return null;
    }

    /** fixed[n] takes values of exactly n bytes. */
    private static ArrowValueGetter fixed(VarBinaryVector bytes, int length, String column, String tableName)
    {
        return row -> {
            if (bytes.isNull(row)) {
                return null;
            }
            byte[] value = bytes.get(row);
            if (value.length != length) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Value of %d bytes for column '%s' of table '%s', which is fixed[%d]",
                        value.length, column, tableName, length);
            }
            return value;
        };
    }

    private static ArrowValueGetter uuid(FieldVector vector, String column, String tableName)
    {
        ArrowValueGetter text = text(vector);
        if (text == null) {
            return null;
        }
        return row -> {
            Object value = text.get(row);
            if (value == null) {
                return null;
            }
            try {
                return UUID.fromString(value.toString());
            }
            catch (IllegalArgumentException e) {
                throw OntulException.userError(ErrorCode.INVALID_CAST, "Value '%s' for uuid column '%s' of table '%s' is not a UUID", value, column, tableName);
            }
        };
    }

    /** A java.util.List of the elements, each as the element type's getter gives it (Iceberg's generic writers take any List). */
    private static ArrowValueGetter list(ListVector list, Types.ListType type, String column, String tableName)
    {
        ArrowValueGetter element = create(list.getDataVector(), type.elementType(), column, tableName);
        boolean required = type.isElementRequired();
        return row -> {
            if (list.isNull(row)) {
                return null;
            }
            int start = list.getElementStartIndex(row);
            int end = list.getElementEndIndex(row);
            List<Object> values = new ArrayList<>(end - start);
            for (int index = start; index < end; index++) {
                Object value = element.get(index);
                if (value == null && required) {
                    throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "NULL element not allowed in column '%s' of table '%s', whose elements are required", column, tableName);
                }
                values.add(value);
            }
            return values;
        };
    }

    private static ArrowValueGetter time(FieldVector vector)
    {
        if (vector instanceof TimeMilliVector times) {
            return row -> times.isNull(row) ? null : LocalTime.ofNanoOfDay(times.get(row) * 1_000_000L);
        }
        if (vector instanceof TimeMicroVector times) {
            return row -> times.isNull(row) ? null : LocalTime.ofNanoOfDay(times.get(row) * 1_000L);
        }
        if (vector instanceof TimeNanoVector times) {
            return row -> times.isNull(row) ? null : LocalTime.ofNanoOfDay(times.get(row));
        }
        if (vector instanceof TimeSecVector times) {
            return row -> times.isNull(row) ? null : LocalTime.ofSecondOfDay(times.get(row));
        }
        return null;
    }

    private static ArrowValueGetter timestamp(FieldVector vector, Type type)
    {
        if (!(vector instanceof TimeStampVector timestamps)) {
            return null;
        }
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        long nanosPerUnit = switch (unit) {
            case SECOND -> 1_000_000_000L;
            case MILLISECOND -> 1_000_000L;
            case MICROSECOND -> 1_000L;
            case NANOSECOND -> 1L;
        };
        long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
        boolean utc = type instanceof Types.TimestampType timestamp && timestamp.shouldAdjustToUTC()
                || type instanceof Types.TimestampNanoType nano && nano.shouldAdjustToUTC();
        return row -> {
            if (timestamps.isNull(row)) {
                return null;
            }
            long value = timestamps.get(row);
            LocalDateTime local = LocalDateTime.ofEpochSecond(Math.floorDiv(value, unitsPerSecond), (int) (Math.floorMod(value, unitsPerSecond) * nanosPerUnit), ZoneOffset.UTC);
            return utc ? OffsetDateTime.of(local, ZoneOffset.UTC) : local;
        };
    }
}
