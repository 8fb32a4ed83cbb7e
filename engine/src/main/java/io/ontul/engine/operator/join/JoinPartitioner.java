package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunWriter;

/**
 * Splits one side of a join into partitions by a hash of its key columns and writes them out as
 * spill runs. Both sides of a join are partitioned with the same keys, level and fan-out, so a
 * row can only match rows of the same partition. Each level hashes with other bits (a seeded
 * finalizer over the key hash), so re-partitioning a partition spreads its rows again.
 * <p>
 * Rows with a NULL in a key that is not null-safe never match: they are dropped, or, when the
 * join still outputs them, spread evenly over the partitions (any partition serves, and one
 * partition holding them all would look like a hot key).
 * <p>
 * Rows are copied into a buffer per partition (query memory, {@link AppendBuffer}), each with
 * room for its share of the budget: a full buffer is written out, and when variable-width values
 * take the buffers past their budget the largest ones are. A buffer written out is filled again,
 * not allocated anew. Each partition has one run, in a file of its own,
 * open from its first write-out to {@link #finish}: a write-out appends to it and flushes it
 * ({@link SpillRunWriter#flush}), so an open run holds no rows or chunk buffers (only its file,
 * its compressor and a small channel buffer), and a partition written out many times is still
 * one stream to read back (one header, one data key). A partitioner thus keeps up to
 * {@code fanOut} files open. Use: {@link #add}
 * batches (the caller keeps them), then {@link #finish} once for the runs of every partition;
 * {@link #close} drops buffers and, unless finished, the runs written so far. Not thread-safe.
 */
