package io.ontul.server.cli;

import static java.lang.Math.floorDiv;
import static java.lang.Math.floorMod;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.NonNullableStructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Turns one cell of an Arrow vector into the text a SQL user expects. The same text is used by
 * every output format, so a value reads the same in a table, a CSV file and a JSON line.
 * <ul>
 * <li>SQL NULL is {@code null}; formats decide how to show it.</li>
 * <li>Integers in decimal; DECIMAL with all digits of its scale ({@code 1.50}), never in
 *     scientific notation.</li>
 * <li>DOUBLE and REAL as {@link Double#toString}, except that magnitudes from 10^7 up to 10^16
 *     are written out ({@code 12345678.0}, not {@code 1.2345678E7}). Smaller than 10^-3 and from
 *     10^16 up (where a double no longer holds every integer) they keep the exponent.</li>
 * <li>BOOLEAN as {@code true}/{@code false}.</li>
 * <li>DATE as {@code yyyy-MM-dd}; TIME as {@code HH:mm:ss} plus as many fraction digits as the
 *     type's unit holds (3 for milliseconds, 6 for microseconds, 9 for nanoseconds); TIMESTAMP
 *     as {@code yyyy-MM-dd HH:mm:ss} with the same fraction rule. A timestamp without time zone
 *     is printed as stored, with no shift to the local zone; one with a zone is printed in that
 *     zone followed by the zone id.</li>
 * <li>VARBINARY as lower-case hex digits.</li>
 * <li>ARRAY as {@code [a, b]}, ROW as {@code {name=value, ...}}, MAP as {@code {key=value, ...}}.</li>
 * </ul>
 */
public final class ValueRenderer
{
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final double PLAIN_NOTATION_FROM = 1e7;
    private static final double PLAIN_NOTATION_BELOW = 1e16;
    private static final HexFormat HEX = HexFormat.of();

    private ValueRenderer() {}

    /** The text of the cell, or null when the cell is SQL NULL. */
    public static String render(ValueVector vector, int row)
    {
        if (vector.isNull(row)) {
            return null;
        }
        return switch (vector.getMinorType()) {
            case TINYINT, SMALLINT, INT, BIGINT -> Long.toString(((BaseIntVector) vector).getValueAsLong(row));
            case UINT1 -> String.valueOf(((UInt1Vector) vector).getObjectNoOverflow(row));
            case UINT2 -> String.valueOf((int) ((UInt2Vector) vector).get(row));
            case UINT4 -> String.valueOf(((UInt4Vector) vector).getObjectNoOverflow(row));
            case UINT8 -> String.valueOf(((UInt8Vector) vector).getObjectNoOverflow(row));
            case FLOAT4 -> formatReal(((Float4Vector) vector).get(row));
            case FLOAT8 -> formatDouble(((Float8Vector) vector).get(row));
            case FLOAT2 -> formatDouble(((FloatingPointVector) vector).getValueAsDouble(row));
            case DECIMAL -> ((DecimalVector) vector).getObject(row).toPlainString();
            case DECIMAL256 -> ((Decimal256Vector) vector).getObject(row).toPlainString();
            case BIT -> ((BitVector) vector).get(row) != 0 ? "true" : "false";
            case VARCHAR, LARGEVARCHAR, VIEWVARCHAR -> vector.getObject(row).toString();
            case VARBINARY, LARGEVARBINARY, VIEWVARBINARY, FIXEDSIZEBINARY -> HEX.formatHex((byte[]) vector.getObject(row));
            case DATEDAY -> LocalDate.ofEpochDay(((DateDayVector) vector).get(row)).toString();
            case DATEMILLI -> LocalDate.ofEpochDay(floorDiv(((DateMilliVector) vector).get(row), MILLIS_PER_DAY)).toString();
            case TIMESEC -> LocalTime.ofSecondOfDay(((TimeSecVector) vector).get(row)).format(timeFormat(TimeUnit.SECOND));
            case TIMEMILLI -> LocalTime.ofNanoOfDay(((TimeMilliVector) vector).get(row) * 1_000_000L).format(timeFormat(TimeUnit.MILLISECOND));
            case TIMEMICRO -> LocalTime.ofNanoOfDay(((TimeMicroVector) vector).get(row) * 1_000L).format(timeFormat(TimeUnit.MICROSECOND));
            case TIMENANO -> LocalTime.ofNanoOfDay(((TimeNanoVector) vector).get(row)).format(timeFormat(TimeUnit.NANOSECOND));
            case TIMESTAMPSEC, TIMESTAMPMILLI, TIMESTAMPMICRO, TIMESTAMPNANO,
                    TIMESTAMPSECTZ, TIMESTAMPMILLITZ, TIMESTAMPMICROTZ, TIMESTAMPNANOTZ -> formatTimestamp((TimeStampVector) vector, row);
            case MAP -> formatMap((MapVector) vector, row);
            case LIST -> "[" + String.join(", ", listElements((ListVector) vector, row)) + "]";
            case STRUCT -> formatStruct((NonNullableStructVector) vector, row);
            default -> String.valueOf(vector.getObject(row));
        };
    }

    /** True for types whose values are numbers: written unquoted in JSON, right-aligned in tables. */
    public static boolean isNumber(ArrowType type)
    {
        return type instanceof ArrowType.Int || type instanceof ArrowType.FloatingPoint || type instanceof ArrowType.Decimal;
    }

    public static String formatDouble(double value)
    {
        return plainWhereReadable(Double.toString(value), Math.abs(value));
    }

    public static String formatReal(float value)
    {
        return plainWhereReadable(Float.toString(value), Math.abs(value));
    }

    private static String plainWhereReadable(String javaText, double magnitude)
    {
        if (magnitude < PLAIN_NOTATION_FROM || magnitude >= PLAIN_NOTATION_BELOW || Double.isNaN(magnitude)) {
            return javaText;
        }
        String plain = new BigDecimal(javaText).toPlainString();
        return plain.indexOf('.') < 0 ? plain + ".0" : plain;
    }

    private static String formatTimestamp(TimeStampVector vector, int row)
    {
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        long unitsPerSecond = unitsPerSecond(type.getUnit());
        long value = vector.get(row);
        long seconds = floorDiv(value, unitsPerSecond);
        int nanos = (int) (floorMod(value, unitsPerSecond) * (1_000_000_000L / unitsPerSecond));
        DateTimeFormatter format = DateTimeFormatter.ofPattern("uuuu-MM-dd " + timePattern(type.getUnit()));
        if (type.getTimezone() == null) {
            return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC).format(format);
        }
        ZoneId zone = ZoneId.of(type.getTimezone());
        return Instant.ofEpochSecond(seconds, nanos).atZone(zone).format(format) + " " + zone.getId();
    }

    private static DateTimeFormatter timeFormat(TimeUnit unit)
    {
        return DateTimeFormatter.ofPattern(timePattern(unit));
    }

    private static String timePattern(TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> "HH:mm:ss";
            case MILLISECOND -> "HH:mm:ss.SSS";
            case MICROSECOND -> "HH:mm:ss.SSSSSS";
            case NANOSECOND -> "HH:mm:ss.SSSSSSSSS";
        };
    }

    private static long unitsPerSecond(TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> 1;
            case MILLISECOND -> 1_000;
            case MICROSECOND -> 1_000_000;
            case NANOSECOND -> 1_000_000_000;
        };
    }

    private static List<String> listElements(ListVector vector, int row)
    {
        ValueVector elements = vector.getDataVector();
        List<String> texts = new ArrayList<>();
        for (int index = vector.getElementStartIndex(row); index < vector.getElementEndIndex(row); index++) {
            texts.add(renderNested(elements, index));
        }
        return texts;
    }

    private static String formatMap(MapVector vector, int row)
    {
        NonNullableStructVector entries = (NonNullableStructVector) vector.getDataVector();
        ValueVector keys = entries.getChildByOrdinal(0);
        ValueVector values = entries.getChildByOrdinal(1);
        List<String> texts = new ArrayList<>();
        for (int index = vector.getElementStartIndex(row); index < vector.getElementEndIndex(row); index++) {
            texts.add(renderNested(keys, index) + "=" + renderNested(values, index));
        }
        return "{" + String.join(", ", texts) + "}";
    }

    private static String formatStruct(NonNullableStructVector vector, int row)
    {
        List<String> texts = new ArrayList<>();
        for (ValueVector child : vector.getChildrenFromFields()) {
            texts.add(child.getName() + "=" + renderNested(child, row));
        }
        return "{" + String.join(", ", texts) + "}";
    }

    private static String renderNested(ValueVector vector, int row)
    {
        String text = render(vector, row);
        return text == null ? "NULL" : text;
    }
}
