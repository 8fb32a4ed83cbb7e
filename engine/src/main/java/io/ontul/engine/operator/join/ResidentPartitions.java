package io.ontul.engine.operator.join;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The build partitions of a spilled hash join kept in memory, which makes it a hybrid hash join:
 * once the build side is partitioned, as many partitions as fit a budget are read back into one
 * {@link JoinBuild}, and probe rows of those partitions are joined as they come
 * ({@link JoinPartitioner#add(VectorSchemaRoot, boolean[])}) instead of being written out and
 * read back. Only the other partitions are joined from disk, so a build side just over the
 * memory limit spills little more than what does not fit.
 * <p>
 * Protocol, for the {@code probers} probe instances of the join: each probes its rows of the
 * resident partitions against {@link #build} while it partitions its input; when its input
 * ends it calls {@link #finishProbe} once (true for the last, which then emits the build-side
 * outcomes, RIGHT and FULL, as an in-memory join does) and then {@link #release} once; an
 * instance that stops early only releases. The build's memory goes with the last release, before
 * the partitions on disk are joined, or at {@link #close}, which the spilled join calls when it
 * closes. The same protocol serves one partition read back whole for all instances to probe
 * together once the partitions are on disk ({@link #keepWhole}, {@link SharedPartition}).
 * Thread-safe.
 */
final class ResidentPartitions
        implements AutoCloseable
{
    private final boolean[] mask;
    private final JoinBuild build;
    private final AtomicInteger probing;
    private int holders;
    private boolean closed;

    private ResidentPartitions(boolean[] mask, JoinBuild build, int probers)
    {
        this.mask = mask;
        this.build = build;
        this.probing = new AtomicInteger(probers);
        this.holders = probers;
    }

    /**
     * Reads back the build partitions that fit {@code budget} together (smallest first; each
     * costs its rows as read, appended into one batch, and its share of the hash table, plus
     * {@code batchBytes} for the batch being read) and builds them. Their runs are deleted;
     * the caller still owns every partition's runs list, resident ones included. Empty when none
     * fits, or when memory runs out while loading (the other operators of the query hold more
     * than expected): then every partition is joined from disk.
     */
    static Optional<ResidentPartitions> keep(OperatorContext context, List<JoinPartitionRuns> partitions, int[] keyColumns, boolean[] nullSafe, int probers,
            long budget, long batchBytes, OperatorStats stats)
    {
        List<Integer> chosen = new ArrayList<>();
        long rows = 0;
        long bytes = 0;
        List<Integer> bySize = IntStream.range(0, partitions.size()).boxed()
                .sorted(Comparator.comparingLong(p -> partitions.get(p).memoryBytes()))
                .toList();
        for (int p : bySize) {
            JoinPartitionRuns partition = partitions.get(p);
            long moreRows = rows + partition.rows();
            long moreBytes = bytes + partition.memoryBytes();
            if (moreRows > Integer.MAX_VALUE / 2 || moreBytes + JoinBuild.tableBytes(moreRows, keyColumns.length) + batchBytes > budget) {
                break;
            }
            rows = moreRows;
            bytes = moreBytes;
            chosen.add(p);
        }
        Optional<ResidentPartitions> kept = loadFitting(context, partitions, chosen, keyColumns, nullSafe, probers, budget, batchBytes, stats);
        // empty partitions are kept for free: only those with rows are counted
        kept.ifPresent(resident -> stats.recordResidentPartitions((int) IntStream.range(0, partitions.size())
                .filter(p -> resident.mask[p] && partitions.get(p).rows() > 0).count()));
        return kept;
    }

    /**
     * Reads back one whole partition for the {@code probers} instances to probe together
     * ({@link SharedPartition}), if it fits {@code budget} (as {@link #keep} counts it); its runs
     * are then deleted. Empty, the runs kept, when it does not fit or memory runs out.
     */
    static Optional<ResidentPartitions> keepWhole(OperatorContext context, JoinPartitionRuns partition, int[] keyColumns, boolean[] nullSafe, int probers,
            long budget, long batchBytes, OperatorStats stats)
    {
        if (partition.rows() > Integer.MAX_VALUE / 2) {
            return Optional.empty();
        }
        return loadFitting(context, List.of(partition), new ArrayList<>(List.of(0)), keyColumns, nullSafe, probers, budget, batchBytes, stats);
    }

    /** Loads and builds the {@code chosen} partitions, dropping the largest while they do not fit once loaded. */
    private static Optional<ResidentPartitions> loadFitting(OperatorContext context, List<JoinPartitionRuns> partitions, List<Integer> chosen, int[] keyColumns,
            boolean[] nullSafe, int probers, long budget, long batchBytes, OperatorStats stats)
    {
        try {
            while (!chosen.isEmpty()) {
                JoinPartitionRuns runs = JoinPartitionRuns.concat(chosen.stream().map(partitions::get).toList());
                Optional<List<VectorSchemaRoot>> loaded = load(context, runs, budget - JoinBuild.tableBytes(runs.rows(), keyColumns.length) - batchBytes);
                if (loaded.isEmpty()) {
                    // Arrow rounds buffers up to a power of two: the largest partition goes back to disk
                    chosen.remove(chosen.size() - 1);
                    continue;
                }
                JoinBuild build = JoinBuild.inMemory(context, loaded.get(), keyColumns, nullSafe, stats);
                boolean[] mask = new boolean[partitions.size()];
                for (int p : chosen) {
                    mask[p] = true;
                    partitions.get(p).delete();
                }
                return Optional.of(new ResidentPartitions(mask, build, probers));
            }
            return Optional.empty();
        }
        catch (OutOfMemoryException e) {
            return Optional.empty();
        }
        catch (OntulException e) {
            if (e.code() != ErrorCode.EXCEEDED_MEMORY_LIMIT) {
                throw e;
            }
            return Optional.empty();
        }
    }

    /**
     * Every row of {@code runs}, in one batch allocated for all of them where the columns allow,
     * else as read; empty, having read nothing, when that batch as allocated would take more
     * than {@code maxBytes}.
     */
    private static Optional<List<VectorSchemaRoot>> load(OperatorContext context, JoinPartitionRuns runs, long maxBytes)
    {
        if (runs.runs().isEmpty()) {
            return Optional.of(List.of());
        }
        Schema schema = runs.runs().get(0).schema();
        Optional<VectorSchemaRoot> allocated = Batches.allocateForAppending(schema, (int) runs.rows(), runs.valueBytes(), context.allocator());
        List<VectorSchemaRoot> batches = new ArrayList<>();
        allocated.ifPresent(batches::add);
        if (Batches.allocatedBytes(batches) > maxBytes || (allocated.isEmpty() && 2 * runs.memoryBytes() > maxBytes)) {
            Batches.closeAll(batches);
            return Optional.empty();
        }
        try (Operator reader = runs.open(context)) {
            if (allocated.isPresent()) {
                Batches.appendAll(allocated.get(), null, reader, context);
                return Optional.of(batches);
            }
            for (VectorSchemaRoot batch = reader.next(); batch != null; batch = reader.next()) {
                batches.add(batch);
                context.checkCancelled();
            }
            return Optional.of(batches);
        }
        catch (RuntimeException e) {
            Batches.closeAll(batches);
            throw e;
        }
    }

    /** Partitions kept in memory, by partition: their probe rows are not written out. */
    boolean[] mask()
    {
        return mask;
    }

    /** The build rows of every resident partition. */
    JoinBuild build()
    {
        return build;
    }

    /** Called once by each probe instance when its input is exhausted; true for the last one. */
    boolean finishProbe()
    {
        return probing.decrementAndGet() == 0;
    }

    /** Whether the last instance has released the build (or it was closed). */
    synchronized boolean released()
    {
        return closed;
    }

    /** A probe instance is done with the build; the last one frees it. */
    synchronized void release()
    {
        holders--;
        if (holders == 0) {
            close();
        }
    }

    @Override
    public synchronized void close()
    {
        if (!closed) {
            closed = true;
            build.close();
        }
    }
}
