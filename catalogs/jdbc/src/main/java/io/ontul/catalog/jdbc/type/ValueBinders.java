package io.ontul.catalog.jdbc.type;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;

/**
 * The binders of the standard mappings.
 */
public final class ValueBinders
{
    /** Binds by the value's Java class; java.time values go through {@code setObject} (JDBC 4.2). */
    public static final ValueBinder BY_VALUE = (statement, index, value) -> {
        if (value instanceof Long longValue) {
            statement.setLong(index, longValue);
        }
        else if (value instanceof Integer intValue) {
            statement.setInt(index, intValue);
        }
        else if (value instanceof Short shortValue) {
            statement.setShort(index, shortValue);
        }
        else if (value instanceof Byte byteValue) {
            statement.setShort(index, byteValue);
        }
        else if (value instanceof Double doubleValue) {
            statement.setDouble(index, doubleValue);
        }
        else if (value instanceof Float floatValue) {
            statement.setFloat(index, floatValue);
        }
        else if (value instanceof BigDecimal decimal) {
            statement.setBigDecimal(index, decimal);
        }
        else if (value instanceof String text) {
            statement.setString(index, text);
        }
        else if (value instanceof Boolean bool) {
            statement.setBoolean(index, bool);
        }
        else if (value instanceof byte[] bytes) {
            statement.setBytes(index, bytes);
        }
        else if (value instanceof LocalDate || value instanceof LocalTime || value instanceof LocalDateTime || value instanceof OffsetDateTime) {
            statement.setObject(index, value);
        }
        else {
            throw new IllegalArgumentException("No binding for a value of " + value.getClass().getSimpleName());
        }
    };

    /**
     * For a column with a time zone: an Instant (or a LocalDateTime, taken as UTC) is bound as an
     * OffsetDateTime in UTC, so the database session's time zone plays no part.
     */
    public static final ValueBinder TIMESTAMP_AS_UTC = (statement, index, value) -> {
        if (value instanceof java.time.Instant instant) {
            statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
        }
        else if (value instanceof LocalDateTime dateTime) {
            statement.setObject(index, OffsetDateTime.of(dateTime, ZoneOffset.UTC));
        }
        else {
            BY_VALUE.bind(statement, index, value);
        }
    };

    /**
     * For a non-text column the engine sees as text (PostgreSQL uuid): the text is sent without a
     * type so the database converts it to the column's type.
     */
    public static final ValueBinder UNTYPED_TEXT = (statement, index, value) -> {
        if (value instanceof String text) {
            statement.setObject(index, text, Types.OTHER);
        }
        else {
            BY_VALUE.bind(statement, index, value);
        }
    };

    private ValueBinders() {}

    /**
     * For a PostgreSQL array column: a List (the engine's ARRAY) is bound as an array of
     * {@code elementTypeName} ({@code int4}, {@code timestamptz}) made by
     * {@link java.sql.Connection#createArrayOf}, each element as PostgreSQL's text input of the
     * value the scalar binders take: numbers, text and booleans as themselves, decimals without
     * exponent, bytes as {@code \x} hex, dates and times as ISO text with {@code BC} for years
     * before 1. With {@code withTimeZone} (timestamptz elements) an Instant or a LocalDateTime is
     * the instant in UTC, as {@link #TIMESTAMP_AS_UTC} binds it. A nested List, or any other
     * value, is refused with {@link IllegalArgumentException}.
     */
    public static ValueBinder array(String elementTypeName, boolean withTimeZone)
    {
        requireNonNull(elementTypeName, "elementTypeName is null");
        return (statement, index, value) -> {
            if (!(value instanceof List<?> list)) {
                throw new IllegalArgumentException("No array binding for a value of " + value.getClass().getSimpleName());
            }
            Object[] elements = new Object[list.size()];
            for (int i = 0; i < elements.length; i++) {
                Object element = list.get(i);
                elements[i] = element == null ? null : arrayElement(withTimeZone ? utc(element) : element);
            }
            statement.setArray(index, statement.getConnection().createArrayOf(elementTypeName, elements));
        };
    }

    private static Object utc(Object value)
    {
        if (value instanceof Instant instant) {
            return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        if (value instanceof LocalDateTime dateTime) {
            return OffsetDateTime.of(dateTime, ZoneOffset.UTC);
        }
        return value;
    }

    /** The element as PostgreSQL's text input of it (the driver quotes and escapes it in the array literal). */
    private static Object arrayElement(Object value)
    {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof Double || value instanceof Float || value instanceof Boolean || value instanceof String) {
            // Double's and Float's text (1.0E10, NaN, Infinity) is PostgreSQL's input too
            return value;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return "\\x" + HexFormat.of().formatHex(bytes);
        }
        if (value instanceof LocalDate date) {
            return withEra(date(date), date);
        }
        if (value instanceof LocalTime time) {
            return time(time);
        }
        if (value instanceof LocalDateTime dateTime) {
            return withEra(date(dateTime.toLocalDate()) + " " + time(dateTime.toLocalTime()), dateTime.toLocalDate());
        }
        if (value instanceof OffsetDateTime dateTime) {
            return withEra(date(dateTime.toLocalDate()) + " " + time(dateTime.toLocalTime()) + offset(dateTime.getOffset()), dateTime.toLocalDate());
        }
        throw new IllegalArgumentException("No array element binding for a value of " + value.getClass().getSimpleName());
    }

    /** yyyy-mm-dd of the year of the era: PostgreSQL has no year 0 and writes 1 BC for it. */
    private static String date(LocalDate date)
    {
        int year = date.getYear() > 0 ? date.getYear() : 1 - date.getYear();
        return "%04d-%02d-%02d".formatted(year, date.getMonthValue(), date.getDayOfMonth());
    }

    private static String withEra(String text, LocalDate date)
    {
        return date.getYear() > 0 ? text : text + " BC";
    }

    private static String offset(ZoneOffset offset)
    {
        int seconds = Math.abs(offset.getTotalSeconds());
        String text = "%s%02d:%02d".formatted(offset.getTotalSeconds() < 0 ? "-" : "+", seconds / 3600, seconds / 60 % 60);
        return seconds % 60 == 0 ? text : text + ":%02d".formatted(seconds % 60);
    }

    private static String time(LocalTime time)
    {
        return "%02d:%02d:%02d.%06d".formatted(time.getHour(), time.getMinute(), time.getSecond(), time.getNano() / 1000);
    }
}
