package io.ontul.engine.stream.task;

import java.util.Queue;

/**
 * How a task's thread ends: with a report to its job's coordinator, never silently. Whatever the
 * task's work throws (an error too) becomes a {@link TaskReport.Failure} carrying it, after the
 * task's resources are closed; a task that ends its input reports {@link TaskReport.Finished}; a
 * task stopped by its attempt (aborted, or its channels closed) reports nothing: the attempt is
 * ending anyway.
 */
final class TaskReporting
{
    /** A task's work: true when it ended its input, false when it was stopped. */
    interface Work
    {
        boolean run()
                throws Exception;
    }

    private TaskReporting() {}

    static void run(String taskId, Queue<TaskReport> reports, Work work)
    {
        try {
            if (work.run()) {
                reports.add(new TaskReport.Finished(taskId));
            }
        }
        catch (Throwable e) {
            reports.add(new TaskReport.Failure(taskId, e));
        }
    }
}
