package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

/**
 * One task of a running job as DESCRIBE STREAMING JOB and {@code system.runtime.stream_tasks}
 * show it.
 *
 * @param kind {@code source} or {@code window}
 * @param assignment what the task owns: its partitions, or its range of key groups
 * @param watermark epoch microseconds, or {@link io.ontul.engine.stream.window.WatermarkTracker#NONE}
 * @param blockedMillis time the task waited for room in the channels it sends to (back-pressure)
 * @param lastCheckpointMillis time the task spent on its part of the last checkpoint (sink pre-commit and snapshot)
 * @param node the id of the worker the task runs on; null when it runs in this process
 */
public record TaskStatus(String job, String taskId, String kind, String assignment, long recordsIn, long recordsOut, long watermark, long blockedMillis,
        long lastCheckpointMillis, long lastCheckpointBytes, String node)
{
    /** A task of this process. */
    public TaskStatus(String job, String taskId, String kind, String assignment, long recordsIn, long recordsOut, long watermark, long blockedMillis,
            long lastCheckpointMillis, long lastCheckpointBytes)
    {
        this(job, taskId, kind, assignment, recordsIn, recordsOut, watermark, blockedMillis, lastCheckpointMillis, lastCheckpointBytes, null);
    }

    public TaskStatus
    {
        requireNonNull(job, "job is null");
        requireNonNull(taskId, "taskId is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(assignment, "assignment is null");
    }
}
