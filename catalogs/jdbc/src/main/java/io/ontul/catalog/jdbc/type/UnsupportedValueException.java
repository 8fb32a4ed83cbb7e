package io.ontul.catalog.jdbc.type;

/**
 * Thrown by a {@link ColumnReader} for a value of a shape the column's engine type cannot hold
 * (a multi-dimensional array in a PostgreSQL array column, whose type does not say how many
 * dimensions its values have); the source reports it as NOT_SUPPORTED naming the column. Values
 * out of the type's range throw {@link ArithmeticException} instead.
 */
public final class UnsupportedValueException
        extends RuntimeException
{
    public UnsupportedValueException(String message)
    {
        super(message);
    }
}
