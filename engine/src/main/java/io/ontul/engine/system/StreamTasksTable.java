package io.ontul.engine.system;

import static io.ontul.engine.system.SystemColumns.BIGINT;
import static io.ontul.engine.system.SystemColumns.TIMESTAMP;
import static io.ontul.engine.system.SystemColumns.VARCHAR;
import static io.ontul.engine.system.SystemColumns.column;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code system.runtime.stream_tasks}: one row per task of every running streaming job, as
 * DESCRIBE STREAMING JOB lists them: what the task owns (its Kafka partitions or its key groups),
 * its records in and out, its watermark (TIMESTAMP in UTC, null before the first), the time it
 * waited for room downstream (back-pressure) and its part of the last checkpoint.
 */
public final class StreamTasksTable
{
    static final String SCHEMA = QueriesTable.SCHEMA;
    static final String NAME = "stream_tasks";

    /**
     * One row: a task as the streaming runtime reports it (the engine maps its tasks to these, so
     * that this package does not depend on the runtime).
     *
     * @param watermark epoch microseconds, or empty before the first
     * @param node the id of the node the task runs on (a worker, or this process)
     */
    public record Row(String job, String task, String kind, String assignment, long recordsIn, long recordsOut, java.util.OptionalLong watermark, long blockedMillis,
            long lastCheckpointMillis, long lastCheckpointBytes, String node) {}

    static final SystemColumns<Row> COLUMNS = new SystemColumns<>("system.runtime.stream_tasks", List.of(
            column("job", VARCHAR, false, Row::job),
            column("task", VARCHAR, false, Row::task),
            column("kind", VARCHAR, false, Row::kind),
            column("assignment", VARCHAR, false, Row::assignment),
            column("records_in", BIGINT, false, Row::recordsIn),
            column("records_out", BIGINT, false, Row::recordsOut),
            column("watermark", TIMESTAMP, true, row -> row.watermark().isEmpty() ? null : Instant.EPOCH.plus(row.watermark().getAsLong(), ChronoUnit.MICROS)),
            column("blocked_ms", BIGINT, false, Row::blockedMillis),
            column("last_checkpoint_ms", BIGINT, false, Row::lastCheckpointMillis),
            column("last_checkpoint_bytes", BIGINT, false, Row::lastCheckpointBytes),
            column("node", VARCHAR, false, Row::node)));

    private StreamTasksTable() {}
}
