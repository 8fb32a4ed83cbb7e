package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The shared state of a hash join whose build side did not fit in memory and was written out in
 * partitions (a grace hash join). Protocol, for the {@code probers} probe instances that share
 * the build:
 * <ol>
 * <li>each instance partitions its own probe input the same way ({@link #fanOut}, level 0) and
 * hands the runs over with {@link #addProbeRuns}, exactly once; an instance that stops before
 * (failure, early close) calls {@link #abandon} instead;</li>
 * <li>each instance then waits in {@link #awaitProbeRuns} until all have handed theirs over: a
 * partition can only be joined once all of its probe rows are on disk;</li>
 * <li>then, when there are several instances, they join the partitions too large for one
 * instance's budget but not for all of theirs together one at a time, all of them probing each
 * ({@link #sharedPartition}, {@link SharedPartition});</li>
 * <li>then each instance takes partitions with {@link #nextPartition} until none is left and
 * joins them ({@link JoinPartitionJoiner}); a partition too large to join in memory is joined
 * in chunks, or, if more than {@link #MAX_CHUNKS_INSTEAD_OF_SPLIT} budgets large, split again,
 * its parts coming back through {@link #addPartitions}. Each of these partitions is joined by
 * exactly one instance, so build-side outcomes (RIGHT, FULL, RIGHT_SEMI, RIGHT_ANTI) are
 * decided per partition without coordination (for a shared partition, by the last instance to
 * finish probing it);</li>
 * <li>{@link #close}, when the last instance closes the build, deletes every run left.</li>
 * </ol>
 * Build partitions that fit in memory together may be kept there ({@link #keepResident}, a
 * hybrid hash join): the instances then join their probe rows of those partitions while
 * partitioning ({@link ResidentPartitions}), and only the other partitions are joined from disk.
 * Thread-safe.
 */
final class GraceHashJoin
        implements AutoCloseable
{
    /** Partitions of the first split; a partition split again gets as many parts as it needs, up to this. */
    static final int FAN_OUT = 32;
    /** Splits at most this deep (FAN_OUT^(MAX_LEVEL + 1) partitions), then joins partitions in chunks. */
    static final int MAX_LEVEL = 2;
    /**
     * A partition whose build rows need up to this many chunks of {@link #buildBudget} is joined
     * in chunks, its probe runs read once per chunk, rather than split again: splitting writes
     * and reads both sides once more, which costs about as much as reading the probe side twice
     * more (measured on TPC-H SF1 lineitem ⋈ orders under a 12 MB limit: the same time, half
     * the bytes spilled; the self-join of lineitem at 46 MB: 12% faster, half the bytes).
     */
    static final int MAX_CHUNKS_INSTEAD_OF_SPLIT = 3;
    private final OperatorContext context;
    private final int[] buildKeys;
    private final boolean[] nullSafe;
    private final int probers;
    private final OperatorStats stats;
    private final List<JoinPartitionRuns> buildPartitions;
    private final List<List<JoinPartitionRuns>> probePartitions = new ArrayList<>();
    private final Deque<JoinPartition> pending = new ArrayDeque<>();
    private final List<JoinPartition> created = new ArrayList<>();
    // partitions all instances join together, in order, and those loaded so far
    private final List<JoinPartition> sharedPlans = new ArrayList<>();
    private final List<SharedPartition> shared = new ArrayList<>();
    private ResidentPartitions resident;
    private int probersLeft;
    private boolean abandoned;
    private boolean closed;

    GraceHashJoin(OperatorContext context, List<JoinPartitionRuns> buildPartitions, int[] buildKeys, boolean[] nullSafe, int probers, OperatorStats stats)
    {
        this.context = requireNonNull(context, "context is null");
        this.buildPartitions = List.copyOf(buildPartitions);
        this.buildKeys = requireNonNull(buildKeys, "buildKeys is null");
        this.nullSafe = requireNonNull(nullSafe, "nullSafe is null");
        this.probers = probers;
        this.probersLeft = probers;
        this.stats = requireNonNull(stats, "stats is null");
        for (int p = 0; p < buildPartitions.size(); p++) {
            probePartitions.add(new ArrayList<>());
        }
    }

    int fanOut()
    {
        return buildPartitions.size();
    }

    int[] buildKeys()
    {
        return buildKeys;
    }

    boolean[] nullSafe()
    {
        return nullSafe;
    }

    OperatorStats stats()
    {
        return stats;
    }

    /** Bytes of rows one probe instance buffers while partitioning. */
    long partitionBufferBytes()
    {
        return Math.max(256 * 1024, context.memoryLimit() / (4L * probers));
    }

    /**
     * What one instance may spend on one in-memory build ({@link #wholeBuildBytes},
     * {@link JoinBuild#buildBytes}): all instances may be joining a partition at once, and
     * together they are budgeted half the query's memory (at least 1 MB each), the half below
     * the point where the query's memory pool starts asking consumers to spill ({@link io.ontul.engine.memory.MemoryPool}); the other half holds probe and output batches and what
     * the rest of the query keeps (operators there spill when it runs short). A larger share
     * means fewer chunks: at 12 MB and two instances, a partition of TPC-H SF1 lineitem ⋈ orders
     * is loaded whole in 3 MB rather than in three chunks of 2 MB.
     */
    long buildBudget()
    {
        return buildBudget(context, probers);
    }

    static long buildBudget(OperatorContext context, int probers)
    {
        return Math.max(1024 * 1024, context.memoryLimit() / (2L * probers));
    }

    /**
     * What one partition joined by every instance together may spend on its in-memory build:
     * all their {@link #buildBudget}s, as only one such partition is in memory at a time and
     * no instance joins another partition meanwhile.
     */
    long sharedBudget()
    {
        return buildBudget() * probers;
    }

    /**
     * Whether the instances should join {@code partition} together: there are several, it has
     * keys, and its build rows may not load whole in one instance's budget (counted with Arrow
     * rounding every buffer up to twice its size, at most) but may in all of theirs (counted
     * without). Those that do not fit once read are joined one by one after all
     * ({@link #sharedPartition}); those that would have fit alone are joined together anyway,
     * still read once.
     */
    private boolean sharesPartition(JoinPartition partition)
    {
        JoinPartitionRuns build = partition.build();
        if (probers < 2 || buildKeys.length == 0 || build.rows() == 0 || build.rows() > Integer.MAX_VALUE / 2) {
            return false;
        }
        return wholeBuildBytes(build, 2 * build.memoryBytes()) > buildBudget() && wholeBuildBytes(build, build.memoryBytes()) <= sharedBudget();
    }

    /** Bytes of rows in one spilled batch at most: chunks of a partition are loaded batch by batch. */
    long maxBatchBytes()
    {
        return maxBatchBytes(context, probers);
    }

    static long maxBatchBytes(OperatorContext context, int probers)
    {
        return buildBudget(context, probers) / 16;
    }

    /** Parts to split a partition of {@code cost} into so each fits {@code budget} with room to spare: a power of two up to {@link #FAN_OUT}. */
    static int splitFanOut(long cost, long budget)
    {
        long parts = Math.max(2, (2 * cost + budget - 1) / Math.max(1, budget));
        return (int) Math.min(FAN_OUT, Long.highestOneBit(parts - 1) << 1);
    }

    /**
     * Bytes an in-memory build of a partition's build rows would take loaded in chunks of
     * batches ({@link JoinBuild#buildBytes}): the batches as read (IPC buffers rounded up,
     * counted as their bytes again), their combined copy (twice their bytes at most) and the
     * table. A partition that fits {@link #wholeBuildBytes} is loaded for less.
     */
    long buildCost(JoinPartitionRuns build)
    {
        return 3 * build.memoryBytes() + JoinBuild.tableBytes(build.rows(), buildKeys.length);
    }

    /**
     * Bytes an in-memory build of a whole partition takes when its rows are appended one read
     * batch at a time to a batch allocated for all of them ({@code allocated} bytes): that
     * batch, one batch as read (its IPC buffer rounded up) and the table.
     */
    long wholeBuildBytes(JoinPartitionRuns build, long allocated)
    {
        return allocated + 2 * maxBatchBytes() + JoinBuild.tableBytes(build.rows(), buildKeys.length);
    }

    /**
     * What the build partitions kept in memory may take: a quarter of the query's memory, less
     * what it holds now. The probe instances' partitioning buffers take at most another quarter
     * ({@link #probeBufferBytes}, less the more is resident; when none is and the probe input
     * only streams, what half of it has free). The rest is for batches in flight
     * and the operators below and above the join, which hold their own memory meanwhile (a
     * spilled join on the probe side joins its partitions in up to half of it).
     */
    long residentBudget()
    {
        return context.memoryLimit() / 4 - context.memoryUsed();
    }

    /**
     * Bytes of rows one probe instance buffers while partitioning its input; asked when its first
     * probe rows come ({@link JoinPartitioner}).
     * <p>
     * When no build partition is kept in memory and the probe input only streams (scans,
     * filters, projections: {@code probeInputStreams}): its share of what half the query's memory
     * has free then, at least its share of a quarter ({@link #partitionBufferBytes}). Nothing
     * below then takes memory later, and nothing above runs until the partitions are joined (no
     * row comes out while partitioning), so the buffers take only memory no one else wants:
     * larger buffers write each partition out in larger, fewer pieces. Instances asking at about
     * the same time each count what the others have not allocated yet; together they stay within
     * half. Not so with anything else below: a union runs its inputs one after another, and a
     * join below may take half the memory for a partition after its first rows came out, which
     * the quarter leaves room for.
     * <p>
     * Otherwise its share of a quarter; when partitions are kept in memory, in proportion to the
     * build rows left on disk (probe rows of resident partitions are not buffered).
     */
    synchronized long probeBufferBytes(boolean probeInputStreams)
    {
        long bytes = partitionBufferBytes();
        if (resident == null) {
            if (!probeInputStreams) {
                return bytes;
            }
            long free = context.memoryLimit() / 2 - context.memoryUsed();
            return Math.max(bytes, free / probers);
        }
        long total = 0;
        long onDisk = 0;
        for (int p = 0; p < buildPartitions.size(); p++) {
            total += buildPartitions.get(p).memoryBytes();
            onDisk += resident.mask()[p] ? 0 : buildPartitions.get(p).memoryBytes();
        }
        return Math.max(256 * 1024, (long) (bytes * (onDisk / (double) Math.max(1, total))));
    }

    /**
     * Keeps the build partitions that fit {@link #residentBudget} in memory
     * ({@link ResidentPartitions#keep}); call once, before the probe instances start. Not for a
     * join without keys, whose rows are all in one partition.
     */
    synchronized void keepResident()
    {
        if (buildKeys.length > 0) {
            resident = ResidentPartitions.keep(context, buildPartitions, buildKeys, nullSafe, probers, residentBudget(), maxBatchBytes(), stats).orElse(null);
        }
    }

    /** The build partitions kept in memory, or null when none is. */
    synchronized ResidentPartitions resident()
    {
        return resident;
    }

    synchronized void addProbeRuns(List<JoinPartitionRuns> runs)
    {
        if (closed) {
            runs.forEach(JoinPartitionRuns::delete);
            return;
        }
        for (int p = 0; p < runs.size(); p++) {
            probePartitions.get(p).add(runs.get(p));
        }
        probersLeft--;
        if (probersLeft == 0) {
            for (int p = 0; p < buildPartitions.size(); p++) {
                if (resident != null && resident.mask()[p]) {
                    // joined in memory as the probe rows came: nothing was written for it
                    probePartitions.get(p).forEach(JoinPartitionRuns::delete);
                    continue;
                }
                // without keys every row is in one partition, and splitting it again cannot spread them
                JoinPartition partition = new JoinPartition(0, buildPartitions.get(p), JoinPartitionRuns.concat(probePartitions.get(p)), buildKeys.length == 0);
                if (sharesPartition(partition)) {
                    sharedPlans.add(partition);
                }
                else {
                    pending.add(partition);
                }
                created.add(partition);
            }
        }
        notifyAll();
    }

    /** An instance stops before handing over its probe runs, or while partitions are joined together: the others stop waiting. */
    synchronized void abandon()
    {
        abandoned = true;
        notifyAll();
    }

    /**
     * Waits until every probe instance has handed over its runs. False when one gave up: the
     * query is then failing or closing, and the caller just ends.
     */
    synchronized boolean awaitProbeRuns()
    {
        while (probersLeft > 0 && !abandoned) {
            waitAWhile();
        }
        return probersLeft == 0;
    }

    /** Waits on this monitor (the caller holds it) until notified or 50 ms have passed; fails if the query was cancelled or the thread interrupted. */
    private void waitAWhile()
    {
        context.checkCancelled();
        try {
            wait(50);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            context.cancel();
            throw new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + context.queryId() + " was interrupted");
        }
    }

    /**
     * The {@code index}th partition all instances join together ({@link SharedPartition}); each
     * instance asks for 0, 1, 2, ... in turn. One that cannot produce rows for {@code joinType}
     * is deleted unread and returned not in memory. The first instance to ask loads it, once every
     * instance has released the one before. One that does not fit once read goes to the
     * partitions joined one by one ({@link #nextPartition}) and is returned not
     * {@linkplain SharedPartition#inMemory in memory}. Null when there are no more and the last
     * one has been released (so the partitions joined one by one never share the memory with
     * it), or when an instance gave up ({@link #isAbandoned}).
     */
    synchronized SharedPartition sharedPartition(int index, JoinType joinType)
    {
        while (!abandoned && !closed) {
            if (index < shared.size()) {
                return shared.get(index);
            }
            if (shared.isEmpty() || shared.get(shared.size() - 1).released()) {
                if (index >= sharedPlans.size()) {
                    return null;
                }
                shared.add(loadShared(sharedPlans.get(index), joinType));
                continue;
            }
            waitAWhile();
        }
        return null;
    }

    private SharedPartition loadShared(JoinPartition partition, JoinType joinType)
    {
        if (partition.cannotProduceRows(joinType)) {
            partition.delete();
            return new SharedPartition(null, List.of());
        }
        ResidentPartitions build = ResidentPartitions.keepWhole(context, partition.build(), buildKeys, nullSafe, probers, sharedBudget(), maxBatchBytes(), stats).orElse(null);
        if (build == null) {
            pending.add(partition);
            return new SharedPartition(null, List.of());
        }
        stats.recordSharedPartition();
        return new SharedPartition(build, partition.probe().runs());
    }

    /**
     * An instance is done with {@code partition} ({@link SharedPartition} protocol); the last one
     * frees its build and deletes its probe runs, and wakes those waiting for the next one.
     */
    synchronized void release(SharedPartition partition)
    {
        partition.release();
        if (partition.released()) {
            partition.deleteProbeRuns();
        }
        notifyAll();
    }

    /** Whether an instance gave up before handing over its probe runs, or while partitions were joined together. */
    synchronized boolean isAbandoned()
    {
        return abandoned;
    }

    /** The next partition to join, or null when none is left. */
    synchronized JoinPartition nextPartition()
    {
        return pending.pollFirst();
    }

    /** Parts of a partition that was split again; they are joined next. */
    synchronized void addPartitions(List<JoinPartition> partitions)
    {
        if (closed) {
            partitions.forEach(JoinPartition::delete);
            return;
        }
        for (int i = partitions.size() - 1; i >= 0; i--) {
            pending.addFirst(partitions.get(i));
        }
        created.addAll(partitions);
    }

    @Override
    public synchronized void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        pending.clear();
        if (resident != null) {
            resident.close();
        }
        shared.forEach(SharedPartition::close);
        // runs already deleted are skipped; the query's spill space removes anything left at its end
        created.forEach(JoinPartition::delete);
        created.clear();
        buildPartitions.forEach(JoinPartitionRuns::delete);
        probePartitions.forEach(runs -> runs.forEach(JoinPartitionRuns::delete));
    }
}
