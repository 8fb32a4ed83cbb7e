package io.ontul.engine.system;

import static io.ontul.engine.system.SystemColumns.BIGINT;
import static io.ontul.engine.system.SystemColumns.TIMESTAMP;
import static io.ontul.engine.system.SystemColumns.VARCHAR;
import static io.ontul.engine.system.SystemColumns.column;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import io.ontul.engine.stream.task.TaskStatus;
import io.ontul.engine.stream.window.WatermarkTracker;

/**
 * {@code system.runtime.stream_tasks}: one row per task of every running streaming job, as
 * DESCRIBE STREAMING JOB lists them: what the task owns (its Kafka partitions or its key groups),
 * its records in and out, its watermark (TIMESTAMP in UTC, null before the first), the time it
 * waited for room downstream (back-pressure) and its part of the last checkpoint.
 */
final class StreamTasksTable
{
    static final String SCHEMA = QueriesTable.SCHEMA;
    static final String NAME = "stream_tasks";

    static final SystemColumns<TaskStatus> COLUMNS = new SystemColumns<>("system.runtime.stream_tasks", List.of(
            column("job", VARCHAR, false, TaskStatus::job),
            column("task", VARCHAR, false, TaskStatus::taskId),
            column("kind", VARCHAR, false, TaskStatus::kind),
            column("assignment", VARCHAR, false, TaskStatus::assignment),
            column("records_in", BIGINT, false, TaskStatus::recordsIn),
            column("records_out", BIGINT, false, TaskStatus::recordsOut),
            column("watermark", TIMESTAMP, true, task -> task.watermark() == WatermarkTracker.NONE ? null : Instant.EPOCH.plus(task.watermark(), ChronoUnit.MICROS)),
            column("blocked_ms", BIGINT, false, TaskStatus::blockedMillis),
            column("last_checkpoint_ms", BIGINT, false, TaskStatus::lastCheckpointMillis),
            column("last_checkpoint_bytes", BIGINT, false, TaskStatus::lastCheckpointBytes)));

    private StreamTasksTable() {}
}
