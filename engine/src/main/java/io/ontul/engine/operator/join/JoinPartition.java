package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

/**
 * One partition of a spilled hash join: the build rows and the probe rows whose keys hash to it
 * at {@code level} (0 for the first split, one more for each re-partitioning). {@code skewed}
 * marks a partition that re-partitioning hardly shrank (a hot key): it is not split again.
 */
record JoinPartition(int level, JoinPartitionRuns build, JoinPartitionRuns probe, boolean skewed)
{
    JoinPartition
    {
        requireNonNull(build, "build is null");
        requireNonNull(probe, "probe is null");
    }

    /** Whether joining this partition by {@code type} yields nothing: a side it needs rows from is empty. */
    boolean cannotProduceRows(JoinType type)
    {
        if (build.rows() == 0 && type != JoinType.LEFT && type != JoinType.FULL && type != JoinType.ANTI) {
            return true;
        }
        return probe.rows() == 0 && type != JoinType.RIGHT && type != JoinType.FULL && type != JoinType.RIGHT_ANTI;
    }

    void delete()
    {
        build.delete();
        probe.delete();
    }
}
