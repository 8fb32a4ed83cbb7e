package io.ontul.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunReader;

/**
 * Hash aggregation with grouping sets. Consumes its whole input, assigning each row a group
 * per grouping set ({@link GroupByHash}) and feeding the accumulators column by column; then
 * emits groups in batches of {@link Batches#TARGET_ROWS}. Output: group keys (NULL where a
 * grouping set leaves a key out), then one column per aggregate.
 * <p>
 * Bounded memory depends on the {@link AggregationStep}, and on a table budget: an eighth of the
 * query's budget, divided further when more than two instances aggregate at once (a parallel
 * step), so that all of them together stay within a quarter of it. A partial step emits the
 * groups it holds and starts over (the final step merges repeated keys) once it holds half its
 * table budget, or a quarter when the query is past half of its budget. A partial step that,
 * after {@link #DECISION_ROWS} input rows, holds more than {@link #PASS_THROUGH_RATIO} groups
 * per row stops hashing: it emits what it holds and passes further rows on as groups of one
 * ({@link SingleRowGroups}), leaving the merging to the final step. A single or final step,
 * when its memory pool asks it to spill ({@link MemoryReservation#shouldSpill}: the query is past
 * half its budget and this is among its largest spillable consumers) while it holds more than
 * its table budget, writes its groups' states to disk, partitioned by key hash
 * ({@link AggregationPartitions}), and starts over; at the end of its input it spills the rest
 * too, then aggregates the partitions one at a time, each in a fresh table, and emits them. A
 * partition that still does not fit is split again one level deeper, up to
 * {@link AggregationPartitions#MAX_LEVELS}; past that the query fails with the memory-limit
 * error. When its first spilled table held more than {@link #PASS_THROUGH_RATIO} groups per
 * row added (one grouping set), hashing the rest of the input would not shrink it either: the
 * rest goes straight to the partitions as groups of one, and is merged there.
 */
