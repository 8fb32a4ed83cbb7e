package io.ontul.engine.operator.aggregate;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

import org.apache.arrow.vector.DecimalVector;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Exact per-group sums of up to 128 bits, for SUM and AVG of DECIMAL (38 digits) and AVG of
 * BIGINT, grouped and over window frames: group {@code g} holds {@code high[g] * 2^64 + low[g]} with {@code low} signed, so a sum
 * that stays within a long touches only {@code low}, and {@code high} is allocated when the
 * first sum leaves it.
 */
public final class Int128Sums
{
    private static final BigInteger MAX_DECIMAL = BigInteger.TEN.pow(38);

    private long[] low = new long[0];
    private long[] high;

    public void ensureCapacity(int length)
    {
        if (low.length < length) {
            int grown = Math.max(length, low.length * 2);
            low = Arrays.copyOf(low, grown);
            if (high != null) {
                high = Arrays.copyOf(high, grown);
            }
        }
    }

    /** Adds a value that fits a long. */
    public void add(int group, long value)
    {
        long a = low[group];
        long r = a + value;
        low[group] = r;
        if (((a ^ r) & (value ^ r)) < 0) {
            // the 64-bit sum wrapped: carry into the high part
            addHigh(group, value >= 0 ? 1 : -1);
        }
    }

    /** Adds a 128-bit two's complement value given as its high and low 64-bit words. */
    public void add(int group, long highWord, long lowWord)
    {
        // value = highWord * 2^64 + unsigned(lowWord) = (highWord + (lowWord < 0 ? 1 : 0)) * 2^64 + lowWord
        long carry = highWord + (lowWord >>> 63);
        if (carry != 0) {
            addHigh(group, carry);
        }
        add(group, lowWord);
    }

    /** Adds the sum of {@code other}'s group (state merged from a spill). */
    public void addSum(int group, long otherHigh, long otherLow)
    {
        if (otherHigh != 0) {
            addHigh(group, otherHigh);
        }
        add(group, otherLow);
    }

    /** Subtracts a 128-bit two's complement value given as its high and low 64-bit words (a window frame's row leaving it). */
    public void subtract(int group, long highWord, long lowWord)
    {
        // two's complement negation of the 128-bit value
        add(group, ~highWord + (lowWord == 0 ? 1 : 0), -lowWord);
    }

    /** Adds (or with {@code negate} subtracts) the non-NULL cell {@code row} of a DECIMAL or integer column. */
    public void addCell(int group, org.apache.arrow.vector.FieldVector vector, int row, boolean negate)
    {
        long high;
        long low;
        if (vector instanceof DecimalVector decimal) {
            long offset = (long) row * DecimalVector.TYPE_WIDTH;
            low = decimal.getDataBuffer().getLong(offset);
            high = decimal.getDataBuffer().getLong(offset + 8);
        }
        else {
            low = io.ontul.engine.operator.Columns.getLong(vector, row);
            high = low >> 63;
        }
        if (negate) {
            subtract(group, high, low);
        }
        else {
            add(group, high, low);
        }
    }

    private void addHigh(int group, long delta)
    {
        if (high == null) {
            high = new long[low.length];
        }
        high[group] += delta;
    }

    public long low(int group)
    {
        return low[group];
    }

    public long high(int group)
    {
        return high == null ? 0 : high[group];
    }

    public boolean fitsLong(int group)
    {
        return high == null || high[group] == 0;
    }

    public BigInteger get(int group)
    {
        BigInteger value = BigInteger.valueOf(low[group]);
        return fitsLong(group) ? value : BigInteger.valueOf(high[group]).shiftLeft(64).add(value);
    }

    /** Writes the sum of {@code group} as a DECIMAL of the vector's scale; more than 38 digits is an overflow. */
    public void writeDecimal(DecimalVector out, int index, int group, String function)
    {
        if (fitsLong(group)) {
            io.ontul.engine.expression.Vectors.writeDecimal(out, index, low[group]);
            return;
        }
        BigInteger value = get(group);
        if (value.abs().compareTo(MAX_DECIMAL) >= 0) {
            throw new OntulException(ErrorCode.NUMERIC_OVERFLOW, "Numeric overflow: " + function + " of DECIMAL is " + new BigDecimal(value, out.getScale()).toPlainString()
                    + ", beyond DECIMAL(38," + out.getScale() + ")");
        }
        out.set(index, new BigDecimal(value, out.getScale()));
    }

    /** Sets the group's sum back to 0. */
    public void clear(int group)
    {
        low[group] = 0;
        if (high != null) {
            high[group] = 0;
        }
    }

    public void reset()
    {
        low = new long[0];
        high = null;
    }
}
