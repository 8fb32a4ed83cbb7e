package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A checkpoint whose metadata file was written: every task snapshot in it is whole, and a job
 * restarting from it finds its state, task metadata and checkpoint metadata here.
 */
public final class CompletedCheckpoint
{
    private final CheckpointRecord record;
    private final List<TaskSnapshot> tasks;

    CompletedCheckpoint(CheckpointFileSystem files, CheckpointLayout layout, CheckpointRecord record)
    {
        requireNonNull(files, "files is null");
        requireNonNull(layout, "layout is null");
        this.record = requireNonNull(record, "record is null");
        this.tasks = record.tasks().stream()
                .map(task -> new TaskSnapshot(files, layout, record.job(), record.checkpointId(), task))
                .toList();
    }

    public String job()
    {
        return record.job();
    }

    public long checkpointId()
    {
        return record.checkpointId();
    }

    public Instant completedAt()
    {
        return record.completedAt();
    }

    /** What the coordinator passed to {@link CheckpointStore#complete}, sorted by key. */
    public Map<String, String> metadata()
    {
        return record.metadata();
    }

    /** The task snapshots, by task id. */
    public List<TaskSnapshot> tasks()
    {
        return tasks;
    }

    public List<String> taskIds()
    {
        return tasks.stream().map(TaskSnapshot::taskId).toList();
    }

    public Optional<TaskSnapshot> task(String taskId)
    {
        return tasks.stream()
                .filter(task -> task.taskId().equals(taskId))
                .findFirst();
    }

    @Override
    public String toString()
    {
        return "checkpoint " + record.checkpointId() + " of job " + record.job() + " (" + tasks.size() + " tasks)";
    }
}
