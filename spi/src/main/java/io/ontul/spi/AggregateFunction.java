package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One aggregate of an {@link Aggregation}: the function, the column it reads (none for
 * {@code count(*)}) and the type of its value, which the source must produce exactly.
 * <ul>
 * <li>{@code COUNT_ALL}: the number of rows of the group; {@code COUNT}: of rows where the column is
 * not NULL. Both BIGINT ({@code Int(64)}), never NULL: 0 when there are none.</li>
 * <li>{@code SUM}: BIGINT for integer columns, {@code Decimal(38, s)} for a {@code Decimal(p, s)}
 * column, DOUBLE for floating point columns. A sum that does not fit its type is an error
 * ({@link ErrorCode#NUMERIC_OVERFLOW}), never a wrapped value. The engine holds decimals of up to
 * 18 digits, so a decimal sum whose unscaled value does not fit a signed 64-bit integer
 * overflows too.</li>
 * <li>{@code MIN}, {@code MAX}: the column's type; text compares by code point (as the bytes of its
 * UTF-8 form).</li>
 * <li>{@code AVG}: DOUBLE for exact columns (the exact sum divided by the count, rounded to 16
 * significant digits, then converted to the nearest double); for floating point columns the
 * column's type (the double sum divided by the count).</li>
 * </ul>
 * SUM, MIN, MAX and AVG ignore NULLs and are NULL when the group has no non-NULL value.
 */
public record AggregateFunction(Kind kind, Optional<String> column, ArrowType outputType)
{
    public enum Kind
    {
        COUNT_ALL, COUNT, SUM, MIN, MAX, AVG
    }

    public AggregateFunction
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(column, "column is null");
        requireNonNull(outputType, "outputType is null");
        if (column.isEmpty() != (kind == Kind.COUNT_ALL)) {
            throw new IllegalArgumentException(kind == Kind.COUNT_ALL ? "COUNT_ALL reads no column" : kind + " needs a column");
        }
    }

    @Override
    public String toString()
    {
        return kind == Kind.COUNT_ALL ? "COUNT(*)" : kind + "(" + column.orElseThrow() + ")";
    }
}
