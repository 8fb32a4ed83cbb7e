package io.ontul.engine.operator;

import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

import io.ontul.engine.expression.KernelCompiler;
import io.ontul.engine.expression.ProjectionKernel;

/**
 * Filter and projection in one generated loop per batch ({@link ProjectionKernel}). When
 * there is no filter and every output is an input column, batches pass through by transferring
 * vectors, without copying. Otherwise outputs that are bare input columns are not computed: when
 * every row passes they are moved from the input, else the selected rows are gathered into vectors
 * of their size.
 */
public final class FilterProjectOperator
        implements Operator
{
    /**
     * A batch that keeps at most one row in this many has its computed columns copied into
     * vectors of its size: copying a few rows costs less than holding the rest (a hash join's
     * build side or a sort would keep them, and the allocator hand out fresh memory for rows
     * that never came).
     */
    private static final int SPARSE = 4;

    private final OperatorContext context;
    private final Operator child;
    private final ProjectionKernel kernel;
    private final Schema outputSchema;
    private final int[] passThroughColumns;
    private final int[] bareInputs;

    /**
     * @param passThroughColumns if non-null, the input column of each output (no filter, no
     * computation): the kernel is not used
     * @param bareInputs per output, the input column it is unchanged ({@link KernelCompiler#bareInputs}), or -1
     */
    public FilterProjectOperator(OperatorContext context, Operator child, ProjectionKernel kernel, Schema outputSchema, int[] passThroughColumns, int[] bareInputs)
    {
        this.context = context;
        this.child = child;
        this.kernel = kernel;
        this.outputSchema = outputSchema;
        this.passThroughColumns = passThroughColumns;
        this.bareInputs = bareInputs;
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            VectorSchemaRoot input = child.next();
            if (input == null) {
                return null;
            }
            try (input) {
                int rowCount = input.getRowCount();
                if (passThroughColumns != null) {
                    return passThrough(input, rowCount);
                }
                FieldVector[] inputs = input.getFieldVectors().toArray(new FieldVector[0]);
                FieldVector[] outputs = new FieldVector[bareInputs.length];
                int produced;
                try {
                    List<Field> fields = outputSchema.getFields();
                    for (int i = 0; i < outputs.length; i++) {
                        if (bareInputs[i] < 0) {
                            outputs[i] = fields.get(i).createVector(context.allocator());
                            Batches.allocate(outputs[i], rowCount);
                        }
                    }
                    produced = kernel.process(inputs, outputs, rowCount);
                    if (produced == 0) {
                        Batches.closeAll(Arrays.asList(outputs));
                        continue;
                    }
                    takeRows(inputs, outputs, rowCount, produced);
                }
                catch (RuntimeException e) {
                    Batches.closeAll(Arrays.asList(outputs));
                    throw e;
                }
                return Batches.root(outputSchema, outputs, produced);
            }
        }
    }

    /**
     * Fills the bare-column outputs with the {@code produced} selected rows (moving whole input
     * vectors when every row passed), and copies sparse computed outputs into vectors of their size.
     */
    private void takeRows(FieldVector[] inputs, FieldVector[] outputs, int rowCount, int produced)
    {
        boolean all = produced == rowCount;
        boolean sparse = produced <= rowCount / SPARSE;
        boolean[] moved = new boolean[inputs.length];
        int[] rows = kernel.selection();
        int[] identity = null;
        for (int i = 0; i < outputs.length; i++) {
            int source = bareInputs[i];
            if (source >= 0 && all && !moved[source]) {
                TransferPair transfer = inputs[source].getTransferPair(context.allocator());
                transfer.transfer();
                outputs[i] = (FieldVector) transfer.getTo();
                moved[source] = true;
            }
            else if (source >= 0) {
                // the same column twice is copied from the first one moved
                FieldVector from = moved[source] ? outputs[firstOutputOf(source)] : inputs[source];
                outputs[i] = gathered(from, all ? identity = identity(identity, produced) : rows, produced);
            }
            else if (sparse) {
                FieldVector wide = outputs[i];
                outputs[i] = null;
                try (wide) {
                    wide.setValueCount(produced);
                    outputs[i] = gathered(wide, identity = identity(identity, produced), produced);
                }
            }
        }
    }

    private FieldVector gathered(FieldVector from, int[] rows, int count)
    {
        FieldVector target = from.getField().createVector(context.allocator());
        try {
            Batches.allocate(target, count);
            VectorGather.gather(from, rows, count, target);
        }
        catch (RuntimeException e) {
            target.close();
            throw e;
        }
        return target;
    }

    private static int[] identity(int[] rows, int count)
    {
        if (rows != null) {
            return rows;
        }
        int[] identity = new int[count];
        for (int i = 0; i < count; i++) {
            identity[i] = i;
        }
        return identity;
    }

    private int firstOutputOf(int input)
    {
        return findFirst(bareInputs, input);
    }

    private VectorSchemaRoot passThrough(VectorSchemaRoot input, int rowCount)
    {
        FieldVector[] outputs = new FieldVector[passThroughColumns.length];
        boolean[] used = new boolean[input.getFieldVectors().size()];
        for (int i = 0; i < outputs.length; i++) {
            FieldVector source = input.getVector(passThroughColumns[i]);
            if (used[passThroughColumns[i]]) {
                // the same column twice: the second one is a copy
                TransferPair copy = source.getTransferPair(context.allocator());
                FieldVector target = (FieldVector) copy.getTo();
                target.allocateNew();
                for (int row = 0; row < rowCount; row++) {
                    target.copyFromSafe(row, row, outputs[findFirst(passThroughColumns, passThroughColumns[i])]);
                }
                target.setValueCount(rowCount);
                outputs[i] = target;
            }
            else {
                TransferPair transfer = source.getTransferPair(context.allocator());
                transfer.transfer();
                outputs[i] = (FieldVector) transfer.getTo();
                used[passThroughColumns[i]] = true;
            }
        }
        return Batches.root(outputSchema, outputs, rowCount);
    }

    private static int findFirst(int[] values, int value)
    {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        throw new IllegalStateException();
    }

    @Override
    public void close()
    {
        child.close();
    }
}
