package io.ontul.engine.operator.window;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.arrow.vector.FieldVector;
import org.apache.calcite.sql.SqlKind;

import io.ontul.engine.expression.Vectors;
import io.ontul.engine.operator.Columns;

/**
 * SUM, SUM0 or AVG of a window frame as values enter and leave it: a count of non-NULL values
 * and their sum, as a double for floating input, else as an exact unscaled long at the input's
 * decimal scale (overflow fails).
 */
final class WindowSum
{
    private final SqlKind kind;
    private final boolean floating;
    private final int scale;
    private long count;
    private long longSum;
    private double doubleSum;

    /** @param sample a vector of the argument, for its type */
    WindowSum(SqlKind kind, FieldVector sample)
    {
        this.kind = kind;
        this.floating = WindowValues.isFloating(sample);
        this.scale = WindowValues.scale(sample);
    }

    boolean floating()
    {
        return floating;
    }

    void reset()
    {
        count = 0;
        longSum = 0;
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
            longSum = Math.addExact(longSum, Columns.getLong(vector, row));
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
            longSum -= Columns.getLong(vector, row);
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
                    WindowValues.writeDouble(out, index, BigDecimal.valueOf(longSum, scale).doubleValue() / count);
                }
                else {
                    int outScale = WindowValues.scale(out);
                    WindowValues.writeDecimal(out, index, BigDecimal.valueOf(longSum, scale).divide(BigDecimal.valueOf(count), outScale, RoundingMode.HALF_UP));
                }
            }
            case SUM, SUM0 -> {
                if (count == 0 && kind == SqlKind.SUM) {
                    Vectors.setNullSafe(out, index);
                }
                else if (floating) {
                    WindowValues.writeDouble(out, index, count == 0 ? 0.0 : doubleSum);
                }
                else {
                    WindowValues.writeUnscaled(out, index, longSum, scale);
                }
            }
            default -> throw new IllegalStateException("not a sum: " + kind);
        }
    }
}
