package io.ontul.engine.operator.window;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Columns;

/** The collected input rows of a window, addressed by position in the current sort order. */
final class WindowRows
{
    private final List<VectorSchemaRoot> batches;
    private final int[] batchIndex;
    private final int[] rowIndex;
    private final int[] order;

    WindowRows(List<VectorSchemaRoot> batches, int[] batchIndex, int[] rowIndex, int[] order)
    {
        this.batches = batches;
        this.batchIndex = batchIndex;
        this.rowIndex = rowIndex;
        this.order = order;
    }

    FieldVector vector(int column, int position)
    {
        return batches.get(batchIndex[order[position]]).getVector(column);
    }

    /** Index of the row at {@code position} among all collected rows, in arrival order. */
    int global(int position)
    {
        return order[position];
    }

    int row(int position)
    {
        return rowIndex[order[position]];
    }

    boolean isNull(int column, int position)
    {
        return vector(column, position).isNull(row(position));
    }

    int compare(int column, int positionA, int positionB)
    {
        return Columns.compare(vector(column, positionA), row(positionA), vector(column, positionB), row(positionB));
    }
}
