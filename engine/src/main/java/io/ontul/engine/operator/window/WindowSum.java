package io.ontul.engine.operator.window;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.arrow.vector.FieldVector;
import org.apache.calcite.sql.SqlKind;

import io.ontul.engine.expression.Vectors;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.aggregate.Int128Sums;

/**
 * SUM, SUM0 or AVG of a window frame as values enter and leave it: a count of non-NULL values
 * and their sum, as a double for floating input, else exact in 128 bits at the input's decimal
 * scale ({@link Int128Sums}: DECIMALs of 38 digits; beyond the output type is an overflow).
 */
final class WindowSum
{
    private final SqlKind kind;
    private final boolean floating;
    private final int scale;
    private long count;
    private final Int128Sums exactSum = new Int128Sums();
    private double doubleSum;

    /** @param sample a vector of the argument, for its type */
    WindowSum(SqlKind kind, FieldVector sample)
    {
        this.kind = kind;
        this.floating = WindowValues.isFloating(sample);
        this.scale = WindowValues.scale(sample);
        exactSum.ensureCapacity(1);
    }

    boolean floating()
    {
        return floating;
    }

    void reset()
    {
        count = 0;
        exactSum.clear(0);
        doubleSum = 0;
    }

    void add(FieldVector vector, int row)
    {
        if (vector.isNull(row)) {
            return;
        }
        count++;
        if (floating) {
            doubleSum += Columns.getDouble(vector, row);
        }
        else {
            exactSum.addCell(0, vector, row, false);
        }
    }

    void remove(FieldVector vector, int row)
    {
        if (vector.isNull(row)) {
            return;
        }
        count--;
        if (floating) {
            doubleSum -= Columns.getDouble(vector, row);
        }
        else {
            exactSum.addCell(0, vector, row, true);
        }
    }

    /** Writes SUM, SUM0 or AVG of the values added and not removed at {@code index} of {@code out}. */
    void write(FieldVector out, int index)
    {
        switch (kind) {
            case AVG -> {
                if (count == 0) {
                    Vectors.setNullSafe(out, index);
                }
                else if (floating) {
                    WindowValues.writeDouble(out, index, doubleSum / count);
                }
                else if (WindowValues.isFloating(out)) {
                    WindowValues.writeDouble(out, index, sum().doubleValue() / count);
                }
                else {
                    int outScale = WindowValues.scale(out);
                    WindowValues.writeDecimal(out, index, sum().divide(BigDecimal.valueOf(count), outScale, RoundingMode.HALF_UP));
                }
            }
            case SUM, SUM0 -> {
                if (count == 0 && kind == SqlKind.SUM) {
                    Vectors.setNullSafe(out, index);
                }
                else if (floating) {
                    WindowValues.writeDouble(out, index, count == 0 ? 0.0 : doubleSum);
                }
                else if (exactSum.fitsLong(0)) {
                    WindowValues.writeUnscaled(out, index, exactSum.low(0), scale);
                }
                else {
                    WindowValues.writeDecimal(out, index, sum());
                }
            }
            default -> throw new IllegalStateException("not a sum: " + kind);
        }
    }

    private BigDecimal sum()
    {
        return new BigDecimal(exactSum.get(0), scale);
    }
}
