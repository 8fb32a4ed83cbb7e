package io.ontul.engine.stream.job;

import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;

import io.ontul.engine.stream.task.TaskReport;
import io.ontul.engine.stream.task.TaskStatus;

/**
 * One attempt of a job as its coordinator ({@link StreamingJob}) drives it: the tasks run in this
 * process ({@link JobAttempt}) or on the workers of a cluster ({@link DistributedAttempt}); either
 * way the coordinator injects barriers, takes the tasks' reports in order and completes
 * checkpoints alike.
 */
interface Attempt
        extends AutoCloseable
{
    /** Starts every task, the receiving tasks first. */
    void start(String jobName);

    /** The tasks' reports, each task's in the order it made them. */
    BlockingQueue<TaskReport> reports();

    /** The ids of every task: each acknowledges every checkpoint. */
    Set<String> taskIds();

    void injectBarrier(long checkpointId);

    void checkpointCompleted(long checkpointId);

    /** Asks the source tasks to stop reading; their end of input then ends the window tasks. */
    void endSources();

    /** Waits a while for every task to end; false if some did not. */
    boolean join();

    /** Records the source tasks read. */
    long recordsIn();

    /** Undecodable records the source tasks set aside. */
    long recordsRejected();

    /** Rows the window tasks dropped as late. */
    long recordsLate();

    /** The job's records out: written by the window tasks of a windowed job, by the source tasks of a stateless one. */
    long recordsOut();

    /** The job's watermark: the least of its window tasks', or none for a stateless job. */
    long watermark();

    /** Records behind the partitions' ends over all source tasks, or -1 when no task knows. */
    long lag();

    /** {@link #lag()} per source partition (split id), for those whose task knows it. */
    java.util.Map<String, Long> partitionLags();

    /** Every task as it is now, sources first. */
    List<TaskStatus> statuses(String jobName);

    long lastCheckpointBytes();

    /** Ends the attempt: stops the tasks, whatever they hold is freed and what their sinks did not prepare is dropped. */
    @Override
    void close();
}
