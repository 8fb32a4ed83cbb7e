package io.ontul.catalog.jdbc.dialect;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The values {@code pg_stats} lists (its {@code anyarray} columns as text, {@code {1,5,9}} or
 * {@code {"2024-01-01 10:00:00",...}}) read on the scale of
 * {@link io.ontul.spi.ColumnStatistics#min()}: numbers as themselves, DATE as days since
 * 1970-01-01, TIMESTAMP as milliseconds since then, TIME as milliseconds of the day.
 */
final class PgStatsValues
{
    private PgStatsValues() {}

    /** {min, max} of the values of both lists; NaN where the type has no range or no value parses. */
    static double[] range(Field field, String... arrays)
    {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        ArrowType type = field.getType();
        boolean ranged = type instanceof ArrowType.Int || type instanceof ArrowType.Decimal || type instanceof ArrowType.FloatingPoint
                || type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp || type instanceof ArrowType.Time;
        if (ranged) {
            for (String array : arrays) {
                for (String element : elements(array)) {
                    double value = value(type, element);
                    if (!Double.isNaN(value)) {
                        min = Math.min(min, value);
                        max = Math.max(max, value);
                    }
                }
            }
        }
        return min <= max ? new double[] {min, max} : new double[] {Double.NaN, Double.NaN};
    }

    private static double value(ArrowType type, String text)
    {
        try {
            if (type instanceof ArrowType.Date) {
                return LocalDate.parse(text).toEpochDay();
            }
            if (type instanceof ArrowType.Timestamp) {
                return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli();
            }
            if (type instanceof ArrowType.Time) {
                return LocalTime.parse(text).toNanoOfDay() / 1_000_000.0;
            }
            double value = Double.parseDouble(text);
            return Double.isFinite(value) ? value : Double.NaN;
        }
        catch (NumberFormatException | DateTimeParseException e) {
            // infinity, a BC date, a format this does not read: no range from this value
            return Double.NaN;
        }
    }

    /** The elements of a one-dimensional array's text form, unquoted; empty for null. */
    static List<String> elements(String array)
    {
        List<String> elements = new ArrayList<>();
        if (array == null || array.length() < 2 || array.charAt(0) != '{') {
            return elements;
        }
        StringBuilder element = new StringBuilder();
        boolean quoted = false;
        for (int i = 1; i < array.length() - 1; i++) {
            char c = array.charAt(i);
            if (quoted) {
                if (c == '\\' && i + 1 < array.length() - 1) {
                    element.append(array.charAt(++i));
                }
                else if (c == '"') {
                    quoted = false;
                }
                else {
                    element.append(c);
                }
            }
            else if (c == '"') {
                quoted = true;
            }
            else if (c == ',') {
                elements.add(element.toString());
                element.setLength(0);
            }
            else {
                element.append(c);
            }
        }
        elements.add(element.toString());
        return elements;
    }
}
