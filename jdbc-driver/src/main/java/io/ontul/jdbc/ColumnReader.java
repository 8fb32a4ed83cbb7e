package io.ontul.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Set;

import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.BitVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.FieldVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.IntVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.VarCharVector;

/**
 * Reads one column of a result batch straight from its Arrow vector: a typed read per value,
 * no boxing for the primitive getters and no per-value objects but the one JDBC asks for.
 * {@link ArrowResultSet} converts between the kinds as JDBC's getter tables say.
 */
abstract class ColumnReader
{
    /** What a column holds, which decides the conversions of the getters. */
    enum Kind { INTEGRAL, FLOATING, DECIMAL, TEXT, BOOLEAN, DATE, TIME, TIMESTAMP, BINARY }

    /** The JDBC types the readers cover; a result with a column of another type is read by Arrow's driver. */
    static final Set<Integer> SUPPORTED_TYPES = Set.of(Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT,
            Types.DOUBLE, Types.FLOAT, Types.REAL, Types.DECIMAL, Types.NUMERIC, Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR,
            Types.BOOLEAN, Types.BIT, Types.DATE, Types.TIME, Types.TIMESTAMP, Types.VARBINARY, Types.BINARY, Types.LONGVARBINARY);

    final Kind kind;

    ColumnReader(Kind kind)
    {
        this.kind = kind;
    }

    /** Reads the rows of this vector from now on (each batch brings new vectors). */
    abstract void bind(FieldVector vector);

    abstract boolean isNull(int row);

    /** INTEGRAL, BOOLEAN (0/1), DATE (epoch day) and TIME/TIMESTAMP (their raw count) values. */
    long getLong(int row)
    {
        throw new IllegalStateException(kind + " has no long value");
    }

    double getDouble(int row)
    {
        return getLong(row);
    }

    BigDecimal getBigDecimal(int row)
    {
        return BigDecimal.valueOf(getLong(row));
    }

    /** DATE, TIME and TIMESTAMP values as a date-time without zone (a DATE at midnight, a TIME on 1970-01-01). */
    LocalDateTime getDateTime(int row)
    {
        throw new IllegalStateException(kind + " is not a date or time");
    }

    byte[] getBytes(int row)
    {
        throw new IllegalStateException(kind + " is not binary");
    }

    /** The value as text, as Arrow's driver writes it. */
    abstract String getString(int row);

    /** The JDBC object getObject(i) returns, boxed. */
    abstract Object getObject(int row);

    /** A reader for the vectors of a column, or null when the vector type has none (Arrow's driver reads the result then). */
    static ColumnReader of(FieldVector vector)
    {
        ColumnReader reader = create(vector);
        if (reader != null) {
            reader.bind(vector);
        }
        return reader;
    }

    private static ColumnReader create(FieldVector vector)
    {
        if (vector instanceof BigIntVector) {
            return new IntegralReader(8, value -> value);
        }
        if (vector instanceof IntVector) {
            return new IntegralReader(4, value -> (int) value);
        }
        if (vector instanceof SmallIntVector) {
            return new IntegralReader(2, value -> (short) value);
        }
        if (vector instanceof TinyIntVector) {
            return new IntegralReader(1, value -> (byte) value);
        }
        if (vector instanceof Float8Vector) {
            return new FloatingReader(true);
        }
        if (vector instanceof Float4Vector) {
            return new FloatingReader(false);
        }
        if (vector instanceof DecimalVector) {
            return new DecimalReader();
        }
        if (vector instanceof VarCharVector) {
            return new TextReader();
        }
        if (vector instanceof BitVector) {
            return new BooleanReader();
        }
        if (vector instanceof DateDayVector) {
            return new DateReader(false);
        }
        if (vector instanceof DateMilliVector) {
            return new DateReader(true);
        }
        if (vector instanceof TimeSecVector) {
            return new TimeReader(4, 1_000_000_000L);
        }
        if (vector instanceof TimeMilliVector) {
            return new TimeReader(4, 1_000_000L);
        }
        if (vector instanceof TimeMicroVector) {
            return new TimeReader(8, 1_000L);
        }
        if (vector instanceof TimeNanoVector) {
            return new TimeReader(8, 1L);
        }
        if (vector instanceof TimeStampSecVector) {
            return timestamp(vector, 1_000_000_000L);
        }
        if (vector instanceof TimeStampMilliVector) {
            return timestamp(vector, 1_000_000L);
        }
        if (vector instanceof TimeStampMicroVector) {
            return timestamp(vector, 1_000L);
        }
        if (vector instanceof TimeStampNanoVector) {
            return timestamp(vector, 1L);
        }
        if (vector instanceof VarBinaryVector || vector instanceof FixedSizeBinaryVector) {
            return new BinaryReader();
        }
        return null;
    }

