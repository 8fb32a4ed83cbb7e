package io.ontul.engine.operator.sort;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.engine.operator.VectorGather;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunWriter;

/**
 * ORDER BY with optional OFFSET/LIMIT (top-N): collects all input batches, sorts row addresses
 * ({@link RowSort}), and emits rows in order in batches. With a limit only the first
 * {@code offset + limit} rows are emitted.
 *
 * <p>When its memory pool asks it to spill ({@link MemoryReservation#shouldSpill}), or refuses the
 * memory sorting more rows takes, the rows held so far are sorted and written out as a spill run; at the end all runs are merged
 * ({@link SortedRunMerger}). Each row held is charged to the query for the heap arrays sorting it
 * takes ({@link #SORT_BYTES_PER_ROW}), so narrow rows spill before those arrays outgrow the rows.
 */
public final class SortOperator
        implements Operator
{
    private final OperatorContext context;
    private final MemoryReservation memory;
    private final Operator child;
    private final Schema schema;
    private final List<SortKey> keys;
    private final long offset;
    private final long limit;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private int[] batchOf;
    private int[] rowOf;
    private VectorGather.Column[] columns;
    private int position;
    private int end;
    private long reserved;
    private final OperatorStats stats;
    private final List<SpillRun> runs = new ArrayList<>();
    private SortedRunMerger merger;
    private long heldBytes;
    private long averageRowBytes;
    private int spillBatchRows;

    /**
     * Heap bytes sorting takes per row, reserved while the row is held: its address (batch and
     * row, kept in sort order for the output) and, while sorting, the addresses in input order
     * and what {@link RowSort} takes.
     */
    static final long SORT_BYTES_PER_ROW = 2 * Integer.BYTES + RowSort.bytesPerRow() + 2 * Integer.BYTES;

    public SortOperator(OperatorContext context, Operator child, Schema schema, List<SortKey> keys, long offset, long limit, OperatorStats stats)
    {
        this.stats = stats;
        this.context = context;
        this.child = child;
        this.schema = schema;
        this.keys = List.copyOf(keys);
        this.offset = offset;
        this.limit = limit;
        this.memory = context.memoryReservation("Sort", true);
        memory.setMinimumSpill(context.memoryLimit() / 8);
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (batchOf == null && merger == null) {
            sort();
        }
        if (merger != null) {
            return merger.next();
        }
        if (position >= end) {
            return null;
        }
        int count = Math.min(Batches.TARGET_ROWS, end - position);
        VectorSchemaRoot batch = gather(columns, batchOf, rowOf, position, count);
        position += count;
        return batch;
    }

    /** Each column of the held batches, for {@link #gather}. */
    private VectorGather.Column[] columns()
    {
        VectorGather.Column[] columns = new VectorGather.Column[schema.getFields().size()];
        for (int c = 0; c < columns.length; c++) {
            int column = c;
            columns[c] = new VectorGather.Column(batches.stream().map(batch -> batch.getVector(column)).toList());
        }
        return columns;
    }

    /** A batch of the held rows at addresses {@code from} to {@code from + count} of {@code (batchOf, rowOf)}. */
    private VectorSchemaRoot gather(VectorGather.Column[] columns, int[] batchOf, int[] rowOf, int from, int count)
    {
        FieldVector[] vectors = Batches.allocate(schema, context.allocator(), count);
        for (int c = 0; c < vectors.length; c++) {
            VectorGather.gather(columns[c], batchOf, rowOf, from, count, vectors[c], 0);
        }
        return Batches.root(schema, vectors, count);
    }

    private void sort()
    {
        long keep = limit > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + limit;
        // top-N: when the input grows well past the rows that can be returned, keep only the best
        long compactAt = keep <= 1_000_000 ? Math.max(4 * keep, 16 * 1024) : Long.MAX_VALUE;
        VectorSchemaRoot batch;
        long total = 0;
        while ((batch = child.next()) != null) {
            batches.add(batch);
            total += batch.getRowCount();
            for (FieldVector vector : batch.getFieldVectors()) {
                heldBytes += vector.getBufferSize();
            }
            memory.setHeld(heldBytes);
            context.checkCancelled();
            if (!reserveSortBytes(batch.getRowCount())) {
                // the arrays to sort what is held do not fit: write it out now (the arrays exist only while it is written)
                spill((int) total);
                total = 0;
            }
            else if (total > compactAt) {
                total = compact((int) keep);
            }
            else if (heldBytes + reserved > context.memoryLimit() / 8 && (memory.shouldSpill() || holdsHalfTheBudget())) {
                spill((int) total);
                total = 0;
            }
        }
        // the input is in: what is held now is emitted (or merged), never spilled again
        memory.setSpillable(false);
        if (!runs.isEmpty()) {
            if (total > 0) {
                spill((int) total);
            }
            long runBatchBytes = Math.max(1, spillBatchRows * averageRowBytes);
            int fanIn = (int) Math.max(2, Math.min(SortedRunMerger.MAX_FAN_IN, context.memoryLimit() / 4 / runBatchBytes));
            // merged batches as small as the runs' under a small budget: the merge holds one of each besides
            merger = new SortedRunMerger(context.spillSpace(), context.allocator(), schema, keys, runs, fanIn, spillBatchRows, spillBatchRows, offset, limit);
            runs.clear();
            return;
        }
        int rows = (int) total;
        int[][] sorted = sortedAddresses(rows);
        // the addresses in sort order are kept; what only sorting took is given back
        long sorting = reserved - rows * 2L * Integer.BYTES;
        memory.shrink(sorting);
        reserved -= sorting;
        batchOf = sorted[0];
        rowOf = sorted[1];
        columns = columns();
        long bytes = reserved;
        for (VectorSchemaRoot held : batches) {
            for (FieldVector vector : held.getFieldVectors()) {
                bytes += vector.getBufferSize();
            }
        }
        stats.recordMemory(bytes);
        position = (int) Math.min(offset, rows);
        end = (int) Math.min(rows, keep);
    }

    /**
     * Charges the query for sorting {@code rows} more held rows ({@link #SORT_BYTES_PER_ROW}).
     * False, charging nothing, when that would take the query past its limit and the rows held
     * can be spilled instead; past the limit without spilling, the memory-limit error.
     */
    private boolean reserveSortBytes(int rows)
    {
        long bytes = rows * SORT_BYTES_PER_ROW;
        if (context.canSpill()) {
            if (!memory.tryGrow(bytes)) {
                return false;
            }
        }
        else {
            memory.grow(bytes);
        }
        reserved += bytes;
        return true;
    }

    /**
     * Whether the rows held alone are over half the query's budget. The query's allocator does not
     * see batches that share a memory table's buffers, so without this a sort over a memory table
     * would keep the whole table whatever the budget.
     */
    private boolean holdsHalfTheBudget()
    {
        return context.canSpill() && heldBytes + reserved > context.memoryLimit() / 2;
    }

    /** Sorts the rows held and writes them out as one spill run, freeing their memory. */
    private void spill(int rows)
    {
        // small batches in runs: the merge holds one batch of every run it reads at once
        averageRowBytes = Math.max(1, heldBytes / Math.max(1, rows));
        spillBatchRows = (int) Math.max(1024, Math.min(Batches.TARGET_ROWS, context.memoryLimit() / 64 / averageRowBytes));
        int[][] sorted = sortedAddresses(rows);
        VectorGather.Column[] heldColumns = columns();
        try (SpillRunWriter writer = context.spillSpace().newRun(schema)) {
            for (int from = 0; from < rows; from += spillBatchRows) {
                int count = Math.min(spillBatchRows, rows - from);
                try (VectorSchemaRoot batch = gather(heldColumns, sorted[0], sorted[1], from, count)) {
                    writer.write(batch);
                }
                context.checkCancelled();
            }
            SpillRun run = writer.finish();
            runs.add(run);
            stats.recordSpill(run.bytes());
        }
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
        heldBytes = 0;
        memory.setHeld(0);
        memory.shrink(reserved);
        reserved = 0;
    }

    /** Sorts what is held and keeps only its first {@code keep} rows, in one batch. */
    private long compact(int keep)
    {
        int rows = batches.stream().mapToInt(VectorSchemaRoot::getRowCount).sum();
        int[][] sorted = sortedAddresses(rows);
        int count = Math.min(keep, rows);
        VectorSchemaRoot best = gather(columns(), sorted[0], sorted[1], 0, count);
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
        batches.add(best);
        heldBytes = 0;
        for (FieldVector vector : best.getFieldVectors()) {
            heldBytes += vector.getBufferSize();
        }
        memory.setHeld(heldBytes);
        long dropped = (rows - count) * SORT_BYTES_PER_ROW;
        memory.shrink(dropped);
        reserved -= dropped;
        return count;
    }

    /** (batch, row) of every held row, in sort order. */
    private int[][] sortedAddresses(int total)
    {
        int[] batchIndex = new int[total];
        int[] rowIndex = new int[total];
        int global = 0;
        for (int b = 0; b < batches.size(); b++) {
            int rows = batches.get(b).getRowCount();
            for (int row = 0; row < rows; row++, global++) {
                batchIndex[global] = b;
                rowIndex[global] = row;
            }
        }
        int[] order = RowSort.sort(batches, keys, batchIndex, rowIndex);
        int[] sortedBatch = new int[total];
        int[] sortedRow = new int[total];
        for (int i = 0; i < total; i++) {
            sortedBatch[i] = batchIndex[order[i]];
            sortedRow[i] = rowIndex[order[i]];
        }
        return new int[][] {sortedBatch, sortedRow};
    }

    interface IntComparator
    {
        int compare(int a, int b);
    }

    static void mergeSort(int[] values, int[] scratch, int from, int to, IntComparator comparator)
    {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                int value = values[i];
                int j = i - 1;
                while (j >= from && comparator.compare(values[j], value) > 0) {
                    values[j + 1] = values[j];
                    j--;
                }
                values[j + 1] = value;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(values, scratch, from, middle, comparator);
        mergeSort(values, scratch, middle, to, comparator);
        if (comparator.compare(values[middle - 1], values[middle]) <= 0) {
            return;
        }
        System.arraycopy(values, from, scratch, from, to - from);
        int left = from;
        int right = middle;
        for (int i = from; i < to; i++) {
            if (right >= to || (left < middle && comparator.compare(scratch[left], scratch[right]) <= 0)) {
                values[i] = scratch[left++];
            }
            else {
                values[i] = scratch[right++];
            }
        }
    }

    @Override
    public void close()
    {
        try {
            batches.forEach(VectorSchemaRoot::close);
            batches.clear();
            if (merger != null) {
                merger.close();
            }
            runs.forEach(SpillRun::delete);
            runs.clear();
        }
        finally {
            memory.close();
            reserved = 0;
            child.close();
        }
    }
}
