package io.ontul.engine.operator;

/** Join kinds the join operator runs. The probe side is the left input, the build side the right. */
public enum JoinType
{
    INNER, LEFT, RIGHT, FULL, SEMI, ANTI;

    /** True when unmatched build rows must be emitted, which needs a single probe instance. */
    public boolean emitsUnmatchedBuildRows()
    {
        return this == RIGHT || this == FULL;
    }

    public boolean emitsUnmatchedProbeRows()
    {
        return this == LEFT || this == FULL;
    }
}
