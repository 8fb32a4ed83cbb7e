package io.ontul.engine.operator.join;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.expression.ProjectionKernel;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.SpillRunsReader;
import io.ontul.exchange.spill.SpillRun;

/**
 * Probe side of a hash join (or of a nested-loop join when there are no keys), one instance per
 * parallel pipeline over a shared {@link JoinBuild}.
 * <p>
 * In memory, each probe batch is matched against the build ({@link JoinProbe}), one batch of
 * joined rows at a time, and emitted per join type: joined rows, unmatched probe rows with NULLs
 * (LEFT, FULL), probe rows with/without a match (SEMI, ANTI), and at the end build rows by match
 * (RIGHT, FULL, RIGHT_SEMI, RIGHT_ANTI), by the last instance to finish.
 * <p>
 * When the build side was spilled in partitions ({@link GraceHashJoin}), each instance first
 * partitions its whole probe input the same way and hands the runs over, waits for the other
 * instances to do the same, then joins whole partitions taken from the shared queue until none
 * is left ({@link JoinPartitionJoiner}); the instances join different partitions in parallel.
 * Before those, with several instances, the partitions too large for one instance's budget but
 * not for all of theirs are joined by all instances together, one at a time
 * ({@link SharedPartition}).
 * Probe rows of the build partitions kept in memory ({@link ResidentPartitions}) are not
 * written out: they are matched as they come, as in memory.
 */
