package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A simple predicate on one column, in the form the engine pushes down to connectors.
 * Values are Java objects of the column's type: Boolean, Long (all integer types),
 * Double (REAL, DOUBLE), java.math.BigDecimal, String, java.time.LocalDate,
 * java.time.LocalTime, java.time.LocalDateTime (TIMESTAMP), java.time.Instant (TIMESTAMP WITH TIME ZONE).
 *
 * <ul>
 * <li>{@code EQUAL .. GREATER_THAN_OR_EQUAL}: {@code column op values[0]}; a NULL column value fails</li>
 * <li>{@code IN}: column equals one of {@code values}</li>
 * <li>{@code IS_NULL}, {@code IS_NOT_NULL}: no values</li>
 * <li>{@code LIKE}: a text column matches the SQL pattern {@code values[0]} ({@code %} any text,
 * {@code _} one character); {@code values[1]}, if present, is the one-character escape</li>
 * </ul>
 */
public record ColumnPredicate(String column, Operator operator, List<Object> values)
{
    public enum Operator
    {
        EQUAL, NOT_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, IN, IS_NULL, IS_NOT_NULL, LIKE
    }

    public ColumnPredicate
    {
        requireNonNull(column, "column is null");
        requireNonNull(operator, "operator is null");
        values = List.copyOf(requireNonNull(values, "values is null"));
    }
}
