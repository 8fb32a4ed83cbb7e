package io.ontul.engine.operator.sort;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.VectorGather;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunReader;
import io.ontul.exchange.spill.SpillRunWriter;
import io.ontul.exchange.spill.SpillSpace;

/**
 * The second phase of an external sort: merges sorted spill runs into one sorted stream of
 * batches. At most {@value #MAX_FAN_IN} runs are read at once, each holding one batch in memory;
 * with more runs, groups of them are first merged into longer runs. Rows that compare equal
 * come out in run order, so a stable sort stays stable. Every run is deleted once read. The
 * caller chooses the fan-in so that one batch of each run fits its memory.
 */
final class SortedRunMerger
        implements AutoCloseable
{
    static final int MAX_FAN_IN = 64;

    private final BufferAllocator allocator;
    private final Schema schema;
    private final List<SortKey> keys;
    private final List<SpillRunReader> readers = new ArrayList<>();
    private final List<SpillRun> open = new ArrayList<>();
    private final List<VectorSchemaRoot> current = new ArrayList<>();
    private final int fanIn;
    private final int runBatchRows;
    private final int outputRows;
    private final int[] position;
    private final int[] heap;
    private final RowComparator comparator;
    // the first key's first digit (RowSort) at each source's position, when it has one and is not NULL
    private final long[] leadingDigit;
    private final boolean[] hasLeadingDigit;
    // how the first key's digits are read from each source's current batch (RowSort.digitKind), null without digits
    private final RowSort.Kind[] leadingKind;
    // each column of the sources' current batches
    private final VectorGather.Column[] columns;
    // rows taken from the sources but not yet copied to the output (source, row)
    private final int[] pendingSource;
    private final int[] pendingRow;
    private int pendingCount;
    private FieldVector[] output;
    private int outputCount;
    private int heapSize;
    private long toSkip;
    private long remaining;

    /**
     * @param fanIn how many runs to read at once
     * @param runBatchRows rows per batch of the longer runs written when there are more than
     *        {@code fanIn} runs
     * @param outputRows rows per batch returned by {@link #next}
     * @param skip rows to drop from the front of the merged stream (OFFSET)
     * @param limit rows to return after them
     */
    SortedRunMerger(SpillSpace space, BufferAllocator allocator, Schema schema, List<SortKey> keys, List<SpillRun> runs, int fanIn, int runBatchRows, int outputRows, long skip, long limit)
    {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = List.copyOf(keys);
        this.toSkip = skip;
        this.remaining = limit;
        this.fanIn = fanIn;
        this.runBatchRows = runBatchRows;
        this.outputRows = outputRows;
        List<SpillRun> pending = new ArrayList<>(runs);
        while (pending.size() > fanIn) {
            List<SpillRun> next = new ArrayList<>();
            for (int from = 0; from < pending.size(); from += fanIn) {
                List<SpillRun> group = pending.subList(from, Math.min(pending.size(), from + fanIn));
                next.add(group.size() == 1 ? group.get(0) : mergeToRun(space, group));
            }
            pending = next;
        }
        this.position = new int[pending.size()];
        this.heap = new int[pending.size()];
        this.comparator = new RowComparator(current, this.keys);
        this.leadingDigit = new long[pending.size()];
        this.leadingKind = new RowSort.Kind[pending.size()];
        this.hasLeadingDigit = new boolean[pending.size()];
        this.columns = new VectorGather.Column[schema.getFields().size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = new VectorGather.Column(pending.size());
        }
        this.pendingSource = new int[outputRows];
        this.pendingRow = new int[outputRows];
        try {
            for (SpillRun run : pending) {
                open.add(run);
                readers.add(run.open(allocator));
                current.add(null);
            }
            for (int source = 0; source < readers.size(); source++) {
                if (advanceBatch(source)) {
                    push(source);
                }
            }
        }
        catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private SpillRun mergeToRun(SpillSpace space, List<SpillRun> group)
    {
        try (SortedRunMerger merger = new SortedRunMerger(space, allocator, schema, keys, group, fanIn, runBatchRows, runBatchRows, 0, Long.MAX_VALUE);
                SpillRunWriter writer = space.newRun(schema)) {
            VectorSchemaRoot batch;
            while ((batch = merger.next()) != null) {
                try (VectorSchemaRoot written = batch) {
                    writer.write(written);
                }
            }
            return writer.finish();
        }
    }

    /** The next batch of merged rows, or null when all runs are exhausted (or the limit is met). */
    VectorSchemaRoot next()
    {
        while (toSkip > 0 && heapSize > 0) {
            pop();
            toSkip--;
        }
        if (heapSize == 0 || remaining <= 0) {
            return null;
        }
        int capacity = (int) Math.min(outputRows, remaining);
        FieldVector[] vectors = Batches.allocate(schema, allocator, capacity);
        output = vectors;
        outputCount = 0;
        try {
            while (outputCount + pendingCount < capacity && heapSize > 0) {
                int source = heap[0];
                pendingSource[pendingCount] = source;
                pendingRow[pendingCount] = position[source];
                pendingCount++;
                pop();
            }
            copyPending();
        }
        catch (RuntimeException e) {
            for (FieldVector vector : vectors) {
                vector.close();
            }
            throw e;
        }
        finally {
            output = null;
            pendingCount = 0;
        }
        int count = outputCount;
        remaining -= count;
        return Batches.root(schema, vectors, count);
    }

    /** Copies the rows taken so far into the output batch: before a source's batch is closed, and at the end of the batch. */
    private void copyPending()
    {
        if (output == null || pendingCount == 0) {
            return;
        }
        for (int c = 0; c < output.length; c++) {
            VectorGather.gather(columns[c], pendingSource, pendingRow, 0, pendingCount, output[c], outputCount);
        }
        outputCount += pendingCount;
        pendingCount = 0;
    }

    /** Removes the smallest row: advances its source and restores the heap. */
    private void pop()
    {
        int source = heap[0];
        position[source]++;
        if (position[source] >= current.get(source).getRowCount()) {
            // rows taken from the batch are copied before it is closed
            copyPending();
            if (!advanceBatch(source)) {
                heap[0] = heap[--heapSize];
            }
        }
        else {
            readLeadingDigit(source);
        }
        siftDown(0);
    }

    /** Loads the next non-empty batch of {@code source}; false at the end of its run. */
    private boolean advanceBatch(int source)
    {
        VectorSchemaRoot previous = current.get(source);
        if (previous != null) {
            previous.close();
            current.set(source, null);
        }
        VectorSchemaRoot batch;
        while ((batch = readers.get(source).next()) != null) {
            if (batch.getRowCount() > 0) {
                current.set(source, batch);
                position[source] = 0;
                for (int c = 0; c < columns.length; c++) {
                    columns[c].set(source, batch.getVector(c));
                }
                leadingKind[source] = keys.isEmpty() ? null : RowSort.digitKind(batch.getVector(keys.get(0).column()));
                readLeadingDigit(source);
                return true;
            }
            batch.close();
        }
        return false;
    }

    private void push(int source)
    {
        heap[heapSize] = source;
        int index = heapSize++;
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            if (!less(heap[index], heap[parent])) {
                break;
            }
            swap(index, parent);
            index = parent;
        }
    }

    private void siftDown(int index)
    {
        while (true) {
            int left = 2 * index + 1;
            if (left >= heapSize) {
                return;
            }
            int smallest = left + 1 < heapSize && less(heap[left + 1], heap[left]) ? left + 1 : left;
            if (!less(heap[smallest], heap[index])) {
                return;
            }
            swap(index, smallest);
            index = smallest;
        }
    }

    /** Row order, ties broken by run order so that equal rows keep their input order. */
    private boolean less(int a, int b)
    {
        if (hasLeadingDigit[a] && hasLeadingDigit[b] && leadingDigit[a] != leadingDigit[b]) {
            return Long.compareUnsigned(leadingDigit[a], leadingDigit[b]) < 0;
        }
        int result = comparator.compare(a, position[a], b, position[b]);
        return result < 0 || (result == 0 && a < b);
    }

    private void readLeadingDigit(int source)
    {
        RowSort.Kind kind = leadingKind[source];
        if (kind == null) {
            hasLeadingDigit[source] = false;
            return;
        }
        SortKey key = keys.get(0);
        FieldVector vector = current.get(source).getVector(key.column());
        int row = position[source];
        hasLeadingDigit[source] = !vector.isNull(row);
        if (hasLeadingDigit[source]) {
            leadingDigit[source] = RowSort.firstDigit(kind, vector, row, key.descending());
        }
    }

    private void swap(int i, int j)
    {
        int value = heap[i];
        heap[i] = heap[j];
        heap[j] = value;
    }

    @Override
    public void close()
    {
        Batches.closeAll(current);
        current.clear();
        Batches.closeAll(readers);
        readers.clear();
        open.forEach(SpillRun::delete);
        open.clear();
        heapSize = 0;
    }
}
