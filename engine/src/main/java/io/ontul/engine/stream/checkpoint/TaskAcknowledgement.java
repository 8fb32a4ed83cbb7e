package io.ontul.engine.stream.checkpoint;

import static java.util.Objects.requireNonNull;

/**
 * The message a task sends its job's coordinator once its part of checkpoint N is written: its
 * snapshot is in the checkpoint store and its sink's committable is attached. A plain value, so
 * that tasks can later run in other processes.
 */
public record TaskAcknowledgement(String taskId, long checkpointId, byte[] committable)
{
    public TaskAcknowledgement
    {
        requireNonNull(taskId, "taskId is null");
        requireNonNull(committable, "committable is null");
    }
}
