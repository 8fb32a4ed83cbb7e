package io.ontul.engine.operator.aggregate;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;

import io.ontul.engine.operator.Columns;

/** Bulk reads of a column into primitive arrays (one type dispatch per batch, not per row). */
final class ColumnValues
{
    private ColumnValues() {}

    static long[] longs(FieldVector vector, int rowCount)
    {
        return Columns.longs(vector, rowCount);
    }

    static double[] doubles(FieldVector vector, int rowCount)
    {
        double[] values = new double[rowCount];
        if (vector instanceof Float8Vector v) {
            // from the buffer: Float8Vector.get throws at a NULL, whose slot the caller skips anyway
            var data = v.getDataBuffer();
            for (int i = 0; i < rowCount; i++) {
                values[i] = data.getDouble((long) i * Float8Vector.TYPE_WIDTH);
            }
        }
        else {
            for (int i = 0; i < rowCount; i++) {
                values[i] = vector.isNull(i) ? 0 : Columns.getDouble(vector, i);
            }
        }
        return values;
    }

    static boolean counts(FieldVector vector, int row, boolean[] selected)
    {
        return (selected == null || selected[row]) && (vector == null || !vector.isNull(row));
    }
}
