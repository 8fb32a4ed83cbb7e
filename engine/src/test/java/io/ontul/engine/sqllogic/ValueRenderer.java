package io.ontul.engine.sqllogic;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Renders one Arrow value the way {@code .slt} files write it; see {@link TestSqlLogic} for the
 * rules.
 */
final class ValueRenderer
{
    static final String NULL = "NULL";
    static final String EMPTY_STRING = "(empty)";

    private static final MathContext FLOATING_PRECISION = new MathContext(12);
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private ValueRenderer() {}

    static String render(FieldVector vector, int index)
    {
        if (vector.isNull(index)) {
            return NULL;
        }
        ArrowType type = vector.getField().getType();
        return switch (type.getTypeID()) {
            case Bool -> ((BitVector) vector).get(index) == 1 ? "true" : "false";
            case Int -> String.valueOf(vector.getObject(index));
            case FloatingPoint -> renderFloating(((FloatingPointVector) vector).getValueAsDouble(index));
            case Decimal -> ((BigDecimal) vector.getObject(index)).toPlainString();
            case Utf8, LargeUtf8, Utf8View -> renderText(vector.getObject(index).toString());
            case Date -> renderDate(vector, index);
            case Time -> renderTime(vector, index);
            // with a time zone: the instant in UTC, marked so
            case Timestamp -> renderTimestamp((TimeStampVector) vector, index, ((ArrowType.Timestamp) type).getUnit())
                    + (((ArrowType.Timestamp) type).getTimezone() == null ? "" : " UTC");
            case Binary, LargeBinary, FixedSizeBinary, BinaryView -> renderText(HexFormat.of().formatHex((byte[]) vector.getObject(index)));
            case List -> renderArray((org.apache.arrow.vector.complex.ListVector) vector, index);
            default -> String.valueOf(vector.getObject(index));
        };
    }

    /** Twelve significant digits, trailing zeros stripped, never scientific notation. */
    static String renderFloating(double value)
    {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return Double.toString(value);
        }
        BigDecimal rounded = new BigDecimal(value).round(FLOATING_PRECISION).stripTrailingZeros();
        if (rounded.signum() == 0) {
            return "0";
        }
        return rounded.toPlainString();
    }

    /** An array as Trino prints it, {@code [1, 2, NULL]}, each element rendered as a value of its type. */
    private static String renderArray(org.apache.arrow.vector.complex.ListVector vector, int index)
    {
        java.util.List<String> elements = new java.util.ArrayList<>();
        for (int i = vector.getElementStartIndex(index); i < vector.getElementEndIndex(index); i++) {
            elements.add(render(vector.getDataVector(), i));
        }
        return "[" + String.join(", ", elements) + "]";
    }

    private static String renderText(String value)
    {
        return value.isEmpty() ? EMPTY_STRING : value;
    }

    private static String renderDate(FieldVector vector, int index)
    {
        long epochDay;
        if (vector instanceof DateDayVector days) {
            epochDay = days.get(index);
        }
        else {
            epochDay = Math.floorDiv(((DateMilliVector) vector).get(index), TimeUnit.DAYS.toMillis(1));
        }
        return LocalDate.ofEpochDay(epochDay).toString();
    }

    private static String renderTime(FieldVector vector, int index)
    {
        long nanos;
        int fractionDigits;
        if (vector instanceof TimeSecVector seconds) {
            nanos = TimeUnit.SECONDS.toNanos(seconds.get(index));
            fractionDigits = 0;
        }
        else if (vector instanceof TimeMilliVector millis) {
            nanos = TimeUnit.MILLISECONDS.toNanos(millis.get(index));
            fractionDigits = 3;
        }
        else if (vector instanceof TimeMicroVector micros) {
            nanos = TimeUnit.MICROSECONDS.toNanos(micros.get(index));
            fractionDigits = 6;
        }
        else {
            nanos = ((TimeNanoVector) vector).get(index);
            fractionDigits = 9;
        }
        LocalTime time = LocalTime.ofNanoOfDay(nanos);
        String text = TIME.format(time);
        // TIME is written HH:mm:ss; a fraction appears only when there is one
        if (time.getNano() != 0) {
            text += fraction(time.getNano(), fractionDigits);
        }
        return text;
    }

    private static String renderTimestamp(TimeStampVector vector, int index, org.apache.arrow.vector.types.TimeUnit unit)
    {
        long value = vector.get(index);
        long nanosPerUnit;
        int fractionDigits;
        switch (unit) {
            case SECOND -> {
                nanosPerUnit = 1_000_000_000L;
                fractionDigits = 0;
            }
            case MILLISECOND -> {
                nanosPerUnit = 1_000_000L;
                fractionDigits = 3;
            }
            case MICROSECOND -> {
                nanosPerUnit = 1_000L;
                fractionDigits = 6;
            }
            default -> {
                nanosPerUnit = 1L;
                fractionDigits = 9;
            }
        }
        long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
        long seconds = Math.floorDiv(value, unitsPerSecond);
        int nanos = (int) (Math.floorMod(value, unitsPerSecond) * nanosPerUnit);
        LocalDateTime dateTime = LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
        String text = DATE_TIME.format(dateTime);
        if (fractionDigits > 0) {
            text += fraction(nanos, fractionDigits);
        }
        return text;
    }

    private static String fraction(int nanos, int digits)
    {
        return "." + String.format("%09d", nanos).substring(0, digits);
    }
}
