package io.ontul.engine.operator;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.execution.QueryContext;
import io.ontul.engine.operator.aggregate.Accumulator;

/**
 * The partial results of input rows taken one by one, without hashing: each row becomes a
 * group of its own, with its keys and each accumulator's partial value. A partial aggregation
 * switches to this once it sees that its input has about as many keys as rows, where a hash
 * table would only cost time and memory before the final step merges the keys anyway.
 * <p>
 * Uses the accumulators of the partial step, which must not belong to a table meanwhile;
 * each {@link #convert} resets them.
 */
final class PartialPassThrough
{
    private final QueryContext context;
    private final Schema outputSchema;
    private final int[] keyColumns;
    private final List<Accumulator> accumulators;
    private final int[] filterColumns;
    private int[] rows = new int[0];

    PartialPassThrough(QueryContext context, Schema outputSchema, int[] keyColumns, List<Accumulator> accumulators, int[] filterColumns)
    {
        this.context = requireNonNull(context, "context is null");
        this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
        this.keyColumns = keyColumns.clone();
        this.accumulators = List.copyOf(accumulators);
        this.filterColumns = filterColumns.clone();
    }

    /** The partial result rows of {@code batch}, one per input row; the caller keeps {@code batch}. */
    VectorSchemaRoot convert(VectorSchemaRoot batch)
    {
        int rowCount = batch.getRowCount();
        if (rows.length < rowCount) {
            rows = new int[rowCount];
            for (int i = 0; i < rowCount; i++) {
                rows[i] = i;
            }
        }
        FieldVector[] columns = batch.getFieldVectors().toArray(new FieldVector[0]);
        long reserved = 0;
        for (Accumulator accumulator : accumulators) {
            reserved += (long) accumulator.bytesPerGroup() * rowCount;
        }
        context.reserve(reserved);
        FieldVector[] outputs = Batches.allocate(outputSchema, context.allocator(), rowCount);
        try {
            for (int k = 0; k < keyColumns.length; k++) {
                FieldVector key = columns[keyColumns[k]];
                VectorGather.gather(key, rows, rowCount, outputs[k], key.getNullCount() > 0);
            }
            for (int a = 0; a < accumulators.size(); a++) {
                Accumulator accumulator = accumulators.get(a);
                accumulator.ensureCapacity(rowCount);
                accumulator.add(columns, rows, rowCount, AggregationTable.selection(columns, filterColumns[a], rowCount));
                accumulator.write(outputs[keyColumns.length + a], 0, rowCount, group -> 0);
                accumulator.reset();
            }
        }
        catch (RuntimeException e) {
            for (FieldVector output : outputs) {
                output.close();
            }
            throw e;
        }
        finally {
            context.release(reserved);
        }
        return Batches.root(outputSchema, outputs, rowCount);
    }
}