    /** Timestamps without a zone only: a zoned one (TIMESTAMP WITH TIME ZONE) is an instant, read by Arrow's driver. */
    private static ColumnReader timestamp(FieldVector vector, long nanosPerUnit)
    {
        org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.types.pojo.ArrowType.Timestamp type =
                (org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.types.pojo.ArrowType.Timestamp) vector.getField().getType();
        return type.getTimezone() == null ? new TimestampReader(nanosPerUnit) : null;
    }

    /** Vectors with a validity bitmap and a data buffer (fixed-width values little-endian); a vector without NULLs skips the bitmap. */
    private abstract static class BufferReader
            extends ColumnReader
    {
        protected ArrowBuf validity;
        protected ArrowBuf data;
        private boolean mayHaveNulls;

        BufferReader(Kind kind)
        {
            super(kind);
        }

        @Override
        void bind(FieldVector vector)
        {
            validity = vector.getValidityBuffer();
            data = vector.getDataBuffer();
            mayHaveNulls = vector.getNullCount() > 0;
        }

        @Override
        final boolean isNull(int row)
        {
            return mayHaveNulls && (validity.getByte(row >>> 3) & (1 << (row & 7))) == 0;
        }
    }

    @FunctionalInterface
    private interface Boxing
    {
        Object box(long value);
    }

    private static final class IntegralReader
            extends BufferReader
    {
        private final int width;
        private final Boxing boxing;

        IntegralReader(int width, Boxing boxing)
        {
            super(Kind.INTEGRAL);
            this.width = width;
            this.boxing = boxing;
        }

        @Override
        long getLong(int row)
        {
            return switch (width) {
                case 8 -> data.getLong((long) row * 8);
                case 4 -> data.getInt((long) row * 4);
                case 2 -> data.getShort((long) row * 2);
                default -> data.getByte(row);
            };
        }

        @Override
        String getString(int row)
        {
            return Long.toString(getLong(row));
        }

        @Override
        Object getObject(int row)
        {
            return boxing.box(getLong(row));
        }
    }

    private static final class FloatingReader
            extends BufferReader
    {
        private final boolean doubles;

        FloatingReader(boolean doubles)
        {
            super(Kind.FLOATING);
            this.doubles = doubles;
        }

        @Override
        double getDouble(int row)
        {
            return doubles ? data.getDouble((long) row * 8) : data.getFloat((long) row * 4);
        }

        @Override
        long getLong(int row)
        {
            return (long) getDouble(row);
        }

        @Override
        BigDecimal getBigDecimal(int row)
        {
            return doubles ? BigDecimal.valueOf(getDouble(row)) : new BigDecimal(Float.toString(data.getFloat((long) row * 4)));
        }

        @Override
        String getString(int row)
        {
            return doubles ? Double.toString(getDouble(row)) : Float.toString(data.getFloat((long) row * 4));
        }

        @Override
        Object getObject(int row)
        {
            // Arrow's driver returns a Double for REAL too
            return getDouble(row);
        }
    }

