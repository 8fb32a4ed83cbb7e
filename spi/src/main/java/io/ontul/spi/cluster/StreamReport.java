package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a worker tells the coordinator of a streaming job about its tasks of one attempt, in the
 * order they happened (a task's acknowledgements arrive in checkpoint order): its tasks are
 * prepared, a task acknowledged a checkpoint (with its sink's committable), failed (its error
 * code and message), or finished; and now and then every task's figures.
 *
 * @param committable for {@link Kind#ACK}, the task's sink committable for the checkpoint
 * @param errorCode for {@link Kind#FAILURE}, the name of the failure's {@link io.ontul.spi.ErrorCode}
 * @param tasks for {@link Kind#FIGURES}, every task of the worker as it is now
 */
public record StreamReport(Kind kind, String taskId, long checkpointId, byte[] committable, String errorCode, String message, List<StreamTaskFigures> tasks)
{
    public enum Kind
    {
        PREPARED, ACK, FAILURE, FINISHED, FIGURES
    }

    public StreamReport
    {
        requireNonNull(kind, "kind is null");
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    public static StreamReport prepared()
    {
        return new StreamReport(Kind.PREPARED, null, 0, null, null, null, List.of());
    }

    public static StreamReport ack(String taskId, long checkpointId, byte[] committable)
    {
        return new StreamReport(Kind.ACK, taskId, checkpointId, committable, null, null, List.of());
    }

    public static StreamReport failure(String taskId, String errorCode, String message)
    {
        return new StreamReport(Kind.FAILURE, taskId, 0, null, errorCode, message, List.of());
    }

    public static StreamReport finished(String taskId)
    {
        return new StreamReport(Kind.FINISHED, taskId, 0, null, null, null, List.of());
    }

    public static StreamReport figures(List<StreamTaskFigures> tasks)
    {
        return new StreamReport(Kind.FIGURES, null, 0, null, null, null, tasks);
    }
}
