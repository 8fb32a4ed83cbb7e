package io.ontul.catalog.jdbc.type;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

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
}
