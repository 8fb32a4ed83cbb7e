package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.expression.ProjectionKernel;

/**
 * What one probe instance of a hash join needs to know besides the build side: the join type,
 * the probe key columns (and which keys are null-safe), the residual condition over joined rows
 * (null when there is none; one compiled kernel per instance), the joined and output schemas
 * and the number of probe columns that lead a joined row.
 */
record JoinSpec(JoinType joinType, int[] probeKeys, boolean[] nullSafe, ProjectionKernel residual, Schema joinedSchema, Schema outputSchema, int probeColumnCount)
{
    JoinSpec
    {
        requireNonNull(joinType, "joinType is null");
        requireNonNull(probeKeys, "probeKeys is null");
        requireNonNull(nullSafe, "nullSafe is null");
        requireNonNull(joinedSchema, "joinedSchema is null");
        requireNonNull(outputSchema, "outputSchema is null");
    }

    /** Probe rows that cannot match (a NULL in a key that is not null-safe) still reach the output. */
    boolean keepsProbeRowsWithNullKeys()
    {
        return joinType == JoinType.LEFT || joinType == JoinType.FULL || joinType == JoinType.ANTI;
    }
}
