package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.engine.operator.SpillRunsReader;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunFile;
import io.ontul.exchange.spill.SpillRunReader;
import io.ontul.exchange.spill.SpillRunWriter;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The input of a window operator that did not fit in memory, written to spill runs in hash
 * partitions of the window partition key ({@link WindowPartitionHash}), so that every window
 * partition lies whole in one hash partition.
 * <p>
 * Protocol: {@link #spill} any number of times with the rows held (they are written and closed);
 * then {@link #next} hands back the rows of one hash partition at a time. The caller evaluates
 * them and calls {@link #done} on success, or {@link #split} when they did not fit in memory
 * after all. A partition estimated not to fit (or failing to load) is split on the next hash
 * level before it is handed back; one that cannot be split (last level, or all rows of one key)
 * is handed back anyway, or, when the window can be computed over sorted rows
 * ({@code streamsLargePartitions}) and the partition is estimated not to fit, handed back
 * unread ({@link Loaded#unread}): the caller then reads it batch by batch with {@link #stream}
 * and calls {@link #done}.
 * {@link #close} deletes every run still held.
 */
final class SpillingWindowPartitions
        implements AutoCloseable
{
    private final OperatorContext context;
    private final Schema schema;
    private final WindowPartitionHash hash;
    private final long overheadPerRow;
    private final OperatorStats stats;
    private final boolean streamsLargePartitions;
    private final Partition[] firstLevel = new Partition[WindowPartitionHash.FAN_OUT];
    private final Deque<Partition> pending = new ArrayDeque<>();
    private boolean reading;
    private Partition taken;
    private long measuredBytes;
    private long measuredRows;

    /**
     * @param schema the schema of the rows (the window's input)
     * @param overheadPerRow memory besides the row itself that evaluating a row takes
     * @param streamsLargePartitions whether a partition that cannot be split and does not fit is handed back unread
     */
    SpillingWindowPartitions(OperatorContext context, Schema schema, int[] keyColumns, long overheadPerRow, boolean streamsLargePartitions, OperatorStats stats)
    {
        this.streamsLargePartitions = streamsLargePartitions;
        this.context = requireNonNull(context, "context is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.hash = new WindowPartitionHash(keyColumns);
        this.overheadPerRow = overheadPerRow;
        this.stats = requireNonNull(stats, "stats is null");
        for (int p = 0; p < firstLevel.length; p++) {
            firstLevel[p] = new Partition(0);
        }
    }

    /** Writes the rows of {@code batches} to their hash partitions, then closes and removes the batches. */
    void spill(List<VectorSchemaRoot> batches)
    {
        if (reading) {
            throw new IllegalStateException("partitions are being read back");
        }
        for (VectorSchemaRoot batch : batches) {
            measuredRows += batch.getRowCount();
            for (FieldVector vector : batch.getFieldVectors()) {
                measuredBytes += vector.getBufferSize();
            }
        }
        write(batches, 0, firstLevel);
    }

    /**
     * The rows of the next hash partition, or null when all were handed back. A failure to read
     * a partition that cannot be split further propagates; {@link #taken()} then says which.
     */
    Loaded next()
    {
        if (!reading) {
            reading = true;
            for (int p = firstLevel.length - 1; p >= 0; p--) {
                if (firstLevel[p].rows > 0) {
                    pending.push(firstLevel[p]);
                }
            }
        }
        while (!pending.isEmpty()) {
            Partition partition = pending.pop();
            taken = partition;
            boolean unsplittable = !partition.splittable();
            boolean fits = estimatedBytes(partition.rows) <= allowance();
            if (!unsplittable && !fits) {
                repartition(partition);
                continue;
            }
            if (unsplittable && !fits && streamsLargePartitions) {
                return new Loaded(partition, List.of(), true);
            }
            List<VectorSchemaRoot> batches;
            try {
                batches = read(partition);
            }
            catch (RuntimeException e) {
                if (unsplittable || !isMemoryFailure(e)) {
                    throw e;
                }
                repartition(partition);
                continue;
            }
            return new Loaded(partition, batches, false);
        }
        return null;
    }

    /** Reads the rows of a partition handed back batch by batch; the batches belong to the caller. */
    Operator stream(Partition partition)
    {
        return new SpillRunsReader(context, partition.runs);
    }

    /** The rows of {@code loaded} were evaluated: their runs are not needed any more. */
    void done(Loaded loaded)
    {
        done(loaded.partition);
    }

    /** The rows of {@code partition} were evaluated: its runs are not needed any more. */
    void done(Partition partition)
    {
        partition.delete();
    }

    /**
     * The rows of {@code loaded} did not fit in memory (the caller closed them): splits the
     * partition on the next level. False when it cannot be split: it is on the last level
     * already, or all its rows have one key.
     */
    boolean split(Loaded loaded)
    {
        if (!loaded.partition.splittable()) {
            return false;
        }
        repartition(loaded.partition);
        return true;
    }

    private long estimatedBytes(long rows)
    {
        long rowBytes = measuredRows == 0 ? 0 : measuredBytes / measuredRows;
        // buffers read back are rounded up to powers of two: count rows twice
        return rows * (2 * rowBytes + overheadPerRow);
    }

    private long allowance()
    {
        return Math.max(0, context.memoryLimit() - context.memoryUsed()) / 2;
    }

    private List<VectorSchemaRoot> read(Partition partition)
    {
        List<VectorSchemaRoot> batches = new ArrayList<>();
        try {
            for (SpillRun run : partition.runs) {
                try (SpillRunReader reader = run.open(context.allocator())) {
                    VectorSchemaRoot batch;
                    while ((batch = reader.next()) != null) {
                        batches.add(batch);
                    }
                }
                context.checkCancelled();
            }
        }
        catch (RuntimeException e) {
            closeAll(batches, e);
            throw e;
        }
        return batches;
    }

    /** Reads a partition back batch by batch and writes its rows to the partitions of the next level. */
    private void repartition(Partition partition)
    {
        int level = partition.level + 1;
        Partition[] children = new Partition[WindowPartitionHash.FAN_OUT];
        for (int p = 0; p < children.length; p++) {
            children[p] = new Partition(level);
        }
        List<VectorSchemaRoot> held = new ArrayList<>();
        long heldBytes = 0;
        try {
            for (SpillRun run : partition.runs) {
                try (SpillRunReader reader = run.open(context.allocator())) {
                    VectorSchemaRoot batch;
                    while ((batch = reader.next()) != null) {
                        held.add(batch);
                        for (FieldVector vector : batch.getFieldVectors()) {
                            heldBytes += vector.getBufferSize();
                        }
                        if (heldBytes > context.memoryLimit() / 8) {
                            write(held, level, children);
                            heldBytes = 0;
                        }
                    }
                }
            }
            write(held, level, children);
        }
        catch (RuntimeException e) {
            closeAll(held, e);
            for (Partition child : children) {
                child.delete();
            }
            throw e;
        }
        partition.delete();
        for (int p = children.length - 1; p >= 0; p--) {
            if (children[p].rows > 0) {
                pending.push(children[p]);
            }
        }
    }

    /** Writes the rows of {@code batches} into one new run per partition that gets rows; closes the batches. */
    private void write(List<VectorSchemaRoot> batches, int level, Partition[] target)
    {
        try {
            int total = 0;
            int[][] partitionOf = new int[batches.size()][];
            int[] starts = new int[target.length + 1];
            for (int b = 0; b < batches.size(); b++) {
                long[] hashes = hash.hashes(batches.get(b));
                int[] partitions = new int[hashes.length];
                for (int row = 0; row < hashes.length; row++) {
                    partitions[row] = WindowPartitionHash.partition(hashes[row], level);
                    target[partitions[row]].observe(hashes[row]);
                    starts[partitions[row] + 1]++;
                }
                partitionOf[b] = partitions;
                total = Math.addExact(total, partitions.length);
            }
            for (int p = 0; p < target.length; p++) {
                starts[p + 1] += starts[p];
            }
            int[] batchOf = new int[total];
            int[] rowOf = new int[total];
            int[] fill = starts.clone();
            for (int b = 0; b < batches.size(); b++) {
                int[] partitions = partitionOf[b];
                for (int row = 0; row < partitions.length; row++) {
                    int at = fill[partitions[row]]++;
                    batchOf[at] = b;
                    rowOf[at] = row;
                }
            }
            long rowBytes = Math.max(1, measuredRows == 0 ? 1 : measuredBytes / measuredRows);
            int batchRows = (int) Math.max(1024, Math.min(Batches.TARGET_ROWS, context.memoryLimit() / 64 / rowBytes));
            // one file for the partitions' runs (creating a file costs more than a small run)
            try (SpillRunFile file = context.spillSpace().newRunFile()) {
                for (int p = 0; p < target.length; p++) {
                    if (starts[p + 1] > starts[p]) {
                        target[p].add(writeRun(file, batches, batchOf, rowOf, starts[p], starts[p + 1], batchRows));
                    }
                }
            }
        }
        finally {
            Batches.closeAll(batches);
            batches.clear();
        }
    }

    private SpillRun writeRun(SpillRunFile file, List<VectorSchemaRoot> batches, int[] batchOf, int[] rowOf, int from, int to, int batchRows)
    {
        try (SpillRunWriter writer = file.newRun(schema)) {
            for (int start = from; start < to; start += batchRows) {
                int count = Math.min(batchRows, to - start);
                FieldVector[] vectors = Batches.allocate(schema, context.allocator(), count);
                for (int c = 0; c < vectors.length; c++) {
                    FieldVector target = vectors[c];
                    for (int i = 0; i < count; i++) {
                        target.copyFromSafe(rowOf[start + i], i, batches.get(batchOf[start + i]).getVector(c));
                    }
                }
                try (VectorSchemaRoot batch = Batches.root(schema, vectors, count)) {
                    writer.write(batch);
                }
                context.checkCancelled();
            }
            SpillRun run = writer.finish();
            stats.recordSpill(run.bytes());
            return run;
        }
    }

    private static void closeAll(List<VectorSchemaRoot> batches, RuntimeException failure)
    {
        try {
            Batches.closeAll(batches);
        }
        catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        batches.clear();
    }

    @Override
    public void close()
    {
        for (Partition partition : firstLevel) {
            partition.delete();
        }
        for (Partition partition : pending) {
            partition.delete();
        }
        pending.clear();
        if (taken != null) {
            taken.delete();
        }
    }

    /** The partition last taken by {@link #next}: the one being read back or evaluated. */
    Partition taken()
    {
        return taken;
    }

    /** Whether {@code failure} says the query ran out of memory (so splitting further may help). */
    static boolean isMemoryFailure(Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof OutOfMemoryException) {
                return true;
            }
            if (cause instanceof OntulException ontul) {
                return ontul.code() == ErrorCode.EXCEEDED_MEMORY_LIMIT;
            }
        }
        return false;
    }

    /**
     * The rows of one hash partition read back into memory; the caller owns (and closes) the
     * batches. {@code unread}: none were read, the partition being too large for memory.
     */
    record Loaded(Partition partition, List<VectorSchemaRoot> batches, boolean unread) {}

    /** The spill runs of one hash partition on one level. */
    static final class Partition
    {
        private final int level;
        private final List<SpillRun> runs = new ArrayList<>();
        private long rows;
        private boolean observed;
        private long firstHash;
        private boolean singleKey = true;

        Partition(int level)
        {
            this.level = level;
        }

        long rows()
        {
            return rows;
        }

        /**
         * Whether all rows have one key (one window partition): all have one 64-bit hash. Splitting
         * cannot help such a partition.
         */
        boolean singleKey()
        {
            return singleKey;
        }

        boolean splittable()
        {
            return level < WindowPartitionHash.MAX_LEVEL && !singleKey;
        }

        /** A row with this hash is added. */
        void observe(long hash)
        {
            if (!observed) {
                observed = true;
                firstHash = hash;
            }
            else if (hash != firstHash) {
                singleKey = false;
            }
        }

        void add(SpillRun run)
        {
            runs.add(run);
            rows += run.rows();
        }

        void delete()
        {
            runs.forEach(SpillRun::delete);
            runs.clear();
        }
    }
}