    /** DECIMAL(p, s) in 16 bytes; values that fit a long (every one up to 18 digits) are made without BigInteger. */
    private static final class DecimalReader
            extends BufferReader
    {
        private DecimalVector vector;
        private int scale;

        DecimalReader()
        {
            super(Kind.DECIMAL);
        }

        @Override
        void bind(FieldVector vector)
        {
            super.bind(vector);
            this.vector = (DecimalVector) vector;
            this.scale = this.vector.getScale();
        }

        @Override
        BigDecimal getBigDecimal(int row)
        {
            long low = data.getLong((long) row * 16);
            long high = data.getLong((long) row * 16 + 8);
            if (high == (low >> 63)) {
                return BigDecimal.valueOf(low, scale);
            }
            return vector.getObject(row);
        }

        @Override
        long getLong(int row)
        {
            return getBigDecimal(row).longValue();
        }

        @Override
        double getDouble(int row)
        {
            return getBigDecimal(row).doubleValue();
        }

        @Override
        String getString(int row)
        {
            return getBigDecimal(row).toString();
        }

        @Override
        Object getObject(int row)
        {
            return getBigDecimal(row);
        }
    }

    private static final class BooleanReader
            extends BufferReader
    {
        BooleanReader()
        {
            super(Kind.BOOLEAN);
        }

        @Override
        long getLong(int row)
        {
            return (data.getByte(row >>> 3) >>> (row & 7)) & 1;
        }

        @Override
        String getString(int row)
        {
            return getLong(row) != 0 ? "true" : "false";
        }

        @Override
        Object getObject(int row)
        {
            return getLong(row) != 0;
        }
    }

    private static final class DateReader
            extends BufferReader
    {
        private final boolean millis;

        DateReader(boolean millis)
        {
            super(Kind.DATE);
            this.millis = millis;
        }

        /** The epoch day. */
        @Override
        long getLong(int row)
        {
            return millis ? Math.floorDiv(data.getLong((long) row * 8), 86_400_000L) : data.getInt((long) row * 4);
        }

        @Override
        LocalDateTime getDateTime(int row)
        {
            return LocalDate.ofEpochDay(getLong(row)).atStartOfDay();
        }

        @Override
        String getString(int row)
        {
            return LocalDate.ofEpochDay(getLong(row)).toString();
        }

        @Override
        Object getObject(int row)
        {
            return java.sql.Date.valueOf(LocalDate.ofEpochDay(getLong(row)));
        }
    }

    private static final class TimeReader
            extends BufferReader
    {
        private final int width;
        private final long nanosPerUnit;

        TimeReader(int width, long nanosPerUnit)
        {
            super(Kind.TIME);
            this.width = width;
            this.nanosPerUnit = nanosPerUnit;
        }

        @Override
        long getLong(int row)
        {
            return width == 8 ? data.getLong((long) row * 8) : data.getInt((long) row * 4);
        }

        @Override
        LocalDateTime getDateTime(int row)
        {
            return LocalTime.ofNanoOfDay(getLong(row) * nanosPerUnit).atDate(LocalDate.EPOCH);
        }

        @Override
        String getString(int row)
        {
            return TemporalValues.timeText(getDateTime(row));
        }

        @Override
        Object getObject(int row)
        {
            return TemporalValues.object(getDateTime(row), Types.TIME);
        }
    }

    private static final class TimestampReader
            extends BufferReader
    {
        private final long nanosPerUnit;

        TimestampReader(long nanosPerUnit)
        {
            super(Kind.TIMESTAMP);
            this.nanosPerUnit = nanosPerUnit;
        }

        @Override
        long getLong(int row)
        {
            return data.getLong((long) row * 8);
        }

        @Override
        LocalDateTime getDateTime(int row)
        {
            long value = getLong(row);
            long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
            long seconds = Math.floorDiv(value, unitsPerSecond);
            int nanos = (int) (Math.floorMod(value, unitsPerSecond) * nanosPerUnit);
            return LocalDateTime.ofEpochSecond(seconds, nanos, java.time.ZoneOffset.UTC);
        }

        @Override
        String getString(int row)
        {
            return java.sql.Timestamp.valueOf(getDateTime(row)).toString();
        }

        @Override
        Object getObject(int row)
        {
            return java.sql.Timestamp.valueOf(getDateTime(row));
        }
    }

