package io.ontul.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.VectorGather;

/**
 * Input rows of a hash aggregation taken one by one, without hashing: each row becomes a group
 * of its own. Used where a hash table would only cost time and memory because the input has
 * about as many keys as rows:
 * <ul>
 * <li>a partial step passes such rows on as partial results ({@link #results}), leaving the
 * merging to the final step;</li>
 * <li>a final or single step that has started to spill writes them straight to its spill
 * partitions as state rows ({@link #states}, of {@link AggregationTable#stateSchema}), to be
 * merged partition by partition.</li>
 * </ul>
 * Uses the step's accumulators, which must not belong to a table meanwhile; each call resets
 * them. One grouping set, whose keys are all present.
 */
final class SingleRowGroups
{
    private final OperatorContext context;
    private final MemoryReservation memory;
    private final int[] keyColumns;
    private final List<Accumulator> accumulators;
    private final int[] filterColumns;
    private int[] rows = new int[0];

    SingleRowGroups(OperatorContext context, MemoryReservation memory, int[] keyColumns, List<Accumulator> accumulators, int[] filterColumns)
    {
        this.context = requireNonNull(context, "context is null");
        this.memory = requireNonNull(memory, "memory is null");
        this.keyColumns = keyColumns.clone();
        this.accumulators = List.copyOf(accumulators);
        this.filterColumns = filterColumns.clone();
    }

    /** Result rows of {@code schema} (keys, then each aggregate's value), one per row of {@code batch}; the caller keeps {@code batch}. */
    VectorSchemaRoot results(VectorSchemaRoot batch, Schema schema)
    {
        return convert(batch, schema, false);
    }

    /** State rows of {@code stateSchema} (keys, grouping set 0, accumulator states), one per row of {@code batch}; the caller keeps {@code batch}. */
    VectorSchemaRoot states(VectorSchemaRoot batch, Schema stateSchema)
    {
        return convert(batch, stateSchema, true);
    }

    private VectorSchemaRoot convert(VectorSchemaRoot batch, Schema schema, boolean states)
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
        memory.grow(reserved);
        FieldVector[] outputs = Batches.allocate(schema, context.allocator(), rowCount);
        try {
            for (int k = 0; k < keyColumns.length; k++) {
                FieldVector key = columns[keyColumns[k]];
                VectorGather.gather(key, rows, rowCount, outputs[k], key.getNullCount() > 0);
            }
            int column = keyColumns.length;
            if (states) {
                IntVector groupSets = (IntVector) outputs[column++];
                for (int i = 0; i < rowCount; i++) {
                    groupSets.set(i, 0);
                }
            }
            for (int a = 0; a < accumulators.size(); a++) {
                Accumulator accumulator = accumulators.get(a);
                accumulator.ensureCapacity(rowCount);
                accumulator.add(columns, rows, rowCount, AggregationTable.selection(columns, filterColumns[a], rowCount));
                if (states) {
                    accumulator.writeState(outputs, column, rows, rowCount);
                    column += accumulator.stateFields().size();
                }
                else {
                    accumulator.write(outputs[column++], 0, rowCount, group -> 0);
                }
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
            memory.shrink(reserved);
        }
        return Batches.root(schema, outputs, rowCount);
    }
}
