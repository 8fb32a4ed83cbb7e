package io.ontul.engine.operator.join;

/**
 * Join kinds the join operator runs. The probe side is the left input of the operator, the
 * build side the right. RIGHT_SEMI and RIGHT_ANTI return the build rows that have (or lack) a
 * match: a semi or anti join whose small side is hashed while the large side streams past.
 */
public enum JoinType
{
    INNER, LEFT, RIGHT, FULL, SEMI, ANTI, RIGHT_SEMI, RIGHT_ANTI;

    /** True when build rows are emitted after probing (unmatched for RIGHT/FULL, by match for RIGHT_*). */
    public boolean tracksBuildMatches()
    {
        return this == RIGHT || this == FULL || this == RIGHT_SEMI || this == RIGHT_ANTI;
    }

    public boolean emitsUnmatchedProbeRows()
    {
        return this == LEFT || this == FULL;
    }

    /** True when only one side's columns are output. */
    public boolean outputsOneSide()
    {
        return this == SEMI || this == ANTI || this == RIGHT_SEMI || this == RIGHT_ANTI;
    }
}