    /** Variable-width vectors: 4-byte offsets into one data buffer. */
    private abstract static class VariableWidthReader
            extends BufferReader
    {
        protected ArrowBuf offsets;
        private FieldVector vector;

        VariableWidthReader(Kind kind)
        {
            super(kind);
        }

        @Override
        void bind(FieldVector vector)
        {
            super.bind(vector);
            this.vector = vector;
            // FIXED_SIZE_BINARY has no offsets: getBytes reads it through the vector
            offsets = vector instanceof FixedSizeBinaryVector ? null : vector.getOffsetBuffer();
        }

        @Override
        byte[] getBytes(int row)
        {
            if (vector instanceof FixedSizeBinaryVector fixed) {
                return fixed.get(row);
            }
            int start = offsets.getInt((long) row * 4);
            byte[] bytes = new byte[offsets.getInt((long) row * 4 + 4) - start];
            data.getBytes(start, bytes, 0, bytes.length);
            return bytes;
        }
    }

    /**
     * VARCHAR values. Short values repeat in most columns that have them (flags, codes, modes),
     * so the strings of values up to {@value #CACHED_LENGTH} bytes are kept in a small table by
     * their bytes and handed out again (strings are immutable) instead of decoding a new one.
     */
    private static final class TextReader
            extends VariableWidthReader
    {
        private static final int CACHED_LENGTH = 16;
        private static final int CACHE_SLOTS = 64;

        private byte[] scratch = new byte[256];
        private final byte[][] cachedBytes = new byte[CACHE_SLOTS][];
        private final String[] cachedStrings = new String[CACHE_SLOTS];

        TextReader()
        {
            super(Kind.TEXT);
        }

        @Override
        String getString(int row)
        {
            int start = offsets.getInt((long) row * 4);
            int length = offsets.getInt((long) row * 4 + 4) - start;
            if (length > scratch.length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
            }
            data.getBytes(start, scratch, 0, length);
            if (length > CACHED_LENGTH) {
                return new String(scratch, 0, length, UTF_8);
            }
            int hash = length;
            for (int i = 0; i < length; i++) {
                hash = 31 * hash + scratch[i];
            }
            int slot = (hash ^ (hash >>> 7)) & (CACHE_SLOTS - 1);
            byte[] cached = cachedBytes[slot];
            if (cached != null && java.util.Arrays.equals(cached, 0, cached.length, scratch, 0, length)) {
                return cachedStrings[slot];
            }
            String value = new String(scratch, 0, length, UTF_8);
            cachedBytes[slot] = java.util.Arrays.copyOf(scratch, length);
            cachedStrings[slot] = value;
            return value;
        }

        @Override
        long getLong(int row)
        {
            return Long.parseLong(getString(row).trim());
        }

        @Override
        double getDouble(int row)
        {
            return Double.parseDouble(getString(row).trim());
        }

        @Override
        BigDecimal getBigDecimal(int row)
        {
            return new BigDecimal(getString(row).trim());
        }

        @Override
        Object getObject(int row)
        {
            return getString(row);
        }
    }

    private static final class BinaryReader
            extends VariableWidthReader
    {
        BinaryReader()
        {
            super(Kind.BINARY);
        }

        @Override
        String getString(int row)
        {
            return new String(getBytes(row), UTF_8);
        }

        @Override
        Object getObject(int row)
        {
            return getBytes(row);
        }
    }
}
