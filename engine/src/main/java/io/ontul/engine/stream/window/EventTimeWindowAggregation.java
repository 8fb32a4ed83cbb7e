package io.ontul.engine.stream.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.VectorGather;
import io.ontul.engine.operator.aggregate.Accumulator;
import io.ontul.engine.operator.aggregate.AggregationTable;
import io.ontul.engine.plan.AggregateNode;
import io.ontul.engine.stream.shuffle.KeyGroups;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunReader;
import io.ontul.exchange.spill.SpillRunWriter;

/**
 * The state of a streaming job's window aggregation ({@code GROUP BY window_start, window_end,
 * ...} over TUMBLE or HOP): the hash aggregation's {@link AggregationTable} and accumulators,
 * keyed by window and group, fed batch by batch and emptied window by window as the watermark
 * passes window ends.
 * <p>
 * Protocol, on the job's task thread: {@link #add} each windowed batch with the watermark before
 * it (rows of windows that already closed are late: dropped and counted); {@link #fire} with the
 * watermark after it, which returns the result rows (keys then aggregates, as the batch
 * aggregation's) of every window whose end is at or before the watermark and forgets them; on a
 * checkpoint barrier {@link #snapshot} returns the open groups as state rows
 * ({@link #stateSchema}), which {@link #restore} takes back after a crash.
 * <p>
 * Emptying a window rebuilds the table from state rows of the windows still open (the table
 * cannot forget single groups); that costs one pass over the open state per fired window end.
 * <p>
 * Memory: the table reserves what it holds against the job's budget. When the job's memory runs
 * short (its memory pool asks it to spill, {@link MemoryReservation#shouldSpill}) while the table holds an eighth of the budget, its
 * groups go to a spill run of the Exchange Manager (encrypted, deleted with the job's attempt)
 * and the table starts over; a group may then have state rows in several runs and the table,
 * which are merged ({@link AggregationTable#addState}) when its window fires. Firing reads every
 * run once, keeping the rows of windows still open in a new run; when there are runs, or the
 * table is big, the closing groups go to spill runs by the hash of their keys first and are
 * merged one such partition at a time, so a window bigger than the budget can still fire.
 */
