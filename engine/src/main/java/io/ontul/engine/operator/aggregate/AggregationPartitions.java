package io.ontul.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunFile;
import io.ontul.exchange.spill.SpillRunWriter;

/**
 * The groups a hash aggregation spilled while aggregating one input (its own input at level 0,
 * or a spilled partition at a deeper level). Each {@link #spill} writes every group of the table
 * as a state row to a new run of its partition, chosen by {@link #PARTITION_BITS} bits of the
 * group hash: the top bits at level 0, the next ones at level 1, and so on (the runs of one
 * spill share a file, {@link SpillRunFile}). Groups of one key
 * always land in the same partition, so each partition can be aggregated on its own;
 * one that still does not fit is split again by the next bits, one level deeper. The table's
 * slots use the low bits of the hash, so partitioning never crowds a table.
 * <p>
 * State rows can also come without a table ({@link #add}: rows that are each a group of their
 * own, with their group hashes): they are gathered into per-partition buffers of query memory,
 * and once the buffers hold more than {@code bufferLimit} bytes the largest are written out,
 * each as a new run; {@link #finish} writes the rest.
 */
final class AggregationPartitions
        implements AutoCloseable
{
    // 32 parts: a partition of a spill that filled the budget is read back at about a 32nd of it,
    // which leaves room for the other instances merging theirs at the same time
    static final int PARTITION_BITS = 5;
    static final int PARTITIONS = 1 << PARTITION_BITS;
    /** Levels of partitioning (32^6 partitions in all, using the top 30 bits of the hash). */
    static final int MAX_LEVELS = 6;

    /** A spilled partition: runs of state rows to aggregate together at {@code level}. */
    record Partition(int level, List<SpillRun> runs)
    {
        void delete()
        {
            runs.forEach(SpillRun::delete);
        }
    }

    private final OperatorContext context;
    private final Schema stateSchema;
    private final int level;
    private final OperatorStats stats;
    private final List<List<SpillRun>> runs = new ArrayList<>();
    private final List<List<VectorSchemaRoot>> buffers = new ArrayList<>();
    private final long[] bufferedBytes = new long[PARTITIONS];
    private long buffered;

    AggregationPartitions(OperatorContext context, Schema stateSchema, int level, OperatorStats stats)
    {
        if (level < 0 || level >= MAX_LEVELS) {
            throw new IllegalArgumentException("level out of range: " + level);
        }
        this.context = requireNonNull(context, "context is null");
        this.stateSchema = requireNonNull(stateSchema, "stateSchema is null");
        this.level = level;
        this.stats = requireNonNull(stats, "stats is null");
        for (int p = 0; p < PARTITIONS; p++) {
            runs.add(new ArrayList<>());
            buffers.add(new ArrayList<>());
        }
    }

    static int partition(long hash, int level)
    {
        return (int) (hash >>> (Long.SIZE - PARTITION_BITS * (level + 1))) & (PARTITIONS - 1);
    }

    /** Writes every group of {@code table} to its partition; the caller then closes the table. */
    void spill(AggregationTable table)
    {
        int groups = table.groupCount();
        if (groups == 0) {
            return;
        }
        // counting sort of the groups by partition
        int[] partitionOf = new int[groups];
        int[] starts = new int[PARTITIONS + 1];
        for (int group = 0; group < groups; group++) {
            partitionOf[group] = partition(table.groupHash(group), level);
            starts[partitionOf[group] + 1]++;
        }
        for (int p = 0; p < PARTITIONS; p++) {
            starts[p + 1] += starts[p];
        }
        int[] order = new int[groups];
        int[] next = Arrays.copyOf(starts, PARTITIONS);
        for (int group = 0; group < groups; group++) {
            order[next[partitionOf[group]]++] = group;
        }
        // small batches: reading a partition back holds one of them next to its table
        long rowBytes = Math.max(1, table.heldBytes() / groups);
        int batchRows = (int) Math.max(1024, Math.min(Batches.TARGET_ROWS, context.memoryLimit() / 64 / rowBytes));
        // one file for the partitions' runs (creating a file costs more than a small run)
        try (SpillRunFile file = context.spillSpace().newRunFile()) {
            for (int p = 0; p < PARTITIONS; p++) {
                if (starts[p + 1] > starts[p]) {
                    writeRun(file, table, p, Arrays.copyOfRange(order, starts[p], starts[p + 1]), batchRows);
                }
            }
        }
    }

    private void writeRun(SpillRunFile file, AggregationTable table, int partition, int[] groups, int batchRows)
    {
        try (SpillRunWriter writer = file.newRun(stateSchema)) {
            for (int from = 0; from < groups.length; from += batchRows) {
                int count = Math.min(batchRows, groups.length - from);
                try (VectorSchemaRoot batch = table.state(stateSchema, Arrays.copyOfRange(groups, from, from + count), count)) {
                    writer.write(batch);
                }
                context.checkCancelled();
            }
            SpillRun run = writer.finish();
            runs.get(partition).add(run);
            stats.recordSpill(run.bytes());
        }
    }

    /**
     * Buffers state rows (of the state schema) by the partition of their group hash; the caller
     * keeps {@code states}.
     *
     * @param bufferLimit bytes of buffered rows above which the largest buffers are written out
     */
    void add(VectorSchemaRoot states, long[] groupHashes, long bufferLimit)
    {
        int rowCount = states.getRowCount();
        int[] partitionOf = new int[rowCount];
        for (int row = 0; row < rowCount; row++) {
            partitionOf[row] = partition(groupHashes[row], level);
        }
        VectorSchemaRoot[] slices = Batches.scatter(states, partitionOf, PARTITIONS, context.allocator());
        for (int p = 0; p < PARTITIONS; p++) {
            if (slices[p] != null) {
                long bytes = Batches.bytes(slices[p]);
                buffers.get(p).add(slices[p]);
                bufferedBytes[p] += bytes;
                buffered += bytes;
            }
        }
        if (buffered > bufferLimit) {
            // down to half, so that the next writes come after a while, not at every batch
            try (SpillRunFile file = context.spillSpace().newRunFile()) {
                while (buffered > bufferLimit / 2) {
                    int largest = 0;
                    for (int p = 1; p < PARTITIONS; p++) {
                        if (bufferedBytes[p] > bufferedBytes[largest]) {
                            largest = p;
                        }
                    }
                    writeBuffer(file, largest);
                }
            }
        }
    }

    /** Writes a partition's buffered rows as a new run of it. */
    private void writeBuffer(SpillRunFile file, int partition)
    {
        List<VectorSchemaRoot> slices = buffers.get(partition);
        if (slices.isEmpty()) {
            return;
        }
        try (SpillRunWriter writer = file.newRun(stateSchema)) {
            int from = 0;
            while (from < slices.size()) {
                // slices are a batch's share of one partition: written together, they read back as batches
                int to = from;
                int rows = 0;
                while (to < slices.size() && (to == from || rows + slices.get(to).getRowCount() <= Batches.TARGET_ROWS)) {
                    rows += slices.get(to).getRowCount();
                    to++;
                }
                if (to - from == 1) {
                    writer.write(slices.get(from));
                }
                else {
                    try (VectorSchemaRoot batch = Batches.concat(stateSchema, slices.subList(from, to), context.allocator())) {
                        writer.write(batch);
                    }
                }
                context.checkCancelled();
                from = to;
            }
            SpillRun run = writer.finish();
            runs.get(partition).add(run);
            stats.recordSpill(run.bytes());
        }
        slices.forEach(VectorSchemaRoot::close);
        slices.clear();
        buffered -= bufferedBytes[partition];
        bufferedBytes[partition] = 0;
    }

    boolean isEmpty()
    {
        return runs.stream().allMatch(List::isEmpty);
    }

    /** The partitions written, to aggregate one by one at the next level; this object then holds none. */
    List<Partition> finish()
    {
        if (buffered > 0) {
            try (SpillRunFile file = context.spillSpace().newRunFile()) {
                for (int p = 0; p < PARTITIONS; p++) {
                    writeBuffer(file, p);
                }
            }
        }
        List<Partition> partitions = new ArrayList<>();
        for (List<SpillRun> partitionRuns : runs) {
            if (!partitionRuns.isEmpty()) {
                partitions.add(new Partition(level + 1, List.copyOf(partitionRuns)));
                partitionRuns.clear();
            }
        }
        return partitions;
    }

    /** Deletes the runs not handed out by {@link #finish}. */
    @Override
    public void close()
    {
        for (int p = 0; p < PARTITIONS; p++) {
            buffers.get(p).forEach(VectorSchemaRoot::close);
            buffers.get(p).clear();
            buffered -= bufferedBytes[p];
            bufferedBytes[p] = 0;
        }
        for (List<SpillRun> partitionRuns : runs) {
            partitionRuns.forEach(SpillRun::delete);
            partitionRuns.clear();
        }
    }
}
