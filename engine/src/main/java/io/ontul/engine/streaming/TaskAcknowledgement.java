package io.ontul.engine.streaming;

import static java.util.Objects.requireNonNull;

/**
 * The message a task sends its job's coordinator once its part of checkpoint N is written: its
 * snapshot is in the checkpoint store and its sink's committable is attached. A plain value, so
 * that tasks can later run in other processes.
 */
record TaskAcknowledgement(String taskId, long checkpointId, byte[] committable)
{
    TaskAcknowledgement
    {
        requireNonNull(taskId, "taskId is null");
        requireNonNull(committable, "committable is null");
    }
}
