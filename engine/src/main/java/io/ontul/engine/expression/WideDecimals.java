package io.ontul.engine.expression;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

import org.apache.arrow.vector.DecimalVector;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * DECIMAL values of up to 38 digits in generated code. A kernel first runs with every DECIMAL
 * held as an unscaled long ({@link Functions}), which is what nearly every row needs; where a
 * value does not fit 64 bits (a cell of more than 18 digits, a product, sum or rescale that
 * overflows) the long kernel throws {@link #REQUIRED} and {@link KernelCompiler} runs the batch
 * again with a kernel compiled to hold DECIMALs as {@link BigDecimal}s of their type's scale:
 * the methods here, named as their long counterparts in {@link Functions}. Overflow here is
 * the user's error: a value beyond its type's precision (at most 38 digits).
 */
public final class WideDecimals
{
    /** The largest precision of a DECIMAL: values are below 10^38 in magnitude. */
    public static final int MAX_PRECISION = 38;

    /**
     * Thrown by long kernels where a DECIMAL value needs more than 64 bits; never reaches a
     * user: the kernel's batch is computed again with DECIMALs held wide.
     */
    public static final Required REQUIRED = new Required();

    private static final BigInteger[] POWERS_OF_TEN = new BigInteger[MAX_PRECISION + 1];

    static {
        for (int i = 0; i <= MAX_PRECISION; i++) {
            POWERS_OF_TEN[i] = BigInteger.TEN.pow(i);
        }
    }

    private WideDecimals() {}

    /** The signal to compute a batch again with wide DECIMALs: preallocated, without a stack trace. */
    public static final class Required
            extends RuntimeException
    {
        private Required()
        {
            super("a DECIMAL value needs more than 64 bits", null, false, false);
        }
    }

    // ---- cells

    /** The unscaled long of a DECIMAL cell, or {@link #REQUIRED} when its 128 bits do not fit a long. */
    public static long readLong(DecimalVector vector, int index)
    {
        long offset = (long) index * DecimalVector.TYPE_WIDTH;
        long low = vector.getDataBuffer().getLong(offset);
        if (vector.getDataBuffer().getLong(offset + 8) != low >> 63) {
            throw REQUIRED;
        }
        return low;
    }

    public static BigDecimal read(DecimalVector vector, int index)
    {
        return vector.getObject(index);
    }

    /** Writes a value at the vector's scale; a value beyond the vector's precision is an overflow. */
    public static void write(DecimalVector vector, int index, BigDecimal value)
    {
        BigDecimal scaled = checkPrecision(rescale(value, value.scale(), vector.getScale()), vector.getPrecision(), vector.getScale());
        vector.set(index, scaled);
    }

    /** Whether the cell holds a value that does not fit a long (more than 18 digits, or exactly at the edge). */
    public static boolean isWide(DecimalVector vector, int index)
    {
        long offset = (long) index * DecimalVector.TYPE_WIDTH;
        return vector.getDataBuffer().getLong(offset + 8) != vector.getDataBuffer().getLong(offset) >> 63;
    }

    // ---- conversions

    /** An integer (or a whole number computed as a long) as a DECIMAL of {@code scale}. */
    public static BigDecimal of(long value, int scale)
    {
        return BigDecimal.valueOf(value).setScale(scale);
    }

    /** An unscaled long at {@code scale} (array elements hold DECIMALs so). */
    public static BigDecimal ofUnscaled(long unscaled, int scale)
    {
        return BigDecimal.valueOf(unscaled, scale);
    }

    /** A DECIMAL as the unscaled long an array element holds; arrays hold at most 18 digits. */
    public static long toUnscaledLong(BigDecimal value, int scale)
    {
        BigInteger unscaled = value.setScale(scale, RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.bitLength() > 63) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "An ARRAY element of DECIMAL type holds at most 18 digits: " + value.toPlainString());
        }
        return unscaled.longValue();
    }

    /** Changes the scale; rounds half away from zero when reducing (as {@link Functions#rescale}). */
    public static BigDecimal rescale(BigDecimal value, int fromScale, int toScale)
    {
        return value.scale() == toScale ? value : value.setScale(toScale, RoundingMode.HALF_UP);
    }

    public static BigDecimal checkPrecision(BigDecimal value, int precision, int scale)
    {
        if (value.unscaledValue().abs().compareTo(POWERS_OF_TEN[Math.min(precision, MAX_PRECISION)]) >= 0) {
            throw new OntulException(ErrorCode.NUMERIC_OVERFLOW, "Numeric overflow: value " + value.toPlainString() + " does not fit DECIMAL(" + precision + "," + scale + ")");
        }
        return value;
    }

    public static double decimalToDouble(BigDecimal value, int scale)
    {
        return value.doubleValue();
    }

    /** To an integer type: rounds half away from zero; a value beyond BIGINT does not cast. */
    public static long decimalToLong(BigDecimal value, int scale)
    {
        BigInteger whole = value.setScale(0, RoundingMode.HALF_UP).unscaledValue();
        if (whole.bitLength() > 63) {
            throw Functions.invalidCast(value.toPlainString(), "BIGINT");
        }
        return whole.longValue();
    }

    public static BigDecimal doubleToDecimal(double value, int precision, int scale)
    {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw Functions.invalidCast(Double.toString(value), "DECIMAL(" + precision + "," + scale + ")");
        }
        return checkPrecision(BigDecimal.valueOf(value).setScale(scale, RoundingMode.HALF_UP), precision, scale);
    }

    public static BigDecimal parseDecimal(String text, int precision, int scale)
    {
        BigDecimal value;
        try {
            value = new BigDecimal(text.trim());
        }
        catch (NumberFormatException e) {
            throw Functions.invalidCast(text, "DECIMAL(" + precision + "," + scale + ")");
        }
        return checkPrecision(value.setScale(scale, RoundingMode.HALF_UP), precision, scale);
    }

    public static String decimalToString(BigDecimal value, int scale)
    {
        return value.toPlainString();
    }

    public static BigDecimal toBigDecimal(BigDecimal value, int scale)
    {
        return value;
    }

    // ---- arithmetic (operands at the scales the generator gives them, as in Functions)

    public static BigDecimal decimalAdd(BigDecimal a, BigDecimal b)
    {
        return a.add(b);
    }

    public static BigDecimal decimalSubtract(BigDecimal a, BigDecimal b)
    {
        return a.subtract(b);
    }

    public static BigDecimal decimalMultiply(BigDecimal a, BigDecimal b)
    {
        return a.multiply(b);
    }

    public static BigDecimal decimalDivide(BigDecimal a, int scaleA, BigDecimal b, int scaleB, int resultScale)
    {
        if (b.signum() == 0) {
            throw Functions.divisionByZero();
        }
        return a.divide(b, resultScale, RoundingMode.HALF_UP);
    }

    public static BigDecimal decimalMod(BigDecimal a, int scaleA, BigDecimal b, int scaleB, int resultScale)
    {
        if (b.signum() == 0) {
            throw Functions.divisionByZero();
        }
        return a.remainder(b).setScale(resultScale, RoundingMode.HALF_UP);
    }

    public static BigDecimal negate(BigDecimal value)
    {
        return value.negate();
    }

    public static BigDecimal abs(BigDecimal value)
    {
        return value.abs();
    }

    public static int compare(BigDecimal a, BigDecimal b)
    {
        return a.compareTo(b);
    }

    public static BigDecimal greatest(BigDecimal a, BigDecimal b)
    {
        return a.compareTo(b) >= 0 ? a : b;
    }

    public static BigDecimal least(BigDecimal a, BigDecimal b)
    {
        return a.compareTo(b) <= 0 ? a : b;
    }

    // ---- rounding

    /** TRUNCATE to {@code digits} places (negative: left of the point), toward zero; the scale stays. */
    public static BigDecimal truncateDecimal(BigDecimal value, int scale, long digits)
    {
        if (digits >= scale) {
            return value;
        }
        return value.setScale((int) Math.max(digits, -MAX_PRECISION - 1), RoundingMode.DOWN).setScale(scale);
    }

    public static BigDecimal roundDecimal(BigDecimal value, int scale, int digits, int resultScale)
    {
        if (digits >= scale) {
            return value.setScale(resultScale, RoundingMode.HALF_UP);
        }
        return value.setScale(Math.max(digits, -MAX_PRECISION - 1), RoundingMode.HALF_UP).setScale(resultScale, RoundingMode.HALF_UP);
    }

    /** FLOOR as a whole number (scale 0). */
    public static BigDecimal floorDecimal(BigDecimal value, int scale)
    {
        return value.setScale(0, RoundingMode.FLOOR);
    }

    public static BigDecimal ceilDecimal(BigDecimal value, int scale)
    {
        return value.setScale(0, RoundingMode.CEILING);
    }
}