public final class HashAggregateOperator
        implements Operator
{
    static final int DECISION_ROWS = 100_000;
    static final double PASS_THROUGH_RATIO = 0.8;

    private final OperatorContext context;
    private final Operator child;
    private final Schema outputSchema;
    private final int[] keyColumns;
    private final boolean[][] nulled;
    private final List<Accumulator> accumulators;
    private final int[] filterColumns;
    private final AggregationStep step;
    private final OperatorStats stats;
    private final List<Field> keyFields;
    private final Schema stateSchema;
    private final long tableBudget;
    private final MemoryReservation memory;
    private final Deque<AggregationPartitions.Partition> pending = new ArrayDeque<>();
    private AggregationTable table;
    private AggregationPartitions spilled;
    private AggregationPartitions.Partition current;
    private SingleRowGroups passThrough;
    private SingleRowGroups direct;
    private long rowsInTable;
    private boolean decided;
    private long inputRows;
    private long flushedGroups;
    private boolean inputDone;
    private boolean emitting;
    private int emitted;

    /**
     * @param instances how many instances of this step aggregate at the same time (1 unless the
     * step runs in parallel)
     */
    public HashAggregateOperator(OperatorContext context, Operator child, Schema outputSchema, int[] keyColumns, boolean[][] groupSetMembership,
            List<Accumulator> accumulators, int[] filterColumns, AggregationStep step, int instances, OperatorStats stats)
    {
        this.context = requireNonNull(context, "context is null");
        this.child = requireNonNull(child, "child is null");
        this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
        this.keyColumns = requireNonNull(keyColumns, "keyColumns is null");
        this.accumulators = List.copyOf(accumulators);
        this.filterColumns = requireNonNull(filterColumns, "filterColumns is null");
        this.step = requireNonNull(step, "step is null");
        this.stats = requireNonNull(stats, "stats is null");
        this.tableBudget = context.memoryLimit() / (4L * Math.max(2, instances));
        this.nulled = new boolean[groupSetMembership.length][keyColumns.length];
        for (int set = 0; set < groupSetMembership.length; set++) {
            for (int k = 0; k < keyColumns.length; k++) {
                nulled[set][k] = !groupSetMembership[set][k];
            }
        }
        this.keyFields = List.copyOf(outputSchema.getFields().subList(0, keyColumns.length));
        this.stateSchema = AggregationTable.stateSchema(keyFields, accumulators);
        // a partial step never spills: it emits what it holds and starts over
        this.memory = context.memoryReservation(step == AggregationStep.PARTIAL ? "HashAggregate (partial)" : "HashAggregate", step != AggregationStep.PARTIAL);
        // its table stays under half its budget (mustFlush), less once the query runs short: a
        // refused grow would fail the query for groups it is about to emit
        memory.setSelfBounded(step == AggregationStep.PARTIAL);
        memory.setMinimumSpill(tableBudget);
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            if (emitting) {
                if (emitted < table.groupCount()) {
                    int count = Math.min(Batches.TARGET_ROWS, table.groupCount() - emitted);
                    VectorSchemaRoot batch = table.output(outputSchema, emitted, count);
                    emitted += count;
                    return batch;
                }
                emitting = false;
                closeTable();
            }
            if (passThrough != null && !inputDone) {
                VectorSchemaRoot batch = child.next();
                if (batch != null) {
                    try (batch) {
                        context.checkCancelled();
                        return passThrough.results(batch, outputSchema);
                    }
                }
                inputDone = true;
            }
            else if (!inputDone) {
                aggregateInput();
            }
            else if (!pending.isEmpty()) {
                aggregatePartition(pending.removeFirst());
            }
            else {
                return null;
            }
        }
    }

    /** Aggregates input until its end, or until a partial step must emit what it holds. */
    private void aggregateInput()
    {
        if (table == null) {
            table = newTable();
        }
        VectorSchemaRoot next;
        while ((next = child.next()) != null) {
            int rowCount = next.getRowCount();
            try (VectorSchemaRoot batch = next) {
                context.checkCancelled();
                if (direct != null) {
                    spillDirectly(batch);
                    continue;
                }
                FieldVector[] columns = batch.getFieldVectors().toArray(new FieldVector[0]);
                table.addInput(columns, keyColumns, nulled, filterColumns, rowCount);
            }
            rowsInTable += rowCount;
            if (step == AggregationStep.PARTIAL) {
                inputRows += rowCount;
                if (!decided && inputRows >= DECISION_ROWS) {
                    decided = true;
                    if (flushedGroups + table.groupCount() > PASS_THROUGH_RATIO * inputRows) {
                        passThrough = new SingleRowGroups(context, memory, keyColumns, accumulators, filterColumns);
                        startEmitting();
                        return;
                    }
                }
                if (mustFlush()) {
                    flushedGroups += table.groupCount();
                    startEmitting();
                    return;
                }
            }
            else if (mustSpill()) {
                boolean barelyReduces = spilled == null && nulled.length == 1 && !anyNulled(nulled[0]) && table.groupCount() > PASS_THROUGH_RATIO * rowsInTable;
                spill(0);
                if (barelyReduces) {
                    direct = new SingleRowGroups(context, memory, keyColumns, accumulators, filterColumns);
                }
                else {
                    table = newTable();
                }
            }
        }
        inputDone = true;
        if (table == null) {
            table = newTable();
        }
        table.addEmptyKeyGroups(nulled);
        finishLevel();
    }

    /** Merges the state rows of a spilled partition in a fresh table. */
    private void aggregatePartition(AggregationPartitions.Partition partition)
    {
        current = partition;
        table = newTable();
        for (SpillRun run : partition.runs()) {
            try (SpillRunReader reader = run.open(context.allocator())) {
                VectorSchemaRoot next;
                while ((next = reader.next()) != null) {
                    try (VectorSchemaRoot batch = next) {
                        context.checkCancelled();
                        table.addState(batch);
                    }
                    if (mustSpill()) {
                        spill(partition.level());
                        table = newTable();
                    }
                }
            }
            run.delete();
        }
        current = null;
        finishLevel();
    }

    /** Emits the table, or, when this level spilled, spills the rest and queues its partitions. */
    private void finishLevel()
    {
        if (spilled == null) {
            startEmitting();
            return;
        }
        spilled.spill(table);
        closeTable();
        List<AggregationPartitions.Partition> partitions = spilled.finish();
        spilled.close();
        spilled = null;
        // depth first: a partition's sub-partitions before its siblings
        for (int i = partitions.size() - 1; i >= 0; i--) {
            pending.addFirst(partitions.get(i));
        }
    }

    private boolean mustFlush()
    {
        // not only when memory runs short: the final step can only spill once the partial
        // results reach it, so partial tables that wait for that would crowd it out
        long held = table.heldBytes();
        return held > tableBudget / 2 || (held > tableBudget / 4 && context.memoryUsed() > context.memoryLimit() / 2);
    }

    private boolean mustSpill()
    {
        memory.setHeld(table.keyBytes());
        return table.heldBytes() > tableBudget && memory.shouldSpill();
    }

    /** Rows of one grouping set, as groups of one, to the spill partitions of their keys' hashes. */
    private void spillDirectly(VectorSchemaRoot batch)
    {
        int rowCount = batch.getRowCount();
        FieldVector[] keys = new FieldVector[keyColumns.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = batch.getVector(keyColumns[k]);
        }
        long[] groupHashes = GroupByHash.keyHashes(keys, nulled[0], 0, rowCount);
        for (int row = 0; row < rowCount; row++) {
            groupHashes[row] = Columns.mix(groupHashes[row]);
        }
        try (VectorSchemaRoot states = direct.states(batch, stateSchema)) {
            spilled.add(states, groupHashes, tableBudget);
        }
    }

    private static boolean anyNulled(boolean[] nulledKeys)
    {
        for (boolean left : nulledKeys) {
            if (left) {
                return true;
            }
        }
        return false;
    }

    /** Writes the table's groups to the partitions of {@code level} and closes it. */
    private void spill(int level)
    {
        if (level >= AggregationPartitions.MAX_LEVELS) {
            // the keys of one spilled partition share their top 30 hash bits and still do not fit
            throw memory.exceeded(null);
        }
        if (spilled == null) {
            spilled = new AggregationPartitions(context, stateSchema, level, stats);
        }
        stats.recordMemory(table.heldBytes());
        spilled.spill(table);
        closeTable();
        rowsInTable = 0;
    }

    private void startEmitting()
    {
        // a table being emitted is not spilled: the pool asks others meanwhile
        memory.setSpillable(false);
        stats.recordMemory(table.heldBytes());
        emitting = true;
        emitted = 0;
    }

    private AggregationTable newTable()
    {
        memory.setSpillable(step != AggregationStep.PARTIAL);
        return new AggregationTable(context, memory, keyFields, accumulators);
    }

    private void closeTable()
    {
        if (table != null) {
            AggregationTable closing = table;
            table = null;
            memory.setHeld(0);
            closing.close();
        }
    }

    @Override
    public void close()
    {
        try {
            closeTable();
            if (spilled != null) {
                spilled.close();
                spilled = null;
            }
            if (current != null) {
                current.delete();
                current = null;
            }
            pending.forEach(AggregationPartitions.Partition::delete);
            pending.clear();
        }
        finally {
            memory.close();
            child.close();
        }
    }
}
