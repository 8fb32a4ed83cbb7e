package io.ontul.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.OperatorContext;

/**
 * The groups of a hash aggregation held in memory: a {@link GroupByHash} and the accumulators.
 * Rows come in as input rows ({@link #addInput}: keys and arguments, once per grouping set) or
 * as state rows ({@link #addState}: groups written by {@link #state}, read back from a spill);
 * groups go out as result rows ({@link #output}) or as state rows. A state row holds the group's
 * keys (NULL where its grouping set leaves a key out), its grouping set index, then each
 * accumulator's state columns ({@link #stateSchema}).
 * <p>
 * The accumulators belong to one table at a time: closing the table resets them for the next.
 * Once {@link #output} or {@link #state} was called, no more rows may be added.
 */
public final class AggregationTable
        implements AutoCloseable
{
    private final OperatorContext context;
    private final MemoryReservation memory;
    private final List<Accumulator> accumulators;
    private final int[] stateColumns;
    private final GroupByHash hash;
    private long reservedForAccumulators;
    private int[] groupIds = new int[0];
    private boolean sealed;

    /** @param memory the owning operator's reservation, where the table's hash and accumulator arrays are reserved */
    public AggregationTable(OperatorContext context, MemoryReservation memory, List<Field> keyFields, List<Accumulator> accumulators)
    {
        this.context = requireNonNull(context, "context is null");
        this.memory = requireNonNull(memory, "memory is null");
        this.accumulators = List.copyOf(accumulators);
        this.stateColumns = new int[accumulators.size()];
        int column = keyFields.size() + 1;
        for (int a = 0; a < accumulators.size(); a++) {
            stateColumns[a] = column;
            column += accumulators.get(a).stateFields().size();
        }
        this.hash = new GroupByHash(context, memory, keyFields);
    }

    /** The columns of state rows: keys, grouping set index, accumulator states, all nullable. */
    public static Schema stateSchema(List<Field> keyFields, List<Accumulator> accumulators)
    {
        List<Field> fields = new ArrayList<>();
        for (int k = 0; k < keyFields.size(); k++) {
            Field key = keyFields.get(k);
            fields.add(new Field("key" + k, FieldType.nullable(key.getType()), key.getChildren()));
        }
        fields.add(Field.nullable("group_set", new ArrowType.Int(32, true)));
        for (int a = 0; a < accumulators.size(); a++) {
            List<Field> state = accumulators.get(a).stateFields();
            for (int i = 0; i < state.size(); i++) {
                fields.add(new Field("state" + a + "_" + i, state.get(i).getFieldType(), state.get(i).getChildren()));
            }
        }
        return new Schema(fields);
    }

    /**
     * State rows of an older release in the columns of {@code expected}, matched by name: a state
     * column added since (the high words of 128-bit sums, {@code state<a>_<i>}) is NULL, which the
     * accumulators read as no high part. Checkpoints of streaming jobs hold such rows. The vectors
     * of {@code state} are transferred into the result; the caller closes both.
     */
    public static VectorSchemaRoot conformState(VectorSchemaRoot state, Schema expected, org.apache.arrow.memory.BufferAllocator allocator)
    {
        int rows = state.getRowCount();
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (Field field : expected.getFields()) {
                FieldVector source = state.getVector(field.getName());
                FieldVector target = field.createVector(allocator);
                vectors.add(target);
                if (source != null) {
                    TransferPair transfer = source.makeTransferPair(target);
                    transfer.transfer();
                }
                else {
                    Batches.allocate(target, rows);
                    for (int row = 0; row < rows; row++) {
                        target.setNull(row);
                    }
                    target.setValueCount(rows);
                }
            }
        }
        catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(expected.getFields(), vectors, rows);
    }

    /**
     * Adds input rows to the group of their key in every grouping set.
     *
     * @param nulled for each grouping set, the keys it leaves out
     * @param filterColumns for each accumulator, its FILTER column or -1
     */
    public void addInput(FieldVector[] columns, int[] keyColumns, boolean[][] nulled, int[] filterColumns, int rowCount)
    {
        ensureGroupIds(rowCount);
        FieldVector[] keys = new FieldVector[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            keys[k] = columns[keyColumns[k]];
        }
        boolean[][] selections = new boolean[accumulators.size()][];
        for (int a = 0; a < accumulators.size(); a++) {
            selections[a] = selection(columns, filterColumns[a], rowCount);
        }
        for (int set = 0; set < nulled.length; set++) {
            hash.groupIds(keys, nulled[set], set, rowCount, groupIds);
            growAccumulators();
            for (int a = 0; a < accumulators.size(); a++) {
                accumulators.get(a).add(columns, groupIds, rowCount, selections[a]);
            }
        }
    }

    /** Merges state rows (of {@link #stateSchema}) into their groups. */
    public void addState(VectorSchemaRoot batch)
    {
        int rowCount = batch.getRowCount();
        ensureGroupIds(rowCount);
        FieldVector[] columns = batch.getFieldVectors().toArray(new FieldVector[0]);
        int keyCount = hash.keys().length;
        FieldVector[] keys = new FieldVector[keyCount];
        System.arraycopy(columns, 0, keys, 0, keyCount);
        int[] groupSets = new int[rowCount];
        var sets = ((IntVector) columns[keyCount]).getDataBuffer();
        for (int row = 0; row < rowCount; row++) {
            groupSets[row] = sets.getInt((long) row * IntVector.TYPE_WIDTH);
        }
        hash.groupIds(keys, groupSets, rowCount, groupIds);
        growAccumulators();
        for (int a = 0; a < accumulators.size(); a++) {
            accumulators.get(a).mergeState(columns, stateColumns[a], groupIds, rowCount);
        }
    }

    /** Creates the one group of each grouping set without keys, so it has a row even for empty input. */
    void addEmptyKeyGroups(boolean[][] nulled)
    {
        for (int set = 0; set < nulled.length; set++) {
            boolean empty = true;
            for (boolean left : nulled[set]) {
                empty &= left;
            }
            if (empty) {
                hash.emptyKeyGroup(set, nulled[set]);
            }
        }
        growAccumulators();
    }

    public int groupCount()
    {
        return hash.groupCount();
    }

    /** Memory the table holds: hash table, keys and accumulator reservations. */
    public long heldBytes()
    {
        return hash.memoryBytes() + reservedForAccumulators;
    }

    /** The Arrow part of {@link #heldBytes}: the key vectors (the rest is reserved heap). */
    public long keyBytes()
    {
        return hash.keyBytes();
    }

    long groupHash(int group)
    {
        return hash.groupHash(group);
    }

    /** Result rows of groups {@code [from, from + count)}: keys, then each aggregate's value. */
    public VectorSchemaRoot output(Schema schema, int from, int count)
    {
        seal();
        int keyCount = hash.keys().length;
        List<Field> fields = schema.getFields();
        FieldVector[] outputs = new FieldVector[fields.size()];
        try {
            for (int k = 0; k < keyCount; k++) {
                TransferPair transfer = hash.keys()[k].getTransferPair(context.allocator());
                transfer.splitAndTransfer(from, count);
                outputs[k] = (FieldVector) transfer.getTo();
            }
            for (int a = 0; a < accumulators.size(); a++) {
                FieldVector out = fields.get(keyCount + a).createVector(context.allocator());
                outputs[keyCount + a] = out;
                Batches.allocate(out, count);
                accumulators.get(a).write(out, from, count, hash::groupSet);
            }
        }
        catch (RuntimeException e) {
            closeAll(outputs);
            throw e;
        }
        return Batches.root(schema, outputs, count);
    }

    /** State rows (of {@code stateSchema}) of the groups {@code groups[0..count)}, copied: the table may take more rows after. */
    public VectorSchemaRoot state(Schema stateSchema, int[] groups, int count)
    {
        hash.seal();
        FieldVector[] outputs = Batches.allocate(stateSchema, context.allocator(), count);
        try {
            FieldVector[] keys = hash.keys();
            for (int k = 0; k < keys.length; k++) {
                for (int i = 0; i < count; i++) {
                    outputs[k].copyFromSafe(groups[i], i, keys[k]);
                }
            }
            IntVector sets = (IntVector) outputs[keys.length];
            for (int i = 0; i < count; i++) {
                sets.set(i, hash.groupSet(groups[i]));
            }
            for (int a = 0; a < accumulators.size(); a++) {
                accumulators.get(a).writeState(outputs, stateColumns[a], groups, count);
            }
        }
        catch (RuntimeException e) {
            closeAll(outputs);
            throw e;
        }
        return Batches.root(stateSchema, outputs, count);
    }

    private void seal()
    {
        if (!sealed) {
            hash.seal();
            sealed = true;
        }
    }

    private void ensureGroupIds(int rowCount)
    {
        if (sealed) {
            throw new IllegalStateException("rows added to a sealed aggregation table");
        }
        if (groupIds.length < rowCount) {
            groupIds = new int[rowCount];
        }
    }

    private void growAccumulators()
    {
        int groupCount = hash.groupCount();
        long needed = 0;
        for (Accumulator accumulator : accumulators) {
            needed += accumulator.heldBytes(groupCount);
        }
        if (needed > reservedForAccumulators) {
            long more = Math.max(needed - reservedForAccumulators, needed / 2);
            memory.grow(more);
            reservedForAccumulators += more;
        }
        for (Accumulator accumulator : accumulators) {
            accumulator.ensureCapacity(groupCount);
        }
    }

    /** The rows whose FILTER column is true, or null when there is no FILTER column. */
    static boolean[] selection(FieldVector[] columns, int filterColumn, int rowCount)
    {
        if (filterColumn < 0) {
            return null;
        }
        BitVector filter = (BitVector) columns[filterColumn];
        boolean[] selected = new boolean[rowCount];
        for (int row = 0; row < rowCount; row++) {
            selected[row] = !filter.isNull(row) && filter.get(row) != 0;
        }
        return selected;
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
            hash.close();
        }
        finally {
            memory.shrink(reservedForAccumulators);
            reservedForAccumulators = 0;
            accumulators.forEach(Accumulator::reset);
        }
    }
}
