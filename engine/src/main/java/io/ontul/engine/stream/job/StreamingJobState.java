package io.ontul.engine.stream.job;



/**
 * Where a streaming job is in its life. CREATED until it first runs; RUNNING while it reads and
 * checkpoints; RESTARTING between a failure and the next attempt; STOPPED after STOP STREAMING
 * JOB (its final checkpoint committed); FAILED when the restart attempts ran out. A job stored as
 * RUNNING or RESTARTING is resumed when the engine starts.
 */
public enum StreamingJobState
{
    CREATED, RUNNING, RESTARTING, STOPPED, FAILED;

    public boolean resumesOnStart()
    {
        return this == RUNNING || this == RESTARTING;
    }
}
