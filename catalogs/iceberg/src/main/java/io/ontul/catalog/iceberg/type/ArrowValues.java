package io.ontul.catalog.iceberg.type;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.math.BigDecimal;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.iceberg.types.Type;

/**
 * Writes one value in Iceberg's internal representation (Integer days for dates, Long
 * microseconds for times and timestamps, Long nanoseconds for timestamp_ns, CharSequence, UUID,
 * BigDecimal) into an Arrow vector of the type {@link IcebergTypes#toArrow} gives its column.
 * For the few values that do not come from data files: partition constants, metadata rows.
 */
public final class ArrowValues
{
    private ArrowValues() {}

    public static void set(FieldVector vector, int index, Object value, Type type)
    {
        if (value == null) {
            vector.setNull(index);
        }
        else if (vector instanceof VarCharVector text) {
            text.setSafe(index, value.toString().getBytes(UTF_8));
        }
        else if (vector instanceof BitVector bits) {
            bits.setSafe(index, (Boolean) value ? 1 : 0);
        }
        else if (vector instanceof IntVector ints) {
            ints.setSafe(index, ((Number) value).intValue());
        }
        else if (vector instanceof BigIntVector longs) {
            longs.setSafe(index, ((Number) value).longValue());
        }
        else if (vector instanceof Float4Vector floats) {
            floats.setSafe(index, ((Number) value).floatValue());
        }
        else if (vector instanceof Float8Vector doubles) {
            doubles.setSafe(index, ((Number) value).doubleValue());
        }
        else if (vector instanceof DecimalVector decimals) {
            decimals.setSafe(index, (BigDecimal) value);
        }
        else if (vector instanceof DateDayVector dates) {
            dates.setSafe(index, ((Number) value).intValue());
        }
        else if (vector instanceof TimeMilliVector times) {
            times.setSafe(index, (int) Math.floorDiv(((Number) value).longValue(), 1000L));
        }
        else if (vector instanceof TimeStampVector timestamps) {
            long raw = ((Number) value).longValue();
            timestamps.setSafe(index, type.typeId() == Type.TypeID.TIMESTAMP_NANO ? Math.floorDiv(raw, 1000L) : raw);
        }
        else {
            throw new IllegalStateException("no Arrow writer for " + vector.getField() + " of Iceberg type " + type);
        }
    }
}
