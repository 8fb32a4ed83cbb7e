package io.ontul.engine.operator;

import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.expression.Vectors;

/**
 * UNNEST: each input row once per element of its arrays, with the replicated columns of the row,
 * the element of each array at that position (NULL past the end of a shorter array: arrays
 * unnested together are zipped, as in Trino and PostgreSQL) and optionally the position (from
 * 1). A row whose arrays are all NULL or empty yields no row, or one row with NULL elements when
 * {@code outer} (LEFT JOIN UNNEST). Output batches hold about {@value #TARGET_ROWS} rows; one
 * row's elements are never split across more than needed.
 */
public final class UnnestOperator
        implements Operator
{
    static final int TARGET_ROWS = 8192;

    private final OperatorContext context;
    private final Operator child;
    private final int[] replicated;
    private final int[] arrays;
    private final boolean ordinality;
    private final boolean outer;
    private final Schema outputSchema;
    private VectorSchemaRoot input;
    private int nextRow;

    /**
     * @param replicated the input columns copied to every output row, first in the output
     * @param arrays the input columns of ARRAY type to unnest, their elements next in the output
     */
    public UnnestOperator(OperatorContext context, Operator child, int[] replicated, int[] arrays, boolean ordinality, boolean outer, Schema outputSchema)
    {
        this.context = context;
        this.child = child;
        this.replicated = replicated.clone();
        this.arrays = arrays.clone();
        this.ordinality = ordinality;
        this.outer = outer;
        this.outputSchema = outputSchema;
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            if (input == null) {
                input = child.next();
                nextRow = 0;
                if (input == null) {
                    return null;
                }
            }
            context.checkCancelled();
            VectorSchemaRoot output = unnest();
            if (nextRow >= input.getRowCount()) {
                input.close();
                input = null;
            }
            if (output != null) {
                return output;
            }
        }
    }

    /** The output rows of the next input rows, up to about {@link #TARGET_ROWS}; null when they have none. */
    private VectorSchemaRoot unnest()
    {
        List<FieldVector> columns = input.getFieldVectors();
        ListVector[] lists = new ListVector[arrays.length];
        for (int a = 0; a < arrays.length; a++) {
            lists[a] = (ListVector) columns.get(arrays[a]);
        }
        int rowCount = input.getRowCount();
        int first = nextRow;
        int total = 0;
        int last = first;
        while (last < rowCount && (total == 0 || total < TARGET_ROWS)) {
            total += length(lists, last);
            last++;
        }
        nextRow = last;
        if (total == 0) {
            return null;
        }
        int[] rows = new int[total];
        int[] positions = new int[total];
        int at = 0;
        for (int row = first; row < last; row++) {
            int length = length(lists, row);
            for (int k = 0; k < length; k++) {
                rows[at] = row;
                positions[at] = k;
                at++;
            }
        }
        FieldVector[] outputs = Batches.allocate(outputSchema, context.allocator(), total);
        try {
            for (int c = 0; c < replicated.length; c++) {
                FieldVector source = columns.get(replicated[c]);
                VectorGather.gather(source, rows, 0, total, outputs[c], 0, source.getNullCount() > 0);
            }
            for (int a = 0; a < lists.length; a++) {
                ListVector list = lists[a];
                FieldVector elements = list.getDataVector();
                FieldVector target = outputs[replicated.length + a];
                for (int i = 0; i < total; i++) {
                    int row = rows[i];
                    boolean present = !list.isNull(row) && positions[i] < list.getElementEndIndex(row) - list.getElementStartIndex(row);
                    if (present) {
                        target.copyFromSafe(list.getElementStartIndex(row) + positions[i], i, elements);
                    }
                    else {
                        Vectors.setNullSafe(target, i);
                    }
                }
            }
            if (ordinality) {
                FieldVector target = outputs[replicated.length + lists.length];
                for (int i = 0; i < total; i++) {
                    int position = positions[i] + 1;
                    if (outer && positions[i] == 0 && (i + 1 == total || rows[i + 1] != rows[i]) && maxElements(lists, rows[i]) == 0) {
                        // the one row of an outer unnest over no elements
                        Vectors.setNullSafe(target, i);
                    }
                    else if (target instanceof BigIntVector big) {
                        big.setSafe(i, position);
                    }
                    else {
                        ((IntVector) target).setSafe(i, position);
                    }
                }
            }
            return Batches.root(outputs, total);
        }
        catch (RuntimeException e) {
            Batches.closeAll(List.of(outputs));
            throw e;
        }
    }

    /** The output rows of input row {@code row}: its longest array's length, or 1 for none when outer. */
    private int length(ListVector[] lists, int row)
    {
        int elements = maxElements(lists, row);
        return elements == 0 && outer ? 1 : elements;
    }

    private static int maxElements(ListVector[] lists, int row)
    {
        int length = 0;
        for (ListVector list : lists) {
            if (!list.isNull(row)) {
                length = Math.max(length, list.getElementEndIndex(row) - list.getElementStartIndex(row));
            }
        }
        return length;
    }

    @Override
    public void close()
    {
        try {
            if (input != null) {
                input.close();
                input = null;
            }
        }
        finally {
            child.close();
        }
    }
}
