package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.sort.RowComparator;
import io.ontul.engine.operator.sort.RowSort;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.window.WindowGroup.Function;

/**
 * Window functions over rows held in memory that contain whole window partitions (all input
 * rows, or one hash partition of them): for each window group sorts row addresses by partition
 * and order keys and computes the group's functions partition by partition into result vectors
 * indexed by sorted position. {@link #compute} once, then {@link #next} until null: the input
 * columns followed by one column per function, in the sort order of the last group.
 * {@link #close} releases the rows, results and reservations.
 */
final class WindowPartitionEvaluation
        implements AutoCloseable
{
    /** Heap per row and window group: the sort order, its scratch, positions, peers, frames. */
    static final long BYTES_PER_ROW_PER_GROUP = 4L * 7;
    /** Heap per row for the (batch, row) address of every row. */
    static final long BYTES_PER_ROW = 8;

    private final OperatorContext context;
    private final MemoryReservation memory;
    private final Schema schema;
    private final int inputColumns;
    private final List<WindowGroup> groups;
    private final List<VectorSchemaRoot> batches;
    private final List<FieldVector> results = new ArrayList<>();
    private final List<int[]> resultPositions = new ArrayList<>();
    private int[] batchIndex;
    private int[] rowIndex;
    private int[] emitOrder;
    private int total;
    private int position;
    private long reserved;

    /** Takes ownership of {@code batches}: they are closed with this evaluation. */
    /** @param memory the window operator's reservation, where sorting and evaluating reserve their arrays */
    WindowPartitionEvaluation(OperatorContext context, MemoryReservation memory, Schema schema, int inputColumns, List<WindowGroup> groups, List<VectorSchemaRoot> batches)
    {
        this.context = requireNonNull(context, "context is null");
        this.memory = requireNonNull(memory, "memory is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.inputColumns = inputColumns;
        this.groups = List.copyOf(groups);
        this.batches = new ArrayList<>(requireNonNull(batches, "batches is null"));
    }

    /** Rows held. */
    int rows()
    {
        long rows = 0;
        for (VectorSchemaRoot batch : batches) {
            rows += batch.getRowCount();
        }
        return Math.toIntExact(rows);
    }

    void compute()
    {
        total = rows();
        reserve(total * BYTES_PER_ROW);
        batchIndex = new int[total];
        rowIndex = new int[total];
        int global = 0;
        for (int b = 0; b < batches.size(); b++) {
            int rows = batches.get(b).getRowCount();
            for (int row = 0; row < rows; row++, global++) {
                batchIndex[global] = b;
                rowIndex[global] = row;
            }
        }
        int[] order = null;
        int resultColumn = inputColumns;
        for (WindowGroup group : groups) {
            order = sort(group);
            int[] positionOf = new int[total];
            for (int p = 0; p < total; p++) {
                positionOf[order[p]] = p;
            }
            resultColumn = evaluate(group, new WindowRows(batches, batchIndex, rowIndex, order), positionOf, resultColumn);
            context.checkCancelled();
        }
        emitOrder = order == null ? identity() : order;
    }

    /** The next batch of results, or null once all rows were returned. */
    VectorSchemaRoot next()
    {
        if (position >= total) {
            return null;
        }
        int count = Math.min(Batches.TARGET_ROWS, total - position);
        FieldVector[] vectors = Batches.allocate(schema, context.allocator(), count);
        try {
            for (int c = 0; c < inputColumns; c++) {
                FieldVector target = vectors[c];
                for (int i = 0; i < count; i++) {
                    int global = emitOrder[position + i];
                    target.copyFromSafe(rowIndex[global], i, batches.get(batchIndex[global]).getVector(c));
                }
            }
            for (int r = 0; r < results.size(); r++) {
                FieldVector target = vectors[inputColumns + r];
                FieldVector source = results.get(r);
                int[] positions = resultPositions.get(r);
                for (int i = 0; i < count; i++) {
                    target.copyFromSafe(positions[emitOrder[position + i]], i, source);
                }
            }
        }
        catch (RuntimeException e) {
            // a batch that could not be filled (out of memory) is dropped; the rows stay for another try or another way
            Batches.closeAll(Arrays.asList(vectors));
            throw e;
        }
        position += count;
        return Batches.root(schema, vectors, count);
    }

    private int[] identity()
    {
        int[] order = new int[total];
        for (int i = 0; i < total; i++) {
            order[i] = i;
        }
        return order;
    }

    private void reserve(long bytes)
    {
        memory.grow(bytes);
        reserved += bytes;
    }

    private int[] sort(WindowGroup group)
    {
        reserve(total * BYTES_PER_ROW_PER_GROUP);
        List<SortKey> keys = new ArrayList<>(partitionKeys(group));
        keys.addAll(group.orderKeys());
        if (keys.isEmpty()) {
            return identity();
        }
        // the sort's digits, given back once sorted
        long digits = total * RowSort.digitBytesPerRow();
        reserve(digits);
        int[] order = RowSort.sort(batches, keys, batchIndex, rowIndex);
        memory.shrink(digits);
        reserved -= digits;
        return order;
    }

    private int evaluate(WindowGroup group, WindowRows rows, int[] positionOf, int firstColumn)
    {
        List<Function> functions = group.functions();
        FieldVector[] outputs = new FieldVector[functions.size()];
        for (int f = 0; f < outputs.length; f++) {
            outputs[f] = schema.getFields().get(firstColumn + f).createVector(context.allocator());
            results.add(outputs[f]);
            resultPositions.add(positionOf);
            Batches.allocate(outputs[f], total);
        }
        boolean framed = functions.stream().anyMatch(WindowFunctions::usesFrame);
        int[] peerStart = new int[total];
        int[] peerEnd = new int[total];
        int[] frameStart = framed ? new int[total] : null;
        int[] frameEnd = framed ? new int[total] : null;
        RowComparator partitionComparator = RowComparator.overFixedBatches(batches, partitionKeys(group));
        RowComparator orderComparator = RowComparator.overFixedBatches(batches, group.orderKeys());
        int start = 0;
        while (start < total) {
            int end = start + 1;
            while (end < total && partitionComparator.compare(batchIndex[rows.global(end - 1)], rowIndex[rows.global(end - 1)], batchIndex[rows.global(end)], rowIndex[rows.global(end)]) == 0) {
                end++;
            }
            int peer = start;
            for (int p = start; p < end; p++) {
                if (p > start && orderComparator.compare(batchIndex[rows.global(p - 1)], rowIndex[rows.global(p - 1)], batchIndex[rows.global(p)], rowIndex[rows.global(p)]) != 0) {
                    for (int q = peer; q < p; q++) {
                        peerEnd[q] = p;
                    }
                    peer = p;
                }
                peerStart[p] = peer;
            }
            for (int q = peer; q < end; q++) {
                peerEnd[q] = end;
            }
            if (framed) {
                WindowFrames.compute(group, rows, start, end, peerStart, peerEnd, frameStart, frameEnd);
            }
            WindowFunctions partition = new WindowFunctions(rows, start, end, peerStart, peerEnd, frameStart, frameEnd);
            for (int f = 0; f < outputs.length; f++) {
                partition.evaluate(functions.get(f), outputs[f]);
            }
            start = end;
        }
        for (FieldVector output : outputs) {
            output.setValueCount(total);
        }
        return firstColumn + outputs.length;
    }

    private static List<SortKey> partitionKeys(WindowGroup group)
    {
        List<SortKey> keys = new ArrayList<>();
        for (int column : group.partitionColumns()) {
            keys.add(new SortKey(column, false, false));
        }
        return keys;
    }

    /** Whether {@link #next} has returned a batch. */
    boolean emitted()
    {
        return position > 0;
    }

    /** Gives the input batches back to the caller (after {@link #compute} or the first {@link #next} failed) and frees everything else. */
    List<VectorSchemaRoot> releaseInput()
    {
        List<VectorSchemaRoot> input = new ArrayList<>(batches);
        batches.clear();
        close();
        return input;
    }

    @Override
    public void close()
    {
        try {
            Batches.closeAll(batches);
        }
        finally {
            batches.clear();
            try {
                Batches.closeAll(results);
            }
            finally {
                results.clear();
                memory.shrink(reserved);
                reserved = 0;
            }
        }
    }
}
