package io.ontul.engine.system;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

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

    private record Column(Field field, Function<TaskStatus, Object> value) {}

    private static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;
    private static final ArrowType BIGINT = new ArrowType.Int(64, true);
    private static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);

    private static final List<Column> COLUMNS = List.of(
            column("job", VARCHAR, false, TaskStatus::job),
            column("task", VARCHAR, false, TaskStatus::taskId),
            column("kind", VARCHAR, false, TaskStatus::kind),
            column("assignment", VARCHAR, false, TaskStatus::assignment),
            column("records_in", BIGINT, false, TaskStatus::recordsIn),
            column("records_out", BIGINT, false, TaskStatus::recordsOut),
            column("watermark", TIMESTAMP, true, task -> task.watermark() == WatermarkTracker.NONE ? null : Instant.EPOCH.plus(task.watermark(), ChronoUnit.MICROS)),
            column("blocked_ms", BIGINT, false, TaskStatus::blockedMillis),
            column("last_checkpoint_ms", BIGINT, false, TaskStatus::lastCheckpointMillis),
            column("last_checkpoint_bytes", BIGINT, false, TaskStatus::lastCheckpointBytes));

    static final Schema SCHEMA_COLUMNS = new Schema(COLUMNS.stream().map(Column::field).toList());

    private StreamTasksTable() {}

    private static Column column(String name, ArrowType type, boolean nullable, Function<TaskStatus, Object> value)
    {
        return new Column(new Field(name, nullable ? FieldType.nullable(type) : FieldType.notNullable(type), null), value);
    }

    /** One batch holding {@code columns} (in that order) of {@code tasks}. */
    static VectorSchemaRoot batch(List<TaskStatus> tasks, List<String> columns, BufferAllocator allocator)
    {
        List<Column> selected = columns.stream()
                .map(name -> COLUMNS.stream().filter(column -> column.field().getName().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("No column " + name + " in system.runtime.stream_tasks")))
                .toList();
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(selected.stream().map(Column::field).toList()), allocator);
        try {
            root.allocateNew();
            for (int column = 0; column < selected.size(); column++) {
                FieldVector vector = root.getVector(column);
                for (int row = 0; row < tasks.size(); row++) {
                    QueriesTable.set(vector, row, selected.get(column).value().apply(tasks.get(row)));
                }
                vector.setValueCount(tasks.size());
            }
            root.setRowCount(tasks.size());
            return root;
        }
        catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }
}
