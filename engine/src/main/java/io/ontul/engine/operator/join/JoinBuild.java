package io.ontul.engine.operator.join;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;


/**
 * The build side of a hash join, shared by all probe instances: every build row, and chains of
 * rows by key hash. Built once, by whichever probe instance asks first; the others wait.
 * Rows with a NULL in a key that is not null-safe are never inserted (they cannot match). With
 * no keys every row is in one chain (nested-loop join).
 * <p>
 * When the query can spill and the build rows would not fit its memory (its memory pool asks
 * this build to spill, {@link MemoryReservation#shouldSpill}, while it holds a good share of the
 * budget, or the finished table would take the query past three quarters of it), the build side is instead
 * hash-partitioned by key into spill runs, the rows already held included, and the join
 * becomes a {@link GraceHashJoin} ({@link #spilled}): the probe instances then partition their
 * input the same way and join partition by partition. A join without keys (nested loop) spills
 * the same way: all its rows fall into one partition, joined in chunks of build rows that fit,
 * its probe rows read back once per chunk.
 */
public final class JoinBuild
        implements AutoCloseable
{
    /** Threads that partition a spilling build side besides the one reading it, at most. */
    static final int MAX_PARTITIONING_HELPERS = 3;

    private final OperatorContext context;
    private final MemoryReservation memory;
    private final Supplier<Operator> buildSide;
    private final int[] keyColumns;
    private final boolean[] nullSafe;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private int[] next;
    private int[] heads;
    private int mask;
    private int rowCount;
    private boolean[] matched;
    private long[][] longKeys;
    private boolean[] columnHasNulls;
    private RuntimeException failure;
    // one integer-like key: the key's rows by key (the rows of one key chained by next)
    private SingleKeyTable singleKey;
    private long reserved;
    private boolean built;
    private final java.util.concurrent.atomic.AtomicInteger probing = new java.util.concurrent.atomic.AtomicInteger();
    private final OperatorStats stats;
    private int users;
    private final int probers;
    private final boolean partitionable;
    private long heldBytes;
    private ParallelJoinPartitioner partitioner;
    private GraceHashJoin spilled;
    private boolean probeAbandoned;

    /** @param users the number of probe instances that will each call {@link #close()} once */
    public JoinBuild(OperatorContext context, Supplier<Operator> buildSide, int[] keyColumns, boolean[] nullSafe, int users, OperatorStats stats)
    {
        this(context, buildSide, keyColumns, nullSafe, users, stats, true);
    }

    private JoinBuild(OperatorContext context, Supplier<Operator> buildSide, int[] keyColumns, boolean[] nullSafe, int users, OperatorStats stats, boolean partitionable)
    {
        this.stats = stats;
        this.users = users;
        this.probers = users;
        this.probing.set(users);
        this.context = context;
        this.buildSide = buildSide;
        this.keyColumns = keyColumns;
        this.nullSafe = nullSafe;
        this.partitionable = partitionable;
        this.memory = context.memoryReservation("HashJoin build", partitionable);
        memory.setMinimumSpill(context.memoryLimit() / 8);
    }

    /**
     * A build over {@code batches} (taken over: closed with the build), for one probe instance,
     * that never spills: one partition, or one chunk of one, of a {@link GraceHashJoin}.
     */
    static JoinBuild inMemory(OperatorContext context, List<VectorSchemaRoot> batches, int[] keyColumns, boolean[] nullSafe, OperatorStats stats)
    {
        List<VectorSchemaRoot> input = new ArrayList<>(batches);
        JoinBuild build = new JoinBuild(context, () -> new BatchListOperator(input), keyColumns, nullSafe, 1, stats, false);
        try {
            build.ensureBuilt();
        }
        catch (RuntimeException e) {
            build.close();
            throw e;
        }
        return build;
    }

    public synchronized void ensureBuilt()
    {
        if (built) {
            return;
        }
        if (failure != null) {
            // another probe instance already failed building: fail the same way, do not rebuild
            throw failure;
        }
        try {
            build();
        }
        catch (RuntimeException e) {
            failure = e;
            if (partitioner != null) {
                // stops its helpers now, and drops the runs written
                try {
                    partitioner.close();
                }
                catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                partitioner = null;
            }
            throw e;
        }
    }

    private void build()
    {
        try (Operator input = buildSide.get()) {
            VectorSchemaRoot batch;
            while ((batch = input.next()) != null) {
                if (partitioner != null) {
                    partitioner.add(batch);
                }
                else {
                    batches.add(batch);
                    rowCount += batch.getRowCount();
                    heldBytes += Batches.bytes(batch);
                    memory.setHeld(heldBytes);
                    if (mayPartition() && ((heldBytes > context.memoryLimit() / 8 && memory.shouldSpill()) || wouldNotFit())) {
                        startPartitioning();
                    }
                }
                context.checkCancelled();
            }
        }
        // built from here on: the table stays in memory, or its partitions are on disk already
        memory.setSpillable(false);
        if (partitioner != null) {
            spilled = new GraceHashJoin(context, partitioner.finish(), keyColumns, nullSafe, probers, stats);
            partitioner.close();
            partitioner = null;
            if (probeAbandoned) {
                spilled.abandon();
            }
            else {
                spilled.keepResident();
            }
            built = true;
            return;
        }
        combine();
        int capacity = Math.toIntExact(slots(rowCount));
        reserve((long) rowCount * 5);
        next = new int[rowCount];
        matched = new boolean[rowCount];
        mask = keyColumns.length == 0 ? 0 : capacity - 1;
        longKeys = new long[keyColumns.length][];
        for (int k = 0; k < keyColumns.length; k++) {
            // combined: one batch at most
            if (!batches.isEmpty() && Columns.isLongLike(batches.get(0).getVector(keyColumns[k]))) {
                longKeys[k] = Columns.longs(batches.get(0).getVector(keyColumns[k]), rowCount);
            }
        }
        reserve(8L * rowCount * keyColumns.length);
        if (keyColumns.length == 1 && longKeys[0] != null && !nullSafe[0]) {
            buildSingleLongKey(capacity);
            return;
        }
        // chained table over key hashes; one chain holding every row when there are no keys
        reserve(capacity * 4L);
        heads = new int[keyColumns.length == 0 ? 1 : capacity];
        java.util.Arrays.fill(heads, -1);
        if (!batches.isEmpty()) {
            VectorSchemaRoot batch = batches.get(0);
            long hashBytes = keyColumns.length == 0 ? 0 : 8L * rowCount;
            reserve(hashBytes);
            long[] hashes = keyColumns.length == 0 ? null : hashes(batch, rowCount);
            boolean nullKeys = keyColumns.length > 0 && keysHaveNull(batch);
            for (int row = 0; row < rowCount; row++) {
                if (nullKeys && hasExcludedNull(batch, row)) {
                    next[row] = -2;
                    continue;
                }
                int slot = keyColumns.length == 0 ? 0 : (int) hashes[row] & mask;
                next[row] = heads[slot];
                heads[slot] = row;
            }
            // the hashes are garbage from here on
            release(hashBytes);
        }
        built = true;
        recordMemory();
    }

    private void buildSingleLongKey(int capacity)
    {
        reserve(capacity * 16L);
        FieldVector keyVector = batches.isEmpty() ? null : batches.get(0).getVector(keyColumns[0]);
        boolean[] excluded = null;
        if (keyVector != null && keyVector.getNullCount() > 0) {
            excluded = new boolean[rowCount];
            for (int row = 0; row < rowCount; row++) {
                if (keyVector.isNull(row)) {
                    excluded[row] = true;
                    next[row] = -2;
                }
            }
        }
        singleKey = SingleKeyTable.build(longKeys[0], excluded, rowCount, capacity, next);
        // what the table holds instead of the estimate: a dense key's array is smaller, a bitmap adds to a hashed one
        long held = singleKey.bytes();
        if (held > capacity * 16L) {
            reserve(held - capacity * 16L);
        }
        else {
            release(capacity * 16L - held);
        }
        built = true;
        recordMemory();
    }

    private void recordMemory()
    {
        long bytes = reserved;
        for (VectorSchemaRoot batch : batches) {
            for (FieldVector vector : batch.getFieldVectors()) {
                bytes += vector.getBufferSize();
            }
        }
        stats.recordMemory(bytes);
    }

    /** True when {@link #findKey} applies: one integer-like key that is not null-safe. */
    boolean hasSingleLongKey()
    {
        return singleKey != null;
    }

    /** See {@link SingleKeyTable#worthReadingAhead}. */
    boolean worthReadingAhead()
    {
        return singleKey.worthReadingAhead();
    }

    /** See {@link SingleKeyTable#touch}. */
    long touch(long[] values, int from, int to)
    {
        return singleKey.touch(values, from, to);
    }

    /** The first build row whose key equals {@code key} (rows of that key follow by {@link #next}), or -1. */
    int findKey(long key)
    {
        return singleKey.find(key);
    }

    /**
     * Concatenates the build batches into one, so build rows are addressed by one index. Each
     * column is cleared in the batches once copied ({@link Batches#concatReleasing}).
     */
    private void combine()
    {
        if (batches.size() <= 1) {
            return;
        }
        VectorSchemaRoot combined = Batches.concatReleasing(batches.get(0).getSchema(), batches, context.allocator());
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
        batches.add(combined);
    }

    /**
     * Bytes an in-memory build of {@code batches} takes at its peak, at most: the batches as
     * allocated, their copy combined into one (each buffer rounded up to a power of two by Arrow,
     * so at most twice their bytes) and the hash table ({@link #tableBytes}).
     */
    static long buildBytes(List<VectorSchemaRoot> batches, int keyCount)
    {
        long rows = 0;
        long bytes = 0;
        for (VectorSchemaRoot batch : batches) {
            rows += batch.getRowCount();
            bytes += Batches.bytes(batch);
        }
        long copy = batches.size() <= 1 ? 0 : 2 * bytes;
        return Batches.allocatedBytes(batches) + copy + tableBytes(rows, keyCount);
    }

    /**
     * Bytes the hash table over {@code rows} build rows takes at its peak beyond their Arrow
     * data (what {@link #build} reserves, every key counted as integer-like): per row a chain
     * link, a match mark and the keys as longs (and, with several keys, the key hashes while
     * building); per slot a chain head, with one key the key too.
     */
    static long tableBytes(long rows, int keyCount)
    {
        return rows * (5 + 8L * keyCount + (keyCount > 1 ? 8 : 0)) + (keyCount == 1 ? 16L : 4L) * slots(rows);
    }

    /** Slots of the table over {@code rows} rows: a power of two, at least twice the rows. */
    private static long slots(long rows)
    {
        return Long.highestOneBit(Math.max(rows, 1) * 2 - 1) << 1;
    }

    /** Whether build column {@code column} holds a NULL (computed once). */
    synchronized boolean columnHasNulls(int column)
    {
        if (columnHasNulls == null) {
            columnHasNulls = new boolean[batches.isEmpty() ? 0 : batches.get(0).getFieldVectors().size()];
            for (int c = 0; c < columnHasNulls.length; c++) {
                columnHasNulls[c] = batches.get(0).getVector(c).getNullCount() > 0;
            }
        }
        return columnHasNulls[column];
    }

    /** Column {@code column} of the build side; build row i is cell i. */
    FieldVector column(int column)
    {
        return batches.get(0).getVector(column);
    }

    private long[] hashes(VectorSchemaRoot batch, int rows)
    {
        long[] hashes = new long[rows];
        for (int key : keyColumns) {
            Columns.hashInto(batch.getVector(key), rows, hashes);
        }
        for (int row = 0; row < rows; row++) {
            hashes[row] = Columns.mix(hashes[row]);
        }
        return hashes;
    }

    private boolean keysHaveNull(VectorSchemaRoot batch)
    {
        FieldVector[] keys = new FieldVector[keyColumns.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = batch.getVector(keyColumns[k]);
        }
        return Columns.anyNull(keys, nullSafe);
    }

    private boolean hasExcludedNull(VectorSchemaRoot batch, int row)
    {
        for (int k = 0; k < keyColumns.length; k++) {
            if (!nullSafe[k] && batch.getVector(keyColumns[k]).isNull(row)) {
                return true;
            }
        }
        return false;
    }

    /** First build row whose key hash lands in the slot of {@code hash}, or -1. */
    int head(long hash)
    {
        return keyColumns.length == 0 ? heads[0] : heads[(int) hash & mask];
    }

    /** The key values of column {@code key} as longs by build row, or null if not integer-like. */
    long[] longKeys(int key)
    {
        return longKeys[key];
    }

    private boolean mayPartition()
    {
        return partitionable && context.canSpill();
    }

    /** Whether the finished table (rows copied into one batch, plus chains) would take the query past 3/4 of its budget. */
    private boolean wouldNotFit()
    {
        return context.memoryUsed() + heldBytes + tableBytes(rowCount, keyColumns.length) > context.memoryLimit() / 4 * 3;
    }

    /**
     * Switches to partitioned mode: the rows held so far go to the partitions first. The
     * partitioning runs on this thread and on helpers, one per other worker the query may use
     * up to {@link #MAX_PARTITIONING_HELPERS} (the probe instances only wait for the build
     * meanwhile), sharing the buffer budget.
     */
    private void startPartitioning()
    {
        // a few threads keep up with one reader; each keeps a file open per partition
        int helpers = Math.min(MAX_PARTITIONING_HELPERS, Math.max(0, context.parallelism() - 1));
        long bufferLimit = Math.max(256 * 1024, context.memoryLimit() / 8 / (helpers + 1));
        partitioner = new ParallelJoinPartitioner(context, helpers, () -> new JoinPartitioner(context, keyColumns, nullSafe, 0, GraceHashJoin.FAN_OUT, true, bufferLimit,
                GraceHashJoin.maxBatchBytes(context, probers), stats));
        // each held batch goes as soon as it is partitioned: held rows may fill most of the budget
        while (!batches.isEmpty()) {
            partitioner.add(batches.remove(0));
        }
        rowCount = 0;
        heldBytes = 0;
        memory.setHeld(0);
    }

    /** The partitioned build when it did not fit in memory (after {@link #ensureBuilt}), else null. */
    synchronized GraceHashJoin spilled()
    {
        return spilled;
    }

    /**
     * A probe instance closes without having handed its probe runs to a spilled join (or before
     * the build was even made): other instances must not wait for them.
     */
    synchronized void abandonProbe()
    {
        probeAbandoned = true;
        if (spilled != null) {
            spilled.abandon();
        }
    }

    OperatorStats stats()
    {
        return stats;
    }

    private void reserve(long bytes)
    {
        memory.grow(bytes);
        reserved += bytes;
    }

    private void release(long bytes)
    {
        memory.shrink(bytes);
        reserved -= bytes;
    }

    int next(int row)
    {
        return next[row];
    }

    int[] keyColumns()
    {
        return keyColumns;
    }

    int rowCount()
    {
        return rowCount;
    }

    /**
     * Called once by each probe instance when its input is exhausted; true for the last one,
     * which then emits the build rows that depend on matches (all marks are visible to it).
     */
    boolean finishProbe()
    {
        return probing.decrementAndGet() == 0;
    }

    void markMatched(int row)
    {
        matched[row] = true;
    }

    boolean isMatched(int row)
    {
        return matched[row];
    }

    List<VectorSchemaRoot> batches()
    {
        return batches;
    }

    /** Releases the build side when its last user closes. */
    @Override
    public synchronized void close()
    {
        users--;
        if (users > 0) {
            return;
        }
        try {
            batches.forEach(VectorSchemaRoot::close);
            batches.clear();
            if (partitioner != null) {
                partitioner.close();
                partitioner = null;
            }
            if (spilled != null) {
                spilled.close();
            }
        }
        finally {
            memory.close();
            reserved = 0;
        }
    }

    /** Returns the given batches, then null. */
    private static final class BatchListOperator
            implements Operator
    {
        private final List<VectorSchemaRoot> batches;
        private int next;

        BatchListOperator(List<VectorSchemaRoot> batches)
        {
            this.batches = batches;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (next == batches.size()) {
                return null;
            }
            VectorSchemaRoot batch = batches.get(next);
            batches.set(next++, null);
            return batch;
        }

        @Override
        public void close()
        {
            for (int i = next; i < batches.size(); i++) {
                batches.get(i).close();
            }
            batches.clear();
        }
    }
}
