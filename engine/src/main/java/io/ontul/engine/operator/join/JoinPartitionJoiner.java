package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Joins one partition of a {@link GraceHashJoin}, one step per {@link #advance} call so output
 * leaves as it is made.
 * <p>
 * A partition whose build rows fit the instance's build budget is loaded into a
 * {@link JoinBuild} (appended batch by batch to one batch allocated for all its rows, where
 * the columns allow) and its probe runs stream past it. One that needs more than
 * {@link GraceHashJoin#MAX_CHUNKS_INSTEAD_OF_SPLIT} budgets is split again
 * ({@link JoinPartitioner}, next level) and its parts go back to the shared queue, unless it is
 * already {@linkplain JoinPartition#skewed skewed} or at {@link GraceHashJoin#MAX_LEVEL}. Else
 * its build rows are loaded in chunks that fit, and the probe runs are read once per chunk (a
 * block nested loop over hash tables, which ends however hot a key is). Build-side outcomes are
 * complete per chunk; probe-side outcomes (LEFT, FULL, SEMI, ANTI) need every chunk, so a set of
 * probe rows that matched in an earlier chunk is kept, indexed by the row's position in the
 * probe runs (read in the same order every time): SEMI emits a row at its first match, LEFT,
 * FULL and ANTI emit the rows still unmatched during the last chunk.
 */
final class JoinPartitionJoiner
        implements AutoCloseable
{
    private final OperatorContext context;
    private final GraceHashJoin join;
    private final JoinPartition partition;
    private final JoinSpec spec;
    private final Deque<VectorSchemaRoot> output;
    private boolean started;
    private boolean done;
    private Operator buildReader;
    private VectorSchemaRoot nextBuildBatch;
    private JoinBuild chunk;
    private JoinProbe probe;
    private JoinProbe.Matching matching;
    private boolean firstChunk = true;
    private int chunksLoaded;
    private boolean lastChunk;
    private Operator probeReader;
    private long probePosition;
    private BitSet matchedBefore;
    private MemoryReservation matchedMemory;

    JoinPartitionJoiner(OperatorContext context, GraceHashJoin join, JoinPartition partition, JoinSpec spec, Deque<VectorSchemaRoot> output)
    {
        this.context = requireNonNull(context, "context is null");
        this.join = requireNonNull(join, "join is null");
        this.partition = requireNonNull(partition, "partition is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.output = requireNonNull(output, "output is null");
    }

    /** Does one step (loads a chunk, matches part of a probe batch, splits the partition); false once the partition is joined. */
    boolean advance()
    {
        if (done) {
            return false;
        }
        context.checkCancelled();
        if (!started) {
            started = true;
            if (partition.cannotProduceRows(spec.joinType())) {
                return finish();
            }
            JoinPartitionRuns build = partition.build();
            long budget = join.buildBudget();
            long chunks = (join.buildCost(build) + budget - 1) / budget;
            if (chunks > GraceHashJoin.MAX_CHUNKS_INSTEAD_OF_SPLIT && !partition.skewed() && partition.level() < GraceHashJoin.MAX_LEVEL) {
                split();
                join.stats().recordRepartition();
                return finish();
            }
            if (partition.probe().rows() > Integer.MAX_VALUE) {
                throw new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "Hash join cannot spill: one of its partitions has " + partition.probe().rows()
                        + " probe rows, more than it can track (raise the limit with SET SESSION query_max_memory = '...')");
            }
            buildReader = build.open(context);
            nextBuildBatch = buildReader.next();
            if (!loadWhole(build, budget)) {
                loadChunk();
            }
            return true;
        }
        if (matching != null) {
            if (!matching.advance()) {
                emitProbeOutcome(matching);
                matching.close();
                matching = null;
            }
            return true;
        }
        VectorSchemaRoot batch = probeReader.next();
        if (batch == null) {
            probe.emitBuildRows();
            closeChunk();
            if (lastChunk) {
                return finish();
            }
            if (chunksLoaded == 1) {
                // a second chunk follows: the partition is joined in chunks
                join.stats().recordChunkedPartition();
            }
            loadChunk();
            return true;
        }
        matching = probe.start(batch);
        return true;
    }

    /** True when one side is empty and the join type outputs nothing for the other side's rows. */
    private void split()
    {
        int level = partition.level() + 1;
        int fanOut = GraceHashJoin.splitFanOut(join.buildCost(partition.build()), join.buildBudget());
        List<JoinPartitionRuns> builds = split(partition.build(), join.buildKeys(), level, fanOut, true);
        List<JoinPartitionRuns> probes;
        try {
            probes = split(partition.probe(), spec.probeKeys(), level, fanOut, spec.keepsProbeRowsWithNullKeys());
        }
        catch (RuntimeException e) {
            builds.forEach(JoinPartitionRuns::delete);
            throw e;
        }
        long parentRows = partition.build().rows();
        List<JoinPartition> parts = new ArrayList<>(builds.size());
        for (int p = 0; p < builds.size(); p++) {
            boolean skewed = builds.get(p).rows() > parentRows / 4 * 3;
            parts.add(new JoinPartition(level, builds.get(p), probes.get(p), skewed));
        }
        join.addPartitions(parts);
    }

    private List<JoinPartitionRuns> split(JoinPartitionRuns runs, int[] keys, int level, int fanOut, boolean keepRowsWithNullKeys)
    {
        try (JoinPartitioner partitioner = new JoinPartitioner(context, keys, join.nullSafe(), level, fanOut, keepRowsWithNullKeys, join.partitionBufferBytes(),
                join.maxBatchBytes(), join.stats());
                Operator reader = runs.open(context)) {
            for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
                try (VectorSchemaRoot batch = next) {
                    partitioner.add(batch);
                }
            }
            return partitioner.finish();
        }
    }

    /**
     * Loads every build row of the partition into one batch allocated for all of them up front,
     * appending the batches as they are read, when that fits the budget
     * ({@link GraceHashJoin#wholeBuildBytes}): this holds the rows once, where loading batches
     * and combining them holds them twice. False, having loaded nothing, otherwise.
     */
    private boolean loadWhole(JoinPartitionRuns build, long budget)
    {
        if (nextBuildBatch == null || build.rows() > Integer.MAX_VALUE || join.wholeBuildBytes(build, build.memoryBytes()) > budget) {
            return false;
        }
        Optional<VectorSchemaRoot> allocated = Batches.allocateForAppending(nextBuildBatch.getSchema(), (int) build.rows(), build.valueBytes(), context.allocator());
        if (allocated.isEmpty()) {
            return false;
        }
        VectorSchemaRoot whole = allocated.get();
        try {
            if (join.wholeBuildBytes(build, Batches.allocatedBytes(List.of(whole))) > budget) {
                whole.close();
                return false;
            }
            VectorSchemaRoot first = nextBuildBatch;
            nextBuildBatch = null;
            Batches.appendAll(whole, first, buildReader, context);
        }
        catch (RuntimeException e) {
            whole.close();
            throw e;
        }
        startChunk(new ArrayList<>(List.of(whole)), true);
        return true;
    }

    /** Loads the next build rows that fit the budget (at least one batch) and starts a pass over the probe runs. */
    private void loadChunk()
    {
        List<VectorSchemaRoot> batches = new ArrayList<>();
        try {
            long budget = join.buildBudget();
            while (nextBuildBatch != null) {
                batches.add(nextBuildBatch);
                if (batches.size() > 1 && JoinBuild.buildBytes(batches, join.buildKeys().length) > budget) {
                    batches.remove(batches.size() - 1);
                    break;
                }
                nextBuildBatch = null;
                nextBuildBatch = buildReader.next();
            }
        }
        catch (RuntimeException e) {
            Batches.closeAll(batches);
            throw e;
        }
        startChunk(batches, nextBuildBatch == null);
    }

    /** Builds the table over {@code batches} (taken over) and starts a pass over the probe runs. */
    private void startChunk(List<VectorSchemaRoot> batches, boolean last)
    {
        lastChunk = last;
        try {
            if (!(firstChunk && lastChunk) && matchedBefore == null && tracksProbeMatches()) {
                long bytes = partition.probe().rows() / 8 + 64;
                matchedMemory = context.memoryReservation("HashJoin probe matches", false);
                matchedMemory.grow(bytes);
                matchedBefore = new BitSet((int) partition.probe().rows());
            }
        }
        catch (RuntimeException e) {
            Batches.closeAll(batches);
            throw e;
        }
        firstChunk = false;
        chunksLoaded++;
        chunk = JoinBuild.inMemory(context, batches, join.buildKeys(), join.nullSafe(), join.stats());
        probe = new JoinProbe(context, chunk, spec, output);
        probeReader = partition.probe().open(context);
        probePosition = 0;
    }

    private boolean tracksProbeMatches()
    {
        JoinType type = spec.joinType();
        return type == JoinType.LEFT || type == JoinType.FULL || type == JoinType.SEMI || type == JoinType.ANTI;
    }

    private void emitProbeOutcome(JoinProbe.Matching finished)
    {
        VectorSchemaRoot batch = finished.batch();
        boolean[] matched = finished.matched();
        int rows = matched.length;
        int base = (int) probePosition;
        probePosition += rows;
        JoinType type = spec.joinType();
        if (type == JoinType.SEMI) {
            boolean[] firstMatch = new boolean[rows];
            for (int row = 0; row < rows; row++) {
                firstMatch[row] = matched[row] && !matchedBefore(base + row);
            }
            probe.emitProbeRows(batch, firstMatch, false);
        }
        else if (lastChunk && (type == JoinType.LEFT || type == JoinType.FULL || type == JoinType.ANTI)) {
            boolean[] neverMatched = new boolean[rows];
            for (int row = 0; row < rows; row++) {
                neverMatched[row] = !matched[row] && !matchedBefore(base + row);
            }
            probe.emitProbeRows(batch, neverMatched, type != JoinType.ANTI);
        }
        if (matchedBefore != null && !lastChunk) {
            for (int row = 0; row < rows; row++) {
                if (matched[row]) {
                    matchedBefore.set(base + row);
                }
            }
        }
    }

    private boolean matchedBefore(int position)
    {
        return matchedBefore != null && matchedBefore.get(position);
    }

    private void closeChunk()
    {
        if (matching != null) {
            matching.close();
            matching = null;
        }
        if (probeReader != null) {
            probeReader.close();
            probeReader = null;
        }
        if (chunk != null) {
            chunk.close();
            chunk = null;
        }
        probe = null;
    }

    private boolean finish()
    {
        done = true;
        close();
        partition.delete();
        return false;
    }

    @Override
    public void close()
    {
        try {
            closeChunk();
            if (nextBuildBatch != null) {
                nextBuildBatch.close();
                nextBuildBatch = null;
            }
            if (buildReader != null) {
                buildReader.close();
                buildReader = null;
            }
        }
        finally {
            if (matchedMemory != null) {
                matchedMemory.close();
                matchedMemory = null;
            }
            matchedBefore = null;
        }
    }
}
