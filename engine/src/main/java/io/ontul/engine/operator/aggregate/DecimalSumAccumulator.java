package io.ontul.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * SUM of DECIMAL, exact to 38 digits ({@link Int128Sums}); the result is DECIMAL(38, s). Its
 * input is the argument's column, or the partial sums of another SUM (DECIMAL(38, s) too); for
 * the partial sums of AVG also an integer column (the sum then DECIMAL(38, 0)).
 * Spilled state: the low and high 64 bits of each sum.
 */
final class DecimalSumAccumulator
        implements Accumulator
{
    private final int argument;
    private final boolean zeroWhenEmpty;
    private final Int128Sums sums = new Int128Sums();
    private boolean[] seen = new boolean[0];

    DecimalSumAccumulator(int argument, boolean zeroWhenEmpty)
    {
        this.argument = argument;
        this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override
    public int bytesPerGroup()
    {
        return 9;
    }

    @Override
    public void ensureCapacity(int groupCount)
    {
        if (seen.length < groupCount) {
            int length = Math.max(groupCount, seen.length * 2);
            sums.ensureCapacity(length);
            seen = Arrays.copyOf(seen, length);
        }
    }

    @Override
    public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
    {
        if (!(columns[argument] instanceof DecimalVector vector)) {
            FieldVector integers = columns[argument];
            long[] values = ColumnValues.longs(integers, rowCount);
            for (int row = 0; row < rowCount; row++) {
                if (ColumnValues.counts(integers, row, selected)) {
                    sums.add(groupIds[row], values[row]);
                    seen[groupIds[row]] = true;
                }
            }
            return;
        }
        var data = vector.getDataBuffer();
        boolean noNulls = vector.getNullCount() == 0 && selected == null;
        for (int row = 0; row < rowCount; row++) {
            if (noNulls || ColumnValues.counts(vector, row, selected)) {
                int group = groupIds[row];
                long offset = (long) row * DecimalVector.TYPE_WIDTH;
                long low = data.getLong(offset);
                long high = data.getLong(offset + 8);
                if (high == low >> 63) {
                    sums.add(group, low);
                }
                else {
                    sums.add(group, high, low);
                }
                seen[group] = true;
            }
        }
    }

    @Override
    public void write(FieldVector out, int from, int count, GroupInfo groups)
    {
        for (int i = 0; i < count; i++) {
            if (seen[from + i] || zeroWhenEmpty) {
                sums.writeDecimal((DecimalVector) out, i, from + i, "SUM");
            }
            else {
                out.setNull(i);
            }
        }
    }

    @Override
    public List<Field> stateFields()
    {
        return List.of(StateVectors.longField("sum"), StateVectors.longField("sum_high"));
    }

    @Override
    public void writeState(FieldVector[] out, int first, int[] groups, int count)
    {
        for (int i = 0; i < count; i++) {
            if (seen[groups[i]]) {
                StateVectors.setLong(out[first], i, sums.low(groups[i]));
                StateVectors.setLong(out[first + 1], i, sums.high(groups[i]));
            }
            else {
                out[first].setNull(i);
                out[first + 1].setNull(i);
            }
        }
    }

    @Override
    public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
    {
        FieldVector lows = columns[first];
        long[] low = StateVectors.longs(lows, rowCount);
        long[] high = StateVectors.longs(columns[first + 1], rowCount);
        for (int row = 0; row < rowCount; row++) {
            if (!lows.isNull(row)) {
                sums.addSum(groupIds[row], high[row], low[row]);
                seen[groupIds[row]] = true;
            }
        }
    }

    @Override
    public void reset()
    {
        sums.reset();
        seen = new boolean[0];
    }
}
