package io.ontul.engine.stream.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.aggregate.Accumulator;
import io.ontul.engine.operator.aggregate.Accumulators;
import io.ontul.engine.operator.aggregate.AggregationTable;
import io.ontul.engine.plan.AggregateNode;

/**
 * The local half of a window aggregation, as Flink's local-global aggregation has it: a source
 * task aggregates the rows of one poll per window and key into state rows before they cross the
 * shuffle, so that a few hundred state rows travel instead of thousands of input rows, and the
 * window task merges them ({@link EventTimeWindowAggregation#addLocal}). Each state row carries
 * one more column, the number of input rows it stands for, so that the window task still counts
 * late rows, not groups. The table is emptied by every {@link #flush}: a source task holds no
 * window state between polls, so its checkpoints carry none.
 */
public final class LocalWindowAggregation
        implements AutoCloseable
{
    private final OperatorContext context;
    private final int[] keyColumns;
    private final boolean[][] nulled;
    private final List<Field> keyFields;
    private final List<Accumulator> accumulators;
    private final int[] filterColumns;
    private final Schema schema;
    private final MemoryReservation memory;
    private AggregationTable table;

    public LocalWindowAggregation(OperatorContext context, AggregateNode.Parts aggregation)
    {
        this.context = requireNonNull(context, "context is null");
        this.keyColumns = aggregation.keyColumns().clone();
        boolean[][] membership = aggregation.groupSetMembership();
        this.nulled = new boolean[membership.length][keyColumns.length];
        for (int set = 0; set < membership.length; set++) {
            for (int k = 0; k < keyColumns.length; k++) {
                nulled[set][k] = !membership[set][k];
            }
        }
        this.keyFields = List.copyOf(aggregation.outputSchema().getFields().subList(0, keyColumns.length));
        this.accumulators = new ArrayList<>(aggregation.accumulators());
        // COUNT(*): the input rows of each group, for late-row counts
        this.accumulators.add(Accumulators.partialCount(-1));
        this.filterColumns = java.util.Arrays.copyOf(aggregation.filterColumns(), aggregation.filterColumns().length + 1);
        this.filterColumns[filterColumns.length - 1] = -1;
        this.schema = AggregationTable.stateSchema(keyFields, accumulators);
        this.memory = context.memoryReservation("Local window aggregation", false);
        this.table = new AggregationTable(context, memory, keyFields, accumulators);
    }

    /** State rows: the window aggregation's state columns, then the input rows of each group (BIGINT). */
    public Schema schema()
    {
        return schema;
    }

    /** The positions of the keys in the state rows: the first columns. */
    public int[] stateKeyColumns()
    {
        int[] keys = new int[keyColumns.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = k;
        }
        return keys;
    }

    /** Aggregates windowed input rows; the caller keeps the batch. */
    public void add(VectorSchemaRoot batch)
    {
        FieldVector[] columns = batch.getFieldVectors().toArray(new FieldVector[0]);
        table.addInput(columns, keyColumns, nulled, filterColumns, batch.getRowCount());
        memory.setHeld(table.keyBytes());
    }

    /** The groups so far as state rows, owned by the caller, and an empty table; null when there are none. */
    public VectorSchemaRoot flush()
    {
        int groups = table.groupCount();
        if (groups == 0) {
            return null;
        }
        int[] ids = new int[groups];
        for (int i = 0; i < groups; i++) {
            ids[i] = i;
        }
        VectorSchemaRoot state = table.state(schema, ids, groups);
        table.close();
        table = new AggregationTable(context, memory, keyFields, accumulators);
        memory.setHeld(0);
        return state;
    }

    @Override
    public void close()
    {
        try {
            table.close();
        }
        finally {
            memory.close();
        }
    }
}
