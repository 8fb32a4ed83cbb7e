package io.ontul.engine.query;

/**
 * Where a statement is in its life: QUEUED (parsed and planned, waiting for a slot), RUNNING, then
 * exactly one of the final states. A statement that needs no slot (SHOW, SET, USE) goes from
 * QUEUED to RUNNING at once.
 */
public enum QueryState
{
    QUEUED,
    RUNNING,
    FINISHED,
    FAILED,
    CANCELLED;

    public boolean isDone()
    {
        return this == FINISHED || this == FAILED || this == CANCELLED;
    }
}
