package io.ontul.engine.operator;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

import io.ontul.engine.execution.QueryContext;
import io.ontul.engine.operator.aggregate.Accumulator;

/**
 * Hash aggregation with grouping sets. Consumes its whole input, assigning each row a group
 * per grouping set ({@link GroupByHash}) and feeding the accumulators column by column; then
 * emits groups in batches of {@link Batches#TARGET_ROWS}. Output: group keys (NULL where a
 * grouping set leaves a key out), then one column per aggregate.
 */
public final class HashAggregateOperator
        implements Operator
{
    private final QueryContext context;
    private final Operator child;
    private final Schema outputSchema;
    private final int[] keyColumns;
    private final boolean[][] groupSetMembership;
    private final List<Accumulator> accumulators;
    private final int[] filterColumns;
    private final OperatorStats stats;
    private GroupByHash hash;
    private int emitted;
    private boolean finished;
    private long reservedForAccumulators;

    public HashAggregateOperator(QueryContext context, Operator child, Schema outputSchema, int[] keyColumns, boolean[][] groupSetMembership,
            List<Accumulator> accumulators, int[] filterColumns, OperatorStats stats)
    {
        this.context = context;
        this.child = child;
        this.outputSchema = outputSchema;
        this.keyColumns = keyColumns;
        this.groupSetMembership = groupSetMembership;
        this.accumulators = accumulators;
        this.filterColumns = filterColumns;
        this.stats = stats;
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (hash == null) {
            consumeInput();
        }
        int groups = hash.groupCount();
        if (emitted >= groups) {
            return null;
        }
        int count = Math.min(Batches.TARGET_ROWS, groups - emitted);
        List<Field> fields = outputSchema.getFields();
        FieldVector[] outputs = new FieldVector[fields.size()];
        try {
            for (int k = 0; k < keyColumns.length; k++) {
                TransferPair transfer = hash.keys()[k].getTransferPair(context.allocator());
                transfer.splitAndTransfer(emitted, count);
                FieldVector key = (FieldVector) transfer.getTo();
                outputs[k] = key;
            }
            for (int a = 0; a < accumulators.size(); a++) {
                FieldVector out = fields.get(keyColumns.length + a).createVector(context.allocator());
                Batches.allocate(out, count);
                outputs[keyColumns.length + a] = out;
                accumulators.get(a).write(out, emitted, count, hash::groupSet);
            }
        }
        catch (RuntimeException e) {
            for (FieldVector output : outputs) {
                if (output != null) {
                    output.close();
                }
            }
            throw e;
        }
        emitted += count;
        return Batches.root(outputSchema, outputs, count);
    }

    private void consumeInput()
    {
        List<Field> keyFields = new ArrayList<>();
        for (int k = 0; k < keyColumns.length; k++) {
            keyFields.add(outputSchema.getFields().get(k));
        }
        hash = new GroupByHash(context, keyFields);
        boolean[][] nulled = new boolean[groupSetMembership.length][keyColumns.length];
        for (int set = 0; set < groupSetMembership.length; set++) {
            for (int k = 0; k < keyColumns.length; k++) {
                nulled[set][k] = !groupSetMembership[set][k];
            }
        }
        int[] groupIds = new int[0];
        while (true) {
            VectorSchemaRoot next = child.next();
            if (next == null) {
                break;
            }
            try (VectorSchemaRoot batch = next) {
                context.checkCancelled();
                int rowCount = batch.getRowCount();
                if (groupIds.length < rowCount) {
                    groupIds = new int[rowCount];
                }
                FieldVector[] columns = batch.getFieldVectors().toArray(new FieldVector[0]);
                FieldVector[] keys = new FieldVector[keyColumns.length];
                for (int k = 0; k < keyColumns.length; k++) {
                    keys[k] = columns[keyColumns[k]];
                }
                for (int set = 0; set < groupSetMembership.length; set++) {
                    hash.groupIds(keys, nulled[set], set, rowCount, groupIds);
                    growAccumulators(hash.groupCount());
                    for (int a = 0; a < accumulators.size(); a++) {
                        accumulators.get(a).add(columns, groupIds, rowCount, selection(columns, filterColumns[a], rowCount));
                    }
                }
            }
        }
        // a grouping set without keys produces one row even for empty input
        for (int set = 0; set < groupSetMembership.length; set++) {
            boolean empty = true;
            for (boolean member : groupSetMembership[set]) {
                empty &= !member;
            }
            if (empty) {
                hash.emptyKeyGroup(set, nulled[set]);
            }
        }
        growAccumulators(hash.groupCount());
        hash.seal();
        stats.recordMemory(hash.memoryBytes() + reservedForAccumulators);
    }

    private void growAccumulators(int groupCount)
    {
        long needed = 0;
        for (Accumulator accumulator : accumulators) {
            needed += (long) accumulator.bytesPerGroup() * groupCount;
        }
        if (needed > reservedForAccumulators) {
            long more = Math.max(needed - reservedForAccumulators, needed / 2);
            context.reserve(more);
            reservedForAccumulators += more;
        }
        for (Accumulator accumulator : accumulators) {
            accumulator.ensureCapacity(groupCount);
        }
    }

    private static boolean[] selection(FieldVector[] columns, int filterColumn, int rowCount)
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

    @Override
    public void close()
    {
        if (hash != null) {
            hash.close();
        }
        context.release(reservedForAccumulators);
        reservedForAccumulators = 0;
        child.close();
    }
}
