package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

import io.ontul.engine.stream.checkpoint.Ack;

/** What a task tells its job's coordinator: the only way tasks talk to it. */
public sealed interface TaskReport
        permits TaskReport.Acknowledged, TaskReport.Failure, TaskReport.Finished
{
    String taskId();

    /** The task's part of a checkpoint is written. */
    record Acknowledged(Ack ack)
            implements TaskReport
    {
        public Acknowledged
        {
            requireNonNull(ack, "ack is null");
        }

        @Override
        public String taskId()
        {
            return ack.taskId();
        }
    }

    /** The task failed; the job's attempt ends. */
    record Failure(String taskId, Throwable cause)
            implements TaskReport
    {
        public Failure
        {
            requireNonNull(taskId, "taskId is null");
            requireNonNull(cause, "cause is null");
        }
    }

    /** The task ended after its input did. */
    record Finished(String taskId)
            implements TaskReport {}
}
