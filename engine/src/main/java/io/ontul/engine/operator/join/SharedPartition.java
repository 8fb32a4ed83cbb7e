package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.ontul.exchange.spill.SpillRun;

/**
 * A partition of a spilled hash join too large for one probe instance's build budget but not
 * for all of theirs together ({@link GraceHashJoin#sharedBudget}): its build rows are read back
 * once into memory and every instance probes some of its probe runs against them, as the
 * instances of an in-memory join share one build. Joined alone, such a partition would be
 * loaded in chunks and its probe runs read once per chunk.
 * <p>
 * Protocol, for each of the join's probe instances, partition after partition in the order
 * {@link GraceHashJoin#sharedPartition} hands them out: take probe runs with
 * {@link #nextProbeRun} until there are none; then, for a join type with build-side outcomes
 * (RIGHT, FULL, RIGHT_SEMI, RIGHT_ANTI), call {@link #finishProbe} once (true for the last
 * instance, which emits them); then release it with {@link GraceHashJoin#release}. The last release frees the build, and only then is the
 * next shared partition loaded. A partition that did not fit once read ({@link #inMemory}
 * false) is joined from disk like any other instead, and needs none of these calls.
 * Thread-safe.
 */
public final class SharedPartition
{
    private final ResidentPartitions build;
    private final List<SpillRun> probeRuns;
    private int nextRun;

    /**
     * @param build the build rows in memory, or null when they did not fit
     * @param probeRuns the partition's probe runs (one per instance that wrote rows to it)
     */
    SharedPartition(ResidentPartitions build, List<SpillRun> probeRuns)
    {
        this.build = build;
        this.probeRuns = List.copyOf(requireNonNull(probeRuns, "probeRuns is null"));
    }

    boolean inMemory()
    {
        return build != null;
    }

    JoinBuild build()
    {
        return build.build();
    }

    /** The next probe run no instance has taken yet, or null when all are taken. */
    synchronized SpillRun nextProbeRun()
    {
        return nextRun < probeRuns.size() ? probeRuns.get(nextRun++) : null;
    }

    /** Called once by each instance when it has probed all the runs it took; true for the last one. */
    boolean finishProbe()
    {
        return build.finishProbe();
    }

    /** An instance is done with the build; the last one frees it. */
    void release()
    {
        build.release();
    }

    /** Deletes the probe runs' files (idempotent): called once every instance has released the partition. */
    void deleteProbeRuns()
    {
        probeRuns.forEach(SpillRun::delete);
    }

    boolean released()
    {
        return build == null || build.released();
    }

    /** Frees the build, whichever instances still hold it (the join is closing). */
    void close()
    {
        if (build != null) {
            build.close();
        }
    }
}