public final class HashJoinOperator
        implements Operator
{
    private enum SpilledPhase
    {
        PARTITION_PROBE, AWAIT_PROBES, JOIN_SHARED, JOIN_PARTITIONS, DONE
    }

    private final OperatorContext context;
    private final Operator probe;
    private final JoinBuild build;
    private final JoinSpec spec;
    private final boolean probeStreams;
    private final Deque<VectorSchemaRoot> ready = new ArrayDeque<>();
    private JoinProbe inMemory;
    private JoinProbe.Matching matching;
    private GraceHashJoin spilled;
    private boolean probeDone;
    private boolean finished;
    private SpilledPhase phase = SpilledPhase.PARTITION_PROBE;
    private JoinPartitioner probePartitioner;
    private JoinPartitionJoiner joiner;
    // the build partitions kept in memory, until this instance releases them
    private ResidentPartitions resident;
    private JoinProbe residentProbe;
    // the partition joined together with the other instances, and this instance's place in their order
    private int sharedIndex;
    private SharedPartition shared;
    private JoinProbe sharedProbe;
    private Operator sharedRunReader;

    public HashJoinOperator(OperatorContext context, Operator probe, JoinBuild build, JoinType joinType, int[] probeKeys, boolean[] nullSafe,
            ProjectionKernel residual, Schema joinedSchema, Schema outputSchema, int probeColumnCount)
    {
        this(context, probe, build, joinType, probeKeys, nullSafe, residual, joinedSchema, outputSchema, probeColumnCount, false);
    }

    /**
     * @param probeStreams the probe input only streams rows (scans, filters, projections) and
     * holds no memory that grows: a spilled join may then buffer more of its probe rows
     * ({@link GraceHashJoin#probeBufferBytes})
     */
    public HashJoinOperator(OperatorContext context, Operator probe, JoinBuild build, JoinType joinType, int[] probeKeys, boolean[] nullSafe,
            ProjectionKernel residual, Schema joinedSchema, Schema outputSchema, int probeColumnCount, boolean probeStreams)
    {
        this.probeStreams = probeStreams;
        this.context = context;
        this.probe = probe;
        this.build = build;
        this.spec = new JoinSpec(joinType, probeKeys, nullSafe, residual, joinedSchema, outputSchema, probeColumnCount);
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (inMemory == null && spilled == null) {
            build.ensureBuilt();
            spilled = build.spilled();
            if (spilled == null) {
                inMemory = new JoinProbe(context, build, spec, ready);
            }
        }
        if (spilled != null) {
            return nextSpilled(spilled);
        }
        while (ready.isEmpty()) {
            if (matching != null) {
                advanceMatching(inMemory);
                continue;
            }
            if (probeDone) {
                if (finished) {
                    return null;
                }
                finished = true;
                if (spec.joinType().tracksBuildMatches() && build.finishProbe()) {
                    inMemory.emitBuildRows();
                }
                continue;
            }
            VectorSchemaRoot batch = probe.next();
            if (batch == null) {
                probeDone = true;
                continue;
            }
            matching = inMemory.start(batch);
        }
        return ready.poll();
    }

    private VectorSchemaRoot nextSpilled(GraceHashJoin join)
    {
        while (ready.isEmpty()) {
            switch (phase) {
                case PARTITION_PROBE -> {
                    if (!partitionProbe(join)) {
                        phase = SpilledPhase.AWAIT_PROBES;
                    }
                }
                case AWAIT_PROBES -> phase = join.awaitProbeRuns() ? SpilledPhase.JOIN_SHARED : SpilledPhase.DONE;
                case JOIN_SHARED -> {
                    if (!joinShared(join)) {
                        phase = join.isAbandoned() ? SpilledPhase.DONE : SpilledPhase.JOIN_PARTITIONS;
                    }
                }
                case JOIN_PARTITIONS -> {
                    if (joiner == null) {
                        JoinPartition partition = join.nextPartition();
                        if (partition == null) {
                            phase = SpilledPhase.DONE;
                            continue;
                        }
                        joiner = new JoinPartitionJoiner(context, join, partition, spec, ready);
                    }
                    if (!joiner.advance()) {
                        joiner.close();
                        joiner = null;
                    }
                }
                case DONE -> {
                    return null;
                }
            }
        }
        return ready.poll();
    }

    /**
     * One step of partitioning the probe input: matches part of a batch of rows of the resident
     * partitions, or partitions the next batch. At the end of the input, hands the runs over and
     * returns false.
     */
    private boolean partitionProbe(GraceHashJoin join)
    {
        if (probePartitioner == null) {
            probePartitioner = new JoinPartitioner(context, spec.probeKeys(), spec.nullSafe(), 0, join.fanOut(), spec.keepsProbeRowsWithNullKeys(),
                    () -> join.probeBufferBytes(probeStreams), join.maxBatchBytes(), join.stats());
            resident = join.resident();
            if (resident != null) {
                residentProbe = new JoinProbe(context, resident.build(), spec, ready);
            }
        }
        if (matching != null) {
            advanceMatching(residentProbe);
            return true;
        }
        VectorSchemaRoot next = probe.next();
        if (next == null) {
            // buffers written out first: the resident build rows emitted next need the room
            List<JoinPartitionRuns> runs = probePartitioner.finish();
            probePartitioner.close();
            probePartitioner = null;
            try {
                if (resident != null && spec.joinType().tracksBuildMatches() && resident.finishProbe()) {
                    residentProbe.emitBuildRows();
                }
                // released before the runs are handed over: the partitions on disk are joined once all are
                releaseResident();
            }
            catch (RuntimeException e) {
                runs.forEach(JoinPartitionRuns::delete);
                throw e;
            }
            join.addProbeRuns(runs);
            return false;
        }
        try (VectorSchemaRoot batch = next) {
            context.checkCancelled();
            VectorSchemaRoot residentRows = probePartitioner.add(batch, resident == null ? null : resident.mask());
            if (residentRows != null) {
                matching = residentProbe.start(residentRows);
            }
        }
        return true;
    }

    /**
     * One step of joining the partitions shared by every instance ({@link SharedPartition}):
     * matches part of a batch, reads the next batch of a probe run taken, or moves to the next
     * partition. False when none is left.
     */
    private boolean joinShared(GraceHashJoin join)
    {
        if (matching != null) {
            advanceMatching(sharedProbe);
            return true;
        }
        if (shared == null) {
            shared = join.sharedPartition(sharedIndex, spec.joinType());
            if (shared == null) {
                return false;
            }
            sharedIndex++;
            if (!shared.inMemory()) {
                // did not fit once read: joined from disk with the others
                shared = null;
                return true;
            }
            sharedProbe = new JoinProbe(context, shared.build(), spec, ready);
        }
        if (sharedRunReader == null) {
            SpillRun run = shared.nextProbeRun();
            if (run == null) {
                SharedPartition done = shared;
                shared = null;
                try {
                    if (spec.joinType().tracksBuildMatches() && done.finishProbe()) {
                        sharedProbe.emitBuildRows();
                    }
                }
                finally {
                    sharedProbe = null;
                    join.release(done);
                }
                return true;
            }
            sharedRunReader = new SpillRunsReader(context, List.of(run));
        }
        context.checkCancelled();
        VectorSchemaRoot batch = sharedRunReader.next();
        if (batch == null) {
            sharedRunReader.close();
            sharedRunReader = null;
            return true;
        }
        matching = sharedProbe.start(batch);
        return true;
    }

    /** Matches part of the current probe batch against {@code probe}'s build; at its end, emits the batch's probe-side outcome. */
    private void advanceMatching(JoinProbe probe)
    {
        context.checkCancelled();
        if (!matching.advance()) {
            probe.emitProbeOutcome(matching);
            matching.close();
            matching = null;
        }
    }

    private void releaseResident()
    {
        if (resident != null) {
            resident.release();
            resident = null;
            residentProbe = null;
        }
    }

    @Override
    public void close()
    {
        try {
            ready.forEach(VectorSchemaRoot::close);
            ready.clear();
            if (matching != null) {
                matching.close();
                matching = null;
            }
            if (joiner != null) {
                joiner.close();
                joiner = null;
            }
            if (sharedRunReader != null) {
                sharedRunReader.close();
                sharedRunReader = null;
            }
            if (phase == SpilledPhase.AWAIT_PROBES || phase == SpilledPhase.JOIN_SHARED) {
                // the others would wait for this instance's release of each shared partition to come
                spilled.abandon();
                if (shared != null) {
                    spilled.release(shared);
                    shared = null;
                }
            }
            releaseResident();
            if (probePartitioner != null) {
                probePartitioner.close();
                probePartitioner = null;
            }
            if (phase == SpilledPhase.PARTITION_PROBE) {
                build.abandonProbe();
            }
            probe.close();
        }
        finally {
            build.close();
        }
    }
}
