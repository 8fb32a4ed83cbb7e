package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;

/**
 * One task's part of a complete checkpoint: its metadata and its state streams, which are read
 * from storage only when opened.
 */
public final class TaskSnapshot
{
    private final CheckpointFileSystem files;
    private final CheckpointLayout layout;
    private final String job;
    private final long checkpointId;
    private final TaskRecord record;

    TaskSnapshot(CheckpointFileSystem files, CheckpointLayout layout, String job, long checkpointId, TaskRecord record)
    {
        this.files = requireNonNull(files, "files is null");
        this.layout = requireNonNull(layout, "layout is null");
        this.job = requireNonNull(job, "job is null");
        this.checkpointId = checkpointId;
        this.record = requireNonNull(record, "record is null");
    }

    public String taskId()
    {
        return record.taskId();
    }

    /** What the task passed to {@link TaskSnapshotWriter#finish}, sorted by key. */
    public Map<String, String> metadata()
    {
        return record.metadata();
    }

    /** The task's state streams in the order it opened them. */
    public List<StateStreamSummary> streams()
    {
        return record.streams();
    }

    public Optional<StateStreamSummary> stream(String name)
    {
        return record.streams().stream()
                .filter(summary -> summary.name().equals(name))
                .findFirst();
    }

    /**
     * Opens the state stream {@code name}; its batches are allocated from {@code allocator} and
     * belong to the caller.
     *
     * @throws IllegalArgumentException if the task wrote no stream of that name
     */
    public StateStreamReader openStream(String name, BufferAllocator allocator)
    {
        requireNonNull(allocator, "allocator is null");
        if (stream(name).isEmpty()) {
            throw new IllegalArgumentException("Task " + record.taskId() + " of checkpoint " + checkpointId + " of job " + job + " has no state stream " + name
                    + "; it has " + record.streams().stream().map(StateStreamSummary::name).toList());
        }
        return new StateStreamReader(files, layout.stateStream(job, checkpointId, record.taskId(), name), job, checkpointId, record.taskId(), name, allocator);
    }

    @Override
    public String toString()
    {
        return "task " + record.taskId() + " of checkpoint " + checkpointId + " of job " + job;
    }
}
