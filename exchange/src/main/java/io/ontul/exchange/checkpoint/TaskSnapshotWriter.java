package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.hadoop.fs.Path;

/**
 * Writes one task's part of a checkpoint. The protocol:
 * <ol>
 * <li>{@link CheckpointStore#taskSnapshot} creates the writer;</li>
 * <li>{@link #stream} opens each named state stream (a name at most once) and the task writes its
 * batches to it; several streams may be open and written in any interleaving;</li>
 * <li>{@link #finish} completes every stream still open, then writes the task's metadata (for
 * example its source offsets) as the task's last file. Only from then on does the task count as
 * written, and {@link CheckpointStore#complete} accepts the checkpoint;</li>
 * <li>{@link #close} without {@link #finish} (the task failed, the checkpoint was cancelled)
 * deletes whatever the task wrote; after {@link #finish} it does nothing.</li>
 * </ol>
 * Every file appears under its final name only when whole and synced to disk. One thread at a
 * time; the tasks of a checkpoint may be written in parallel, from different threads or processes
 * that share the base directory.
 */
public final class TaskSnapshotWriter
        implements AutoCloseable
{
    private final CheckpointFileSystem files;
    private final CheckpointLayout layout;
    private final String job;
    private final long checkpointId;
    private final String taskId;
    private final Map<String, StateStreamWriter> streams = new LinkedHashMap<>();
    private boolean finished;
    private boolean closed;

    TaskSnapshotWriter(CheckpointFileSystem files, CheckpointLayout layout, String job, long checkpointId, String taskId)
    {
        this.files = requireNonNull(files, "files is null");
        this.layout = requireNonNull(layout, "layout is null");
        this.job = requireNonNull(job, "job is null");
        this.checkpointId = checkpointId;
        this.taskId = requireNonNull(taskId, "taskId is null");
    }

    public String job()
    {
        return job;
    }

    public long checkpointId()
    {
        return checkpointId;
    }

    public String taskId()
    {
        return taskId;
    }

    /** Opens the state stream {@code name} of this task, for batches of {@code schema}. */
    public StateStreamWriter stream(String name, Schema schema)
    {
        CheckpointLayout.checkStream(name);
        requireNonNull(schema, "schema is null");
        checkWritable();
        if (streams.containsKey(name)) {
            throw new IllegalArgumentException("State stream " + name + " of " + describe() + " is already open");
        }
        Path path = layout.stateStream(job, checkpointId, taskId, name);
        PendingFile file = null;
        try {
            file = files.create(path);
            CheckpointFileFormat.writeStateStreamHeader(file.stream(), job, checkpointId, taskId, name);
            StateStreamWriter stream = new StateStreamWriter(name, schema, file);
            streams.put(name, stream);
            return stream;
        }
        catch (IOException e) {
            if (file != null) {
                file.abort();
            }
            throw CheckpointFailures.cannotWrite(path, e);
        }
        catch (RuntimeException e) {
            if (file != null) {
                file.abort();
            }
            throw e;
        }
    }

    /**
     * Completes every state stream, then writes the task metadata file, last. A failure leaves
     * the task unwritten; close the writer to delete its files.
     *
     * @param metadata what the task needs besides its state to resume, such as source offsets
     */
    public void finish(Map<String, String> metadata)
    {
        Map<String, String> copy = Metadata.copyOf(metadata);
        checkWritable();
        List<StateStreamSummary> summaries = new ArrayList<>(streams.size());
        for (StateStreamWriter stream : streams.values()) {
            if (stream.isFailed()) {
                throw new IllegalStateException("State stream " + stream.name() + " of " + describe() + " failed earlier: the task snapshot cannot be finished");
            }
            stream.finish();
            summaries.add(stream.summary());
        }
        Path path = layout.taskMetadata(job, checkpointId, taskId);
        try {
            PendingFile file = files.create(path);
            try {
                CheckpointFileFormat.writeTask(file.stream(), job, checkpointId, new TaskRecord(taskId, summaries, copy));
                file.commit();
            }
            finally {
                file.abort();
            }
            files.syncFolder(layout.task(job, checkpointId, taskId));
        }
        catch (IOException e) {
            throw CheckpointFailures.cannotWrite(path, e);
        }
        finished = true;
    }

    /** Deletes everything the task wrote unless {@link #finish} succeeded. Idempotent. */
    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        if (finished) {
            return;
        }
        for (StateStreamWriter stream : streams.values()) {
            stream.abort();
        }
        files.deleteQuietly(layout.task(job, checkpointId, taskId));
    }

    private void checkWritable()
    {
        if (finished) {
            throw new IllegalStateException("The snapshot of " + describe() + " is finished");
        }
        if (closed) {
            throw new IllegalStateException("The snapshot writer of " + describe() + " is closed");
        }
    }

    private String describe()
    {
        return "task " + taskId + " of checkpoint " + checkpointId + " of job " + job;
    }
}
