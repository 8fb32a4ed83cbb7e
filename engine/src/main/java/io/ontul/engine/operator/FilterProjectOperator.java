package io.ontul.engine.operator;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

import io.ontul.engine.expression.ProjectionKernel;

/**
 * Filter and projection in one generated loop per batch ({@link ProjectionKernel}). When
 * there is no filter and every output is an input column, batches pass through by transferring
 * vectors, without copying.
 */
public final class FilterProjectOperator
        implements Operator
{
    /**
     * A batch that keeps at most one row in this many is copied into vectors of its size (see
     * {@link Batches#compact}): copying a few rows costs less than holding the rest.
     */
    private static final int SPARSE = 4;

    private final OperatorContext context;
    private final Operator child;
    private final ProjectionKernel kernel;
    private final Schema outputSchema;
    private final int[] passThroughColumns;

    /**
     * @param passThroughColumns if non-null, the input column of each output (no filter, no
     * computation): the kernel is not used
     */
    public FilterProjectOperator(OperatorContext context, Operator child, ProjectionKernel kernel, Schema outputSchema, int[] passThroughColumns)
    {
        this.context = context;
        this.child = child;
        this.kernel = kernel;
        this.outputSchema = outputSchema;
        this.passThroughColumns = passThroughColumns;
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
                List<FieldVector> inputVectors = input.getFieldVectors();
                FieldVector[] inputs = inputVectors.toArray(new FieldVector[0]);
                FieldVector[] outputs = Batches.allocate(outputSchema, context.allocator(), rowCount);
                int produced;
                try {
                    produced = kernel.process(inputs, outputs, rowCount);
                }
                catch (RuntimeException e) {
                    for (FieldVector output : outputs) {
                        output.close();
                    }
                    throw e;
                }
                if (produced == 0) {
                    for (FieldVector output : outputs) {
                        output.close();
                    }
                    continue;
                }
                VectorSchemaRoot output = Batches.root(outputSchema, outputs, produced);
                return produced <= rowCount / SPARSE ? Batches.compact(output, context.allocator()) : output;
            }
        }
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
