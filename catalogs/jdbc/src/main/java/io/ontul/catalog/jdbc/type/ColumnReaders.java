package io.ontul.catalog.jdbc.type;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * The readers of the standard mappings. A value that has no representation in the engine's type
 * (a decimal with too many digits, PostgreSQL's {@code infinity} dates) throws
 * {@link ArithmeticException}, which the source reports naming the column; a value of another
 * shape (a multi-dimensional array) throws {@link UnsupportedValueException}.
 */
public final class ColumnReaders
{
    public static final ColumnReader BOOLEAN = (resultSet, index, vector, row) -> {
        boolean value = resultSet.getBoolean(index);
        if (resultSet.wasNull()) {
            ((BitVector) vector).setNull(row);
        }
        else {
            ((BitVector) vector).setSafe(row, value ? 1 : 0);
        }
    };

    public static final ColumnReader TINYINT = (resultSet, index, vector, row) -> {
        byte value = resultSet.getByte(index);
        if (resultSet.wasNull()) {
            ((TinyIntVector) vector).setNull(row);
        }
        else {
            ((TinyIntVector) vector).setSafe(row, value);
        }
    };

    public static final ColumnReader SMALLINT = (resultSet, index, vector, row) -> {
        short value = resultSet.getShort(index);
        if (resultSet.wasNull()) {
            ((SmallIntVector) vector).setNull(row);
        }
        else {
            ((SmallIntVector) vector).setSafe(row, value);
        }
    };

    public static final ColumnReader INTEGER = (resultSet, index, vector, row) -> {
        int value = resultSet.getInt(index);
        if (resultSet.wasNull()) {
            ((IntVector) vector).setNull(row);
        }
        else {
            ((IntVector) vector).setSafe(row, value);
        }
    };

    public static final ColumnReader BIGINT = (resultSet, index, vector, row) -> {
        long value = resultSet.getLong(index);
        if (resultSet.wasNull()) {
            ((BigIntVector) vector).setNull(row);
        }
        else {
            ((BigIntVector) vector).setSafe(row, value);
        }
    };

    public static final ColumnReader REAL = (resultSet, index, vector, row) -> {
        float value = resultSet.getFloat(index);
        if (resultSet.wasNull()) {
            ((Float4Vector) vector).setNull(row);
        }
        else {
            ((Float4Vector) vector).setSafe(row, value);
        }
    };

    public static final ColumnReader DOUBLE = (resultSet, index, vector, row) -> {
        double value = resultSet.getDouble(index);
        if (resultSet.wasNull()) {
            ((Float8Vector) vector).setNull(row);
        }
        else {
            ((Float8Vector) vector).setSafe(row, value);
        }
    };

    public static final ColumnReader TEXT = (resultSet, index, vector, row) -> {
        String value = resultSet.getString(index);
        if (value == null) {
            ((VarCharVector) vector).setNull(row);
        }
        else {
            ((VarCharVector) vector).setSafe(row, value.getBytes(UTF_8));
        }
    };

    public static final ColumnReader BYTES = (resultSet, index, vector, row) -> {
        byte[] value = resultSet.getBytes(index);
        if (value == null) {
            ((VarBinaryVector) vector).setNull(row);
        }
        else {
            ((VarBinaryVector) vector).setSafe(row, value);
        }
    };

    public static final ColumnReader DATE = (resultSet, index, vector, row) -> {
        LocalDate value = resultSet.getObject(index, LocalDate.class);
        if (value == null) {
            ((DateDayVector) vector).setNull(row);
        }
        else {
            ((DateDayVector) vector).setSafe(row, epochDay(value));
        }
    };

    /** TIME with millisecond precision: finer digits are truncated. */
    public static final ColumnReader TIME_MILLIS = (resultSet, index, vector, row) -> {
        LocalTime value = resultSet.getObject(index, LocalTime.class);
        if (value == null) {
            ((TimeMilliVector) vector).setNull(row);
        }
        else {
            ((TimeMilliVector) vector).setSafe(row, (int) (value.toNanoOfDay() / 1_000_000));
        }
    };

    public static final ColumnReader TIMESTAMP_MICROS = (resultSet, index, vector, row) -> {
        LocalDateTime value = resultSet.getObject(index, LocalDateTime.class);
        if (value == null) {
            ((TimeStampVector) vector).setNull(row);
        }
        else {
            ((TimeStampVector) vector).setSafe(row, epochMicros(value));
        }
    };

    public static final ColumnReader TIMESTAMP_MILLIS = (resultSet, index, vector, row) -> {
        LocalDateTime value = resultSet.getObject(index, LocalDateTime.class);
        if (value == null) {
            ((TimeStampVector) vector).setNull(row);
        }
        else {
            ((TimeStampVector) vector).setSafe(row, Math.floorDiv(epochMicros(value), 1000));
        }
    };

    /** A timestamp with a time zone, as the UTC date and time of its instant. */
    public static final ColumnReader TIMESTAMP_WITH_ZONE_AS_UTC_MICROS = (resultSet, index, vector, row) -> {
        OffsetDateTime value = resultSet.getObject(index, OffsetDateTime.class);
        if (value == null) {
            ((TimeStampVector) vector).setNull(row);
        }
        else {
            ((TimeStampVector) vector).setSafe(row, epochMicros(value.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()));
        }
    };

    public static final ColumnReader TIMESTAMP_WITH_ZONE_AS_UTC_MILLIS = (resultSet, index, vector, row) -> {
        OffsetDateTime value = resultSet.getObject(index, OffsetDateTime.class);
        if (value == null) {
            ((TimeStampVector) vector).setNull(row);
        }
        else {
            ((TimeStampVector) vector).setSafe(row, Math.floorDiv(epochMicros(value.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()), 1000));
        }
    };

    private ColumnReaders() {}

    /**
     * A decimal read into DECIMAL(precision, scale). With {@code round}, extra fractional digits
     * are rounded half up (for columns declared without a scale); without it the database's value
     * already has the scale. Too many integer digits is an error.
     */
    public static ColumnReader decimal(int precision, int scale, boolean round)
    {
        return (resultSet, index, vector, row) -> {
            BigDecimal value = resultSet.getBigDecimal(index);
            if (value == null) {
                ((DecimalVector) vector).setNull(row);
                return;
            }
            BigDecimal scaled;
            try {
                scaled = value.scale() == scale ? value : value.setScale(scale, round ? RoundingMode.HALF_UP : RoundingMode.UNNECESSARY);
            }
            catch (ArithmeticException e) {
                scaled = null;
            }
            if (scaled == null || scaled.precision() > precision) {
                throw new ArithmeticException("value %s does not fit DECIMAL(%d,%d)".formatted(value.toPlainString(), precision, scale));
            }
            ((DecimalVector) vector).setSafe(row, scaled);
        };
    }

    /**
     * A one-dimensional SQL ARRAY into a {@link ListVector}: the elements come from
     * {@link Array#getResultSet()} (its second column holds them) and each is read by the element
     * type's own reader into the list's data vector. NULL arrays, NULL elements and empty arrays
     * are kept; the array's lower bound is not (PostgreSQL's {@code '[0:1]={5,6}'} is read as
     * {@code ARRAY[5, 6]}). An array of arrays (PostgreSQL's multi-dimensional arrays, which any
     * row of an array column may hold) throws {@link UnsupportedValueException}.
     */
    public static ColumnReader array(ColumnReader element)
    {
        return (resultSet, index, vector, row) -> {
            ListVector list = (ListVector) vector;
            Array array = resultSet.getArray(index);
            if (array == null) {
                list.setNull(row);
                return;
            }
            try (ResultSet elements = array.getResultSet()) {
                if (elements.getMetaData().getColumnType(2) == Types.ARRAY) {
                    throw new UnsupportedValueException("a row holds a multi-dimensional array, and only one-dimensional arrays can be read");
                }
                FieldVector data = list.getDataVector();
                int start = list.startNewValue(row);
                int count = 0;
                while (elements.next()) {
                    element.read(elements, 2, data, start + count);
                    count++;
                }
                list.endValue(row, count);
            }
            finally {
                array.free();
            }
        };
    }

    private static int epochDay(LocalDate value)
    {
        long day = value.toEpochDay();
        if (day != (int) day) {
            throw new ArithmeticException("date " + value + " is out of range");
        }
        return (int) day;
    }

    private static long epochMicros(LocalDateTime value)
    {
        try {
            long seconds = value.toEpochSecond(ZoneOffset.UTC);
            return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), value.getNano() / 1000);
        }
        catch (ArithmeticException e) {
            throw new ArithmeticException("timestamp " + value + " is out of range");
        }
    }
}
