package io.ontul.catalog.jdbc.type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;

/**
 * Readers of aggregates the database computed, giving the values the engine would: exact sums
 * as BIGINT (64 bits) or DECIMAL (38 digits), else the engine's overflow error; averages divided
 * here from the database's sum and count as the engine divides them (its sums are 128-bit).
 */
public final class AggregateReaders
{
    private static final BigInteger MAX_DECIMAL = BigInteger.TEN.pow(38);

    private AggregateReaders() {}

    /**
     * An exact sum (of integers, or of decimals with {@code scale}) as the database returns it
     * (PostgreSQL: numeric for bigint), into a BIGINT or DECIMAL vector.
     */
    public static ColumnReader exactSum(int scale)
    {
        return (resultSet, index, vector, row) -> {
            BigDecimal sum = resultSet.getBigDecimal(index);
            if (sum == null) {
                vector.setNull(row);
                return;
            }
            BigInteger unscaled = sum.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue();
            if (vector instanceof BigIntVector bigint) {
                if (unscaled.bitLength() > 63) {
                    throw new ArithmeticException("numeric overflow: the sum does not fit BIGINT");
                }
                bigint.setSafe(row, unscaled.longValue());
            }
            else {
                if (unscaled.abs().compareTo(MAX_DECIMAL) >= 0) {
                    throw new ArithmeticException("numeric overflow: the sum does not fit DECIMAL(38," + scale + ")");
                }
                ((DecimalVector) vector).setSafe(row, new BigDecimal(unscaled, scale));
            }
        };
    }

    /**
     * The average of an exact column from its sum (column {@code index}) and count (the next):
     * the sum divided by the count to 16 significant digits, as a double.
     *
     * @param decimal whether the column is a decimal (else an integer), for the overflow message
     */
    public static ColumnReader exactAverage(int scale, boolean decimal)
    {
        return (resultSet, index, vector, row) -> {
            BigDecimal sum = resultSet.getBigDecimal(index);
            long count = resultSet.getLong(index + 1);
            if (sum == null || count == 0) {
                vector.setNull(row);
                return;
            }
            double average = sum.setScale(scale, RoundingMode.UNNECESSARY)
                    .divide(BigDecimal.valueOf(count), MathContext.DECIMAL64)
                    .doubleValue();
            write(vector, row, average);
        };
    }

    /** The average of a floating point column from its double sum (column {@code index}) and count (the next). */
    public static ColumnReader floatingAverage()
    {
        return (resultSet, index, vector, row) -> {
            double sum = resultSet.getDouble(index);
            boolean noSum = resultSet.wasNull();
            long count = resultSet.getLong(index + 1);
            if (noSum || count == 0) {
                vector.setNull(row);
                return;
            }
            write(vector, row, sum / count);
        };
    }

    private static void write(FieldVector vector, int row, double value)
    {
        if (vector instanceof Float4Vector real) {
            real.setSafe(row, (float) value);
        }
        else {
            ((Float8Vector) vector).setSafe(row, value);
        }
    }

}
