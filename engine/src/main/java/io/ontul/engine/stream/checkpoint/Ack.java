package io.ontul.engine.stream.checkpoint;

import static java.util.Objects.requireNonNull;

/**
 * The message a task sends its job's coordinator once its part of checkpoint N is written: its
 * snapshot (the state handle) is in the checkpoint store under the job, the checkpoint and the
 * task's id, and its sinks' committable is attached. A plain value, so that tasks can later run
 * in other processes.
 */
public record Ack(String taskId, long checkpointId, byte[] committable)
{
    public Ack
    {
        requireNonNull(taskId, "taskId is null");
        requireNonNull(committable, "committable is null");
    }
}
