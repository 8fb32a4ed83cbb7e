package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.BlockingQueue;

import io.ontul.engine.query.QueryContext;
import io.ontul.engine.stream.checkpoint.CheckpointCoordinator;
import io.ontul.engine.stream.checkpoint.CrashHook;

/**
 * What every task of a job's attempt shares: the job's query context (its memory budget and spill
 * space), the checkpoint store side of the coordinator that task snapshots are written through,
 * the queue of reports to the coordinator, and the test hook of the checkpoint protocol.
 */
public record TaskServices(QueryContext context, CheckpointCoordinator checkpoints, BlockingQueue<TaskReport> reports, CrashHook hook)
{
    public TaskServices
    {
        requireNonNull(context, "context is null");
        requireNonNull(checkpoints, "checkpoints is null");
        requireNonNull(reports, "reports is null");
        requireNonNull(hook, "hook is null");
    }
}