final class JoinPartitioner
        implements AutoCloseable
{
    private final OperatorContext context;
    private final int[] keyColumns;
    private final boolean[] nullSafe;
    private final int level;
    private final int fanOut;
    private final int bits;
    private final boolean keepRowsWithNullKeys;
    // what bufferLimit is, asked at the first batch
    private final LongSupplier bufferBudget;
    private long bufferLimit;
    private final long maxBatchBytes;
    private final OperatorStats stats;
    private final AppendBuffer[] buffers;
    // per partition, bytes its buffer has allocated
    private final long[] allocatedBytes;
    private final List<List<SpillRun>> runs = new ArrayList<>();
    private final long[] rows;
    private final long[] memoryBytes;
    // per partition, bytes of values by variable-width column
    private final long[][] valueBytes;
    private final SpillRunWriter[] writers;
    // bytes the buffers have allocated
    private long held;
    private int nextForNullKey;
    private Schema schema;
    private int bufferRows;
    private boolean finished;

    /**
     * @param fanOut a power of two
     * @param bufferLimit bytes of rows held before the largest partitions are written out
     * @param maxBatchBytes bytes of rows written as one batch at most (a batch is the smallest
     * part of a partition that can be loaded)
     */
    JoinPartitioner(OperatorContext context, int[] keyColumns, boolean[] nullSafe, int level, int fanOut, boolean keepRowsWithNullKeys, long bufferLimit, long maxBatchBytes,
            OperatorStats stats)
    {
        this(context, keyColumns, nullSafe, level, fanOut, keepRowsWithNullKeys, () -> bufferLimit, maxBatchBytes, stats);
    }

    /**
     * @param bufferBudget the bytes of rows held before the largest partitions are written out,
     * asked once, when the first rows come (a probe side's input holds the memory it keeps by then)
     */
    JoinPartitioner(OperatorContext context, int[] keyColumns, boolean[] nullSafe, int level, int fanOut, boolean keepRowsWithNullKeys, LongSupplier bufferBudget, long maxBatchBytes,
            OperatorStats stats)
    {
        if (Integer.bitCount(fanOut) != 1 || fanOut < 2) {
            throw new IllegalArgumentException("fanOut must be a power of two: " + fanOut);
        }
        this.context = requireNonNull(context, "context is null");
        this.keyColumns = requireNonNull(keyColumns, "keyColumns is null");
        this.nullSafe = requireNonNull(nullSafe, "nullSafe is null");
        this.level = level;
        this.fanOut = fanOut;
        this.bits = Integer.numberOfTrailingZeros(fanOut);
        this.keepRowsWithNullKeys = keepRowsWithNullKeys;
        this.bufferBudget = requireNonNull(bufferBudget, "bufferBudget is null");
        this.maxBatchBytes = maxBatchBytes;
        this.stats = requireNonNull(stats, "stats is null");
        this.allocatedBytes = new long[fanOut];
        this.rows = new long[fanOut];
        this.memoryBytes = new long[fanOut];
        this.valueBytes = new long[fanOut][];
        this.writers = new SpillRunWriter[fanOut];
        this.buffers = new AppendBuffer[fanOut];
        for (int p = 0; p < fanOut; p++) {
            runs.add(new ArrayList<>());
        }
    }

    /** The partition of a row whose key hash ({@link Columns#hashInto} over the keys) is {@code hash}. */
    static int partition(long hash, int level, int bits)
    {
        // seeded per level: independent of the bits the hash table uses
        return (int) (Columns.remix(hash, level + 1) >>> (64 - bits));
    }

    void add(VectorSchemaRoot batch)
    {
        VectorSchemaRoot kept = add(batch, null);
        if (kept != null) {
            kept.close();
        }
    }

    /**
     * Partitions the rows of {@code batch} (the caller keeps it) except those of the partitions
     * marked in {@code resident} (null: none), which are returned, in their order, as a new
     * batch the caller owns (null when there are none): a hybrid hash join probes them against
     * the build partitions it kept in memory ({@link ResidentPartitions}).
     */
    VectorSchemaRoot add(VectorSchemaRoot batch, boolean[] resident)
    {
        int count = batch.getRowCount();
        if (count == 0) {
            return null;
        }
        if (schema == null) {
            schema = batch.getSchema();
            bufferLimit = bufferBudget.getAsLong();
            bufferRows = bufferRows(schema, bufferLimit, fanOut);
        }
        long[] hashes = new long[count];
        FieldVector[] keys = new FieldVector[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            keys[k] = batch.getVector(keyColumns[k]);
            Columns.hashInto(keys[k], count, hashes);
        }
        int[] partitionOf = new int[count];
        int[] sizes = new int[fanOut];
        int[] residentRows = resident == null ? null : new int[count];
        int residentCount = 0;
        boolean nullKeys = Columns.anyNull(keys, nullSafe);
        for (int row = 0; row < count; row++) {
            int partition;
            if (nullKeys && hasExcludedNull(keys, row)) {
                if (!keepRowsWithNullKeys) {
                    partitionOf[row] = -1;
                    continue;
                }
                partition = nextForNullKey;
                nextForNullKey = (nextForNullKey + 1) & (fanOut - 1);
            }
            else {
                partition = partition(hashes[row], level, bits);
            }
            if (resident != null && resident[partition]) {
                residentRows[residentCount++] = row;
                partition = -1;
            }
            else {
                sizes[partition]++;
            }
            partitionOf[row] = partition;
        }
        boolean[] hasNulls = Batches.hasNulls(batch);
        append(batch, hasNulls, partitionOf, sizes);
        if (held > bufferLimit) {
            spillLargest();
        }
        return residentCount == 0 ? null : Batches.gather(batch, residentRows, residentCount, hasNulls, context.allocator());
    }

    /**
     * Rows to allocate a partition's buffer for: its share of the budget at the bytes a row of
     * {@code schema} takes, as a power of two halved, so that Arrow, rounding each column's
     * buffers (data and validity together) up to the next power of two, makes room for twice
     * as many within the share ({@link AppendBuffer#capacity}); between 32 and half of
     * {@link Batches#TARGET_ROWS}.
     */
    static int bufferRows(Schema schema, long bufferLimit, int fanOut)
    {
        long rows = bufferLimit / fanOut / Math.max(1, Batches.estimatedRowBytes(schema));
        return (int) Long.highestOneBit(Math.max(64, Math.min(Batches.TARGET_ROWS, rows))) / 2;
    }

    /** Copies each row into the buffer of its partition ({@code partitionOf}, -1 for none; {@code sizes} rows each), writing out buffers that fill up. */
    private void append(VectorSchemaRoot batch, boolean[] hasNulls, int[] partitionOf, int[] sizes)
    {
        int count = batch.getRowCount();
        // rows grouped by partition, in their order within each
        int[] starts = new int[fanOut + 1];
        for (int p = 0; p < fanOut; p++) {
            starts[p + 1] = starts[p] + sizes[p];
        }
        int[] grouped = new int[starts[fanOut]];
        int[] filled = starts.clone();
        for (int row = 0; row < count; row++) {
            int partition = partitionOf[row];
            if (partition >= 0) {
                grouped[filled[partition]++] = row;
            }
        }
        for (int p = 0; p < fanOut; p++) {
            int from = starts[p];
            while (from < starts[p + 1]) {
                if (buffers[p] == null) {
                    buffers[p] = new AppendBuffer(schema, context.allocator(), bufferRows);
                }
                AppendBuffer buffer = buffers[p];
                int take = Math.min(buffer.room(), starts[p + 1] - from);
                buffer.append(batch, hasNulls, grouped, from, take);
                from += take;
                long allocated = buffer.allocatedBytes();
                held += allocated - allocatedBytes[p];
                allocatedBytes[p] = allocated;
                if (buffer.room() == 0) {
                    spill(p);
                }
            }
        }
    }

    private boolean hasExcludedNull(FieldVector[] keys, int row)
    {
        for (int k = 0; k < keys.length; k++) {
            if (!nullSafe[k] && keys[k].isNull(row)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Writes out and frees the buffers that hold the most memory until at most half the budget
     * is held: variable-width values larger than the buffers were sized for took them past it.
     */
    private void spillLargest()
    {
        while (held > bufferLimit / 2) {
            int largest = 0;
            for (int p = 1; p < fanOut; p++) {
                if (allocatedBytes[p] > allocatedBytes[largest]) {
                    largest = p;
                }
            }
            if (allocatedBytes[largest] == 0) {
                return;
            }
            spill(largest);
            buffers[largest].close();
            buffers[largest] = null;
            held -= allocatedBytes[largest];
            allocatedBytes[largest] = 0;
        }
    }

    private void spill(int partition)
    {
        AppendBuffer buffer = buffers[partition];
        if (buffer == null || buffer.rows() == 0) {
            return;
        }
        if (writers[partition] == null) {
            writers[partition] = context.spillSpace().newJoinRun(schema);
        }
        SpillRunWriter writer = writers[partition];
        VectorSchemaRoot batch = buffer.batch();
        if (valueBytes[partition] == null) {
            valueBytes[partition] = new long[batch.getFieldVectors().size()];
        }
        Batches.addValueBytes(batch, valueBytes[partition]);
        writeInParts(writer, batch);
        writer.flush();
        context.checkCancelled();
        rows[partition] += batch.getRowCount();
        memoryBytes[partition] += buffer.bytes();
        buffer.clear();
        long allocated = buffer.allocatedBytes();
        held += allocated - allocatedBytes[partition];
        allocatedBytes[partition] = allocated;
    }

    /** Writes rows larger than {@link #maxBatchBytes} (long values) as several batches. */
    private void writeInParts(SpillRunWriter writer, VectorSchemaRoot slice)
    {
        int rowCount = slice.getRowCount();
        int parts = (int) Math.min(rowCount, Math.max(1, (Batches.bytes(slice) + maxBatchBytes - 1) / Math.max(1, maxBatchBytes)));
        if (parts == 1) {
            writer.write(slice);
            return;
        }
        int rowsPerPart = (rowCount + parts - 1) / parts;
        for (int start = 0; start < rowCount; start += rowsPerPart) {
            try (VectorSchemaRoot part = slice.slice(start, Math.min(rowsPerPart, rowCount - start))) {
                writer.write(part);
            }
        }
    }


    /** Writes out what is buffered and returns the runs of each partition, which the caller then owns. */
    List<JoinPartitionRuns> finish()
    {
        for (int p = 0; p < fanOut; p++) {
            spill(p);
            if (buffers[p] != null) {
                buffers[p].close();
                buffers[p] = null;
            }
        }
        held = 0;
        for (int p = 0; p < fanOut; p++) {
            if (writers[p] != null) {
                SpillRun run = writers[p].finish();
                writers[p] = null;
                runs.get(p).add(run);
                stats.recordSpill(run.bytes());
            }
        }
        List<JoinPartitionRuns> result = new ArrayList<>(fanOut);
        for (int p = 0; p < fanOut; p++) {
            result.add(new JoinPartitionRuns(runs.get(p), rows[p], memoryBytes[p], valueBytes[p] == null ? new long[0] : valueBytes[p]));
        }
        finished = true;
        return result;
    }

    @Override
    public void close()
    {
        for (int p = 0; p < fanOut; p++) {
            if (buffers[p] != null) {
                buffers[p].close();
                buffers[p] = null;
            }
        }
        held = 0;
        for (int p = 0; p < fanOut; p++) {
            if (writers[p] != null) {
                // an unfinished run is dropped with its file
                writers[p].close();
                writers[p] = null;
            }
        }
        if (!finished) {
            for (List<SpillRun> partitionRuns : runs) {
                partitionRuns.forEach(SpillRun::delete);
                partitionRuns.clear();
            }
        }
    }
}