public final class EventTimeWindowAggregation
        implements AutoCloseable
{
    /** The watermark before any: no window has closed. */
    public static final long NO_WATERMARK = Long.MIN_VALUE;
    /** Spill runs the closing groups are hashed into when a window's state is too big to merge whole. */
    private static final int FIRE_PARTITIONS = 16;

    private final OperatorContext context;
    private final Schema outputSchema;
    private final int[] keyColumns;
    private final boolean[][] nulled;
    private final List<Accumulator> accumulators;
    private final int[] filterColumns;
    private final int windowEndKey;
    private final long microsPerUnit;
    private final List<Field> keyFields;
    private final Schema stateSchema;
    private final TreeSet<Long> openWindowEnds = new TreeSet<>();
    /** Groups written out when memory ran short: state rows, merged back when their windows fire. */
    private final List<SpillRun> spilled = new ArrayList<>();
    private final MemoryReservation memory;
    private AggregationTable table;
    private long lateRows;

    /**
     * @param keyColumns input columns of the GROUP BY keys; the key at {@code windowEndKey} is window_end
     * @param groupSetMembership for each grouping set, which keys it has; window_end is in every one
     * @param microsPerUnit microseconds per unit of the window_end values (1000 for TIMESTAMP(3)); watermarks are in microseconds
     */
    /**
     * The window aggregation of a GROUP BY as the query planner planned it.
     *
     * @param windowEndKey which GROUP BY key is window_end
     * @param microsPerUnit microseconds per unit of window_end
     */
    public static EventTimeWindowAggregation of(OperatorContext context, AggregateNode.Parts aggregation, int windowEndKey, long microsPerUnit)
    {
        return new EventTimeWindowAggregation(context, aggregation.outputSchema(), aggregation.keyColumns(), aggregation.groupSetMembership(), aggregation.accumulators(),
                aggregation.filterColumns(), windowEndKey, microsPerUnit);
    }

    public EventTimeWindowAggregation(OperatorContext context, Schema outputSchema, int[] keyColumns, boolean[][] groupSetMembership, List<Accumulator> accumulators, int[] filterColumns,
            int windowEndKey, long microsPerUnit)
    {
        this.context = requireNonNull(context, "context is null");
        this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
        this.keyColumns = keyColumns.clone();
        this.nulled = new boolean[groupSetMembership.length][keyColumns.length];
        for (int set = 0; set < groupSetMembership.length; set++) {
            if (!groupSetMembership[set][windowEndKey]) {
                throw new IllegalArgumentException("grouping set " + set + " leaves out window_end");
            }
            for (int k = 0; k < keyColumns.length; k++) {
                nulled[set][k] = !groupSetMembership[set][k];
            }
        }
        this.accumulators = List.copyOf(accumulators);
        this.filterColumns = filterColumns.clone();
        this.windowEndKey = windowEndKey;
        this.microsPerUnit = microsPerUnit;
        this.keyFields = List.copyOf(outputSchema.getFields().subList(0, keyColumns.length));
        this.stateSchema = AggregationTable.stateSchema(keyFields, accumulators);
        this.memory = context.memoryReservation("Window aggregation", true);
        memory.setMinimumSpill(context.memoryLimit() / 8);
        this.table = new AggregationTable(context, memory, keyFields, accumulators);
    }

    /** The columns of state rows, for checkpoints. */
    public Schema stateSchema()
    {
        return stateSchema;
    }

    /** Rows left out so far because their window had already closed (for HOP, once per window missed). */
    public long lateRows()
    {
        return lateRows;
    }

    public int groupCount()
    {
        return table.groupCount();
    }

    /** Adds a windowed batch none of whose rows can be late, such as the fired windows of another aggregation; the caller keeps owning it. */
    public void addOnTime(VectorSchemaRoot batch)
    {
        add(batch, NO_WATERMARK);
    }

    /** Adds a windowed batch, which the caller keeps owning; rows of windows ending at or before {@code watermark} are late. */
    public void add(VectorSchemaRoot batch, long watermark)
    {
        int rowCount = batch.getRowCount();
        TimeStampVector windowEnds = (TimeStampVector) batch.getVector(keyColumns[windowEndKey]);
        int[] kept = new int[rowCount];
        int keptCount = 0;
        long previous = Long.MIN_VALUE;
        for (int row = 0; row < rowCount; row++) {
            long end = windowEnds.get(row);
            if (closed(end, watermark)) {
                continue;
            }
            kept[keptCount++] = row;
            if (end != previous) {
                openWindowEnds.add(end);
                previous = end;
            }
        }
        lateRows += rowCount - keptCount;
        if (keptCount == rowCount) {
            addInput(batch);
            return;
        }
        if (keptCount == 0) {
            return;
        }
        List<FieldVector> vectors = batch.getFieldVectors();
        FieldVector[] gathered = new FieldVector[vectors.size()];
        try {
            for (int c = 0; c < gathered.length; c++) {
                gathered[c] = vectors.get(c).getField().createVector(context.allocator());
                Batches.allocate(gathered[c], keptCount);
                VectorGather.gather(vectors.get(c), kept, keptCount, gathered[c]);
            }
        }
        catch (RuntimeException e) {
            closeAll(gathered);
            throw e;
        }
        try (VectorSchemaRoot onTime = Batches.root(batch.getSchema(), gathered, keptCount)) {
            addInput(onTime);
        }
    }

    private void addInput(VectorSchemaRoot batch)
    {
        context.checkCancelled();
        FieldVector[] columns = batch.getFieldVectors().toArray(new FieldVector[0]);
        table.addInput(columns, keyColumns, nulled, filterColumns, batch.getRowCount());
        spillIfShort();
    }

    /** Spills the table's groups when the job's memory runs short, as the hash aggregation does. */
    private void spillIfShort()
    {
        memory.setHeld(table.keyBytes());
        if (table.groupCount() == 0 || table.heldBytes() <= context.memoryLimit() / 8 || !memory.shouldSpill()) {
            return;
        }
        try (SpillRunWriter writer = context.spillSpace().newRun(stateSchema)) {
            forEachState(writer::write);
            spilled.add(writer.finish());
        }
        table.close();
        table = new AggregationTable(context, memory, keyFields, accumulators);
        memory.setHeld(0);
    }

    /** Groups spilled so far and not yet fired, in runs. */
    public int spilledRuns()
    {
        return spilled.size();
    }

    /** The result rows of the windows that end at or before {@code watermark}, which are forgotten; the caller owns the batches. */
    public List<VectorSchemaRoot> fire(long watermark)
    {
        if (openWindowEnds.isEmpty() || !closed(openWindowEnds.first(), watermark)) {
            return List.of();
        }
        // spilled or big: by partitions; otherwise the closing groups are merged in memory below
        if (!spilled.isEmpty() || table.heldBytes() > context.memoryLimit() / 8) {
            List<VectorSchemaRoot> results = fireByPartitions(watermark);
            while (!openWindowEnds.isEmpty() && closed(openWindowEnds.first(), watermark)) {
                openWindowEnds.pollFirst();
            }
            return results;
        }
        List<VectorSchemaRoot> closing = new ArrayList<>();
        List<VectorSchemaRoot> open = new ArrayList<>();
        List<VectorSchemaRoot> results = new ArrayList<>();
        try {
            splitState(watermark, closing, open);
            table.close();
            table = new AggregationTable(context, memory, keyFields, accumulators);
            memory.setHeld(0);
            for (VectorSchemaRoot state : closing) {
                table.addState(state);
            }
            for (int from = 0; from < table.groupCount(); from += Batches.TARGET_ROWS) {
                results.add(table.output(outputSchema, from, Math.min(Batches.TARGET_ROWS, table.groupCount() - from)));
            }
            table.close();
            table = new AggregationTable(context, memory, keyFields, accumulators);
            memory.setHeld(0);
            for (VectorSchemaRoot state : open) {
                table.addState(state);
            }
        }
        catch (RuntimeException e) {
            Batches.closeAll(results);
            throw e;
        }
        finally {
            Batches.closeAll(closing);
            Batches.closeAll(open);
        }
        while (!openWindowEnds.isEmpty() && closed(openWindowEnds.first(), watermark)) {
            openWindowEnds.pollFirst();
        }
        return results;
    }

    /**
     * Fires the windows closed by {@code watermark} when their state may not fit in memory twice
     * (it was spilled, or the table holds more than an eighth of the budget): the closing groups'
     * state rows, from the table and from every spilled run, go to {@link #FIRE_PARTITIONS}
     * spill runs by the hash of their keys (and grouping set); each partition's groups are then
     * merged in a table of their own and written out, one partition at a time; last, the open
     * groups of the table (copied out meanwhile) go into a new table, and the spilled open ones to
     * a new run.
     */
    private List<VectorSchemaRoot> fireByPartitions(long watermark)
    {
        int[] keyAndSet = new int[keyFields.size() + 1];
        for (int i = 0; i < keyAndSet.length; i++) {
            keyAndSet[i] = i;
        }
        KeyGroups partitioning = new KeyGroups(keyAndSet, FIRE_PARTITIONS);
        SpillRunWriter[] writers = new SpillRunWriter[FIRE_PARTITIONS];
        List<VectorSchemaRoot> open = new ArrayList<>();
        List<VectorSchemaRoot> results = new ArrayList<>();
        List<SpillRun> partitions = new ArrayList<>();
        try {
            Consumer<VectorSchemaRoot> partition = closing -> {
                int[] parts = partitioning.keyGroups(closing);
                VectorSchemaRoot[] slices = Batches.scatter(closing, parts, FIRE_PARTITIONS, context.allocator());
                try {
                    for (int p = 0; p < FIRE_PARTITIONS; p++) {
                        if (slices[p] != null) {
                            if (writers[p] == null) {
                                writers[p] = context.spillSpace().newRun(stateSchema);
                            }
                            writers[p].write(slices[p]);
                        }
                    }
                }
                finally {
                    Batches.closeAll(Arrays.asList(slices));
                }
            };
            forEachState(state -> {
                List<VectorSchemaRoot> closing = new ArrayList<>();
                try {
                    split(state, watermark, closing, open);
                    closing.forEach(partition);
                }
                finally {
                    Batches.closeAll(closing);
                }
            });
            // one table at a time: the tables share the accumulators, which hold the groups' values
            table.close();
            memory.setHeld(0);
            // the spilled groups: closing ones to the partitions, open ones to a new run
            splitSpilled(watermark, partition);
            for (int p = 0; p < FIRE_PARTITIONS; p++) {
                if (writers[p] != null) {
                    partitions.add(writers[p].finish());
                }
            }
            // each partition's groups merged and written out on their own
            for (SpillRun run : partitions) {
                try (AggregationTable merged = new AggregationTable(context, memory, keyFields, accumulators);
                        SpillRunReader reader = run.open(context.allocator())) {
                    for (VectorSchemaRoot batch = reader.next(); batch != null; batch = reader.next()) {
                        try (VectorSchemaRoot state = batch) {
                            context.checkCancelled();
                            merged.addState(state);
                        }
                    }
                    for (int from = 0; from < merged.groupCount(); from += Batches.TARGET_ROWS) {
                        results.add(merged.output(outputSchema, from, Math.min(Batches.TARGET_ROWS, merged.groupCount() - from)));
                    }
                }
            }
            table = new AggregationTable(context, memory, keyFields, accumulators);
            for (VectorSchemaRoot state : open) {
                table.addState(state);
            }
            memory.setHeld(table.keyBytes());
            return results;
        }
        catch (RuntimeException e) {
            Batches.closeAll(results);
            throw e;
        }
        finally {
            Batches.closeAll(open);
            for (SpillRunWriter writer : writers) {
                if (writer != null) {
                    writer.close();
                }
            }
            partitions.forEach(SpillRun::delete);
        }
    }

    /**
     * Every open group's state rows, spilled ones included, for a checkpoint, batch by batch to
     * {@code consumer}, which must not keep them. The table stays as it is: its groups are copied
     * out a batch at a time.
     */
    public void snapshot(Consumer<VectorSchemaRoot> consumer)
    {
        forEachState(consumer);
        for (SpillRun run : spilled) {
            try (SpillRunReader reader = run.open(context.allocator())) {
                for (VectorSchemaRoot batch = reader.next(); batch != null; batch = reader.next()) {
                    try (VectorSchemaRoot state = batch) {
                        consumer.accept(state);
                    }
                }
            }
        }
    }

    /**
     * Merges the state rows of a {@link LocalWindowAggregation} (this aggregation's state columns,
     * then the input rows of each group); the caller keeps owning the batch. Groups of windows
     * ending at or before {@code watermark} are late: dropped, and their input rows counted.
     */
    public void addLocal(VectorSchemaRoot local, long watermark)
    {
        int rowCount = local.getRowCount();
        int stateColumns = stateSchema.getFields().size();
        TimeStampVector windowEnds = (TimeStampVector) local.getVector(windowEndKey);
        org.apache.arrow.vector.IntVector groupSets = (org.apache.arrow.vector.IntVector) local.getVector(keyColumns.length);
        org.apache.arrow.vector.BigIntVector inputRows = (org.apache.arrow.vector.BigIntVector) local.getVector(stateColumns);
        int[] kept = new int[rowCount];
        int keptCount = 0;
        for (int row = 0; row < rowCount; row++) {
            if (closed(windowEnds.get(row), watermark)) {
                // every input row is in each grouping set once: count it in the first
                if (groupSets.get(row) == 0) {
                    lateRows += inputRows.get(row);
                }
                continue;
            }
            kept[keptCount++] = row;
        }
        if (keptCount == 0) {
            return;
        }
        List<FieldVector> vectors = local.getFieldVectors().subList(0, stateColumns);
        if (keptCount == rowCount) {
            restore(new VectorSchemaRoot(stateSchema.getFields(), vectors, rowCount));
            return;
        }
        try (VectorSchemaRoot onTime = select(new VectorSchemaRoot(stateSchema.getFields(), vectors, rowCount), kept, keptCount)) {
            restore(onTime);
        }
    }

    /** Takes back state rows of a checkpoint ({@link #stateSchema}); the caller keeps owning the batch. */
    public void restore(VectorSchemaRoot state)
    {
        if (!state.getSchema().equals(stateSchema)) {
            // a checkpoint of an older release: its state columns matched to today's by name
            try (VectorSchemaRoot conformed = AggregationTable.conformState(state, stateSchema, context.allocator())) {
                restore(conformed);
            }
            return;
        }
        table.addState(state);
        spillIfShort();
        TimeStampVector windowEnds = (TimeStampVector) state.getVector(windowEndKey);
        for (int row = 0; row < state.getRowCount(); row++) {
            openWindowEnds.add(windowEnds.get(row));
        }
    }

    /** Copies the table's groups as state rows into {@code closing} (window closed by {@code watermark}) and {@code open}. */
    private void splitState(long watermark, List<VectorSchemaRoot> closing, List<VectorSchemaRoot> open)
    {
        forEachState(state -> split(state, watermark, closing, open));
    }

    /** The table's groups as state rows, a batch at a time, to {@code consumer}, which must not keep them; the table stays as it is. */
    private void forEachState(Consumer<VectorSchemaRoot> consumer)
    {
        int groups = table.groupCount();
        int[] ids = new int[Math.min(groups, Batches.TARGET_ROWS)];
        for (int from = 0; from < groups; from += Batches.TARGET_ROWS) {
            int count = Math.min(Batches.TARGET_ROWS, groups - from);
            for (int i = 0; i < count; i++) {
                ids[i] = from + i;
            }
            try (VectorSchemaRoot state = table.state(stateSchema, ids, count)) {
                consumer.accept(state);
            }
        }
    }

    /**
     * Reads every spilled run once: the state rows of windows closed by {@code watermark} go to
     * {@code closing}, which must not keep them; those of windows still open to a new run, which
     * replaces the old ones.
     */
    private void splitSpilled(long watermark, Consumer<VectorSchemaRoot> closing)
    {
        if (spilled.isEmpty()) {
            return;
        }
        List<SpillRun> runs = List.copyOf(spilled);
        spilled.clear();
        try (SpillRunWriter stillOpen = context.spillSpace().newRun(stateSchema)) {
            for (SpillRun run : runs) {
                try (SpillRunReader reader = run.open(context.allocator())) {
                    for (VectorSchemaRoot batch = reader.next(); batch != null; batch = reader.next()) {
                        List<VectorSchemaRoot> closed = new ArrayList<>();
                        List<VectorSchemaRoot> open = new ArrayList<>();
                        try (VectorSchemaRoot state = batch) {
                            context.checkCancelled();
                            split(state, watermark, closed, open);
                            closed.forEach(closing);
                            open.forEach(stillOpen::write);
                        }
                        finally {
                            Batches.closeAll(closed);
                            Batches.closeAll(open);
                        }
                    }
                }
                run.delete();
            }
            SpillRun rest = stillOpen.finish();
            if (rest.rows() > 0) {
                spilled.add(rest);
            }
            else {
                rest.delete();
            }
        }
    }

    /** Copies the state rows of windows closed by {@code watermark} into {@code closing}, the others into {@code open}. */
    private void split(VectorSchemaRoot state, long watermark, List<VectorSchemaRoot> closing, List<VectorSchemaRoot> open)
    {
        int count = state.getRowCount();
        TimeStampVector windowEnds = (TimeStampVector) state.getVector(windowEndKey);
        int[] closed = new int[count];
        int[] kept = new int[count];
        int closedCount = 0;
        int keptCount = 0;
        for (int row = 0; row < count; row++) {
            if (closed(windowEnds.get(row), watermark)) {
                closed[closedCount++] = row;
            }
            else {
                kept[keptCount++] = row;
            }
        }
        if (closedCount > 0) {
            closing.add(select(state, closed, closedCount));
        }
        if (keptCount > 0) {
            open.add(select(state, kept, keptCount));
        }
    }

    private VectorSchemaRoot select(VectorSchemaRoot state, int[] rows, int count)
    {
        FieldVector[] vectors = Batches.allocate(stateSchema, context.allocator(), count);
        try {
            for (int c = 0; c < vectors.length; c++) {
                VectorGather.gather(state.getVector(c), rows, count, vectors[c]);
            }
        }
        catch (RuntimeException e) {
            closeAll(vectors);
            throw e;
        }
        return Batches.root(stateSchema, vectors, count);
    }

    private boolean closed(long windowEnd, long watermark)
    {
        return watermark != NO_WATERMARK && windowEnd <= Math.floorDiv(watermark, microsPerUnit);
    }

    private static void closeAll(FieldVector[] vectors)
    {
        for (FieldVector vector : vectors) {
            if (vector != null) {
                vector.close();
            }
        }
    }

    @Override
    public void close()
    {
        try {
            table.close();
        }
        finally {
            spilled.forEach(SpillRun::delete);
            spilled.clear();
            openWindowEnds.clear();
            memory.close();
        }
    }
}
