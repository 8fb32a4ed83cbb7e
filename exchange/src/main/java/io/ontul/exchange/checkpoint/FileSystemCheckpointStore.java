package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.ontul.exchange.ExchangeStorageException;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.exchange.crypto.ChunkedInputStream;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

/**
 * The checkpoint store on a Hadoop file system ({@code file://}, {@code hdfs://}; plain paths are
 * local). The file system must rename atomically: object stores such as S3 do not, so they do
 * not qualify. See {@link CheckpointLayout} for the folders and {@link CheckpointFileFormat} for
 * the files.
 */
public final class FileSystemCheckpointStore
        implements CheckpointStore
{
    private static final Logger LOG = LoggerFactory.getLogger(FileSystemCheckpointStore.class);

    private final CheckpointConfig config;
    private final CheckpointFileSystem files;
    private final CheckpointLayout layout;
    private final ConcurrentMap<String, Object> jobLocks = new ConcurrentHashMap<>();

    private FileSystemCheckpointStore(CheckpointConfig config, CheckpointFileSystem files, CheckpointLayout layout)
    {
        this.config = requireNonNull(config, "config is null");
        this.files = requireNonNull(files, "files is null");
        this.layout = requireNonNull(layout, "layout is null");
    }

    public static FileSystemCheckpointStore open(CheckpointConfig config, ExchangeStreamFactory streams)
    {
        requireNonNull(config, "config is null");
        requireNonNull(streams, "streams is null");
        CheckpointFileSystem files;
        try {
            files = CheckpointFileSystem.open(CheckpointFileSystem.toUri(config.baseDirectory()), config.hadoopProperties(), streams);
        }
        catch (IOException | RuntimeException e) {
            throw new ExchangeStorageException("Cannot open the checkpoint store in", config.baseDirectory(), e instanceof IOException io ? io : new IOException(e));
        }
        Path root = new Path(files.qualify(CheckpointFileSystem.toUri(config.baseDirectory())), CheckpointLayout.CHECKPOINTS);
        try {
            files.createFolder(root);
            sweepDeletedJobs(files, root);
        }
        catch (IOException | RuntimeException e) {
            try {
                files.close();
            }
            catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e instanceof IOException io ? new ExchangeStorageException("Cannot prepare checkpoint folder", root, io) : (RuntimeException) e;
        }
        return new FileSystemCheckpointStore(config, files, new CheckpointLayout(root));
    }

    /** The folder of all jobs, {@code <base directory>/checkpoints}, qualified. */
    public String directory()
    {
        return layout.root().toString();
    }

    @Override
    public TaskSnapshotWriter taskSnapshot(String job, long checkpointId, String taskId)
    {
        Path taskFolder = layout.task(job, checkpointId, taskId);
        try {
            if (files.exists(layout.checkpointMetadata(job, checkpointId))) {
                throw new IllegalStateException("Checkpoint " + checkpointId + " of job " + job + " is already complete: its task snapshots cannot change");
            }
            if (files.exists(layout.taskMetadata(job, checkpointId, taskId))) {
                throw new IllegalStateException("Task " + taskId + " of checkpoint " + checkpointId + " of job " + job + " is already written");
            }
            files.createFolder(taskFolder);
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot prepare checkpoint folder", taskFolder, e);
        }
        return new TaskSnapshotWriter(files, layout, job, checkpointId, taskId);
    }

    @Override
    public CompletedCheckpoint complete(String job, long checkpointId, Map<String, String> metadata)
    {
        Path metadataFile = layout.checkpointMetadata(job, checkpointId);
        Map<String, String> checkpointMetadata = Metadata.copyOf(metadata);
        synchronized (lock(job)) {
            try {
                List<CheckpointFolder> checkpoints = checkpoints(job);
                OptionalLong latest = latestCompleteId(checkpoints);
                if (latest.isPresent() && latest.getAsLong() == checkpointId) {
                    throw new IllegalStateException("Checkpoint " + checkpointId + " of job " + job + " is already complete");
                }
                if (latest.isPresent() && latest.getAsLong() > checkpointId) {
                    throw new IllegalStateException("Checkpoint " + checkpointId + " of job " + job + " cannot be completed: checkpoint " + latest.getAsLong()
                            + " is already complete, and checkpoint ids must increase");
                }
                Path checkpointFolder = layout.checkpoint(job, checkpointId);
                files.createFolder(checkpointFolder);
                List<TaskRecord> tasks = finishedTasks(job, checkpointId);
                CheckpointRecord record = new CheckpointRecord(job, checkpointId, Instant.now().truncatedTo(ChronoUnit.MILLIS), checkpointMetadata, tasks);
                PendingFile file = files.create(metadataFile);
                try {
                    CheckpointFileFormat.writeCheckpoint(file.stream(), record);
                    file.commit();
                }
                finally {
                    file.abort();
                }
                files.syncFolder(checkpointFolder);
                files.syncFolder(layout.job(job));
                files.syncFolder(layout.root());
                LOG.debug("Completed checkpoint {} of job {} with {} task(s)", checkpointId, job, tasks.size());
                expire(job, checkpointId, config.retained());
                return new CompletedCheckpoint(files, layout, record);
            }
            catch (IOException e) {
                throw new ExchangeStorageException("Cannot complete checkpoint", checkpointId + " of job " + job, e);
            }
        }
    }

    @Override
    public Optional<CompletedCheckpoint> latestComplete(String job)
    {
        try {
            List<CheckpointFolder> checkpoints = checkpoints(job);
            OptionalLong latest = latestCompleteId(checkpoints);
            if (latest.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(read(job, latest.getAsLong()));
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot list the checkpoints of job", job + " in " + layout.job(job), e);
        }
    }

    @Override
    public Optional<CompletedCheckpoint> completedCheckpoint(String job, long checkpointId)
    {
        Path metadataFile = layout.checkpointMetadata(job, checkpointId);
        try {
            if (!files.exists(metadataFile)) {
                return Optional.empty();
            }
        }
        catch (IOException e) {
            throw CheckpointFailures.cannotRead(metadataFile, e);
        }
        return Optional.of(read(job, checkpointId));
    }

    @Override
    public List<Long> completedCheckpointIds(String job)
    {
        try {
            return checkpoints(job).stream()
                    .filter(CheckpointFolder::complete)
                    .map(CheckpointFolder::id)
                    .toList();
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot list the checkpoints of job", job + " in " + layout.job(job), e);
        }
    }

    @Override
    public List<String> jobs()
    {
        try {
            return files.list(layout.root()).stream()
                    .filter(FileStatus::isDirectory)
                    .map(status -> status.getPath().getName())
                    .filter(CheckpointLayout::isName)
                    .sorted()
                    .toList();
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot list the jobs in", layout.root(), e);
        }
    }

    @Override
    public int retain(String job, int count)
    {
        CheckpointLayout.checkJob(job);
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        synchronized (lock(job)) {
            try {
                OptionalLong latest = latestCompleteId(checkpoints(job));
                if (latest.isEmpty()) {
                    return 0;
                }
                return expire(job, latest.getAsLong(), count);
            }
            catch (IOException e) {
                throw new ExchangeStorageException("Cannot delete old checkpoints of job", job, e);
            }
        }
    }

    @Override
    public int cleanUpIncomplete(String job)
    {
        synchronized (lock(job)) {
            try {
                int deleted = 0;
                for (CheckpointFolder checkpoint : checkpoints(job)) {
                    if (!checkpoint.complete()) {
                        files.delete(layout.checkpoint(job, checkpoint.id()));
                        deleted++;
                    }
                }
                if (deleted > 0) {
                    LOG.info("Deleted {} incomplete checkpoint(s) of job {}", deleted, job);
                }
                return deleted;
            }
            catch (IOException e) {
                throw new ExchangeStorageException("Cannot delete incomplete checkpoints of job", job, e);
            }
        }
    }

    @Override
    public void deleteJob(String job)
    {
        Path jobFolder = layout.job(job);
        synchronized (lock(job)) {
            try {
                if (!files.exists(jobFolder)) {
                    return;
                }
                // One rename takes the whole job out of sight, so a crash half-way through the
                // deletion cannot leave a job with some of its checkpoints.
                Path deleted = new Path(layout.root(), CheckpointLayout.DELETED_PREFIX + job + "-" + UUID.randomUUID());
                files.rename(jobFolder, deleted);
                files.syncFolder(layout.root());
                files.delete(deleted);
                LOG.info("Deleted the checkpoints of job {}", job);
            }
            catch (IOException e) {
                throw new ExchangeStorageException("Cannot delete the checkpoints of job", job + " in " + jobFolder, e);
            }
        }
    }

    @Override
    public void close()
    {
        try {
            files.close();
        }
        catch (IOException e) {
            LOG.warn("Cannot close the file system of checkpoint folder {}: {}", layout.root(), e.getMessage());
        }
    }

    private CompletedCheckpoint read(String job, long checkpointId)
    {
        Path metadataFile = layout.checkpointMetadata(job, checkpointId);
        try (ChunkedInputStream in = files.open(metadataFile)) {
            CheckpointRecord record = CheckpointFileFormat.readCheckpoint(in, metadataFile.toString(), job, checkpointId);
            return new CompletedCheckpoint(files, layout, record);
        }
        catch (IOException e) {
            throw CheckpointFailures.cannotRead(metadataFile, e);
        }
    }

    /** The metadata of every task written for the checkpoint, by task id. */
    private List<TaskRecord> finishedTasks(String job, long checkpointId)
            throws IOException
    {
        List<TaskRecord> tasks = new ArrayList<>();
        for (FileStatus status : files.list(layout.tasks(job, checkpointId))) {
            String taskId = status.getPath().getName();
            if (!status.isDirectory() || !CheckpointLayout.isName(taskId)) {
                continue;
            }
            Path taskMetadata = layout.taskMetadata(job, checkpointId, taskId);
            if (!files.exists(taskMetadata)) {
                throw new IllegalStateException("Task " + taskId + " of checkpoint " + checkpointId + " of job " + job
                        + " has not finished its snapshot: the checkpoint cannot be completed");
            }
            try (ChunkedInputStream in = files.open(taskMetadata)) {
                tasks.add(CheckpointFileFormat.readTask(in, taskMetadata.toString(), job, checkpointId, taskId));
            }
            catch (IOException e) {
                throw CheckpointFailures.cannotRead(taskMetadata, e);
            }
        }
        tasks.sort(Comparator.comparing(TaskRecord::taskId));
        if (!tasks.isEmpty()) {
            files.syncFolder(layout.tasks(job, checkpointId));
        }
        return tasks;
    }

    /**
     * Deletes complete checkpoints older than the newest {@code retained} and incomplete ones
     * older than {@code latestComplete}. Newer incomplete checkpoints may still be written.
     */
    private int expire(String job, long latestComplete, int retained)
            throws IOException
    {
        List<CheckpointFolder> checkpoints = checkpoints(job);
        List<Long> complete = checkpoints.stream().filter(CheckpointFolder::complete).map(CheckpointFolder::id).toList();
        long oldestRetained = complete.get(Math.max(0, complete.size() - retained));
        int deleted = 0;
        for (CheckpointFolder checkpoint : checkpoints) {
            boolean expired = checkpoint.complete() ? checkpoint.id() < oldestRetained : checkpoint.id() < latestComplete;
            if (expired) {
                if (checkpoint.complete()) {
                    // Without its metadata file a half-deleted checkpoint is merely incomplete.
                    files.delete(layout.checkpointMetadata(job, checkpoint.id()));
                }
                files.delete(layout.checkpoint(job, checkpoint.id()));
                deleted++;
            }
        }
        if (deleted > 0) {
            LOG.debug("Deleted {} old checkpoint(s) of job {}", deleted, job);
        }
        return deleted;
    }

    /** The job's checkpoint folders, by id. */
    private List<CheckpointFolder> checkpoints(String job)
            throws IOException
    {
        List<CheckpointFolder> checkpoints = new ArrayList<>();
        for (FileStatus status : files.list(layout.job(job))) {
            OptionalLong id = CheckpointLayout.checkpointId(status.getPath().getName());
            if (status.isDirectory() && id.isPresent()) {
                checkpoints.add(new CheckpointFolder(id.getAsLong(), files.exists(layout.checkpointMetadata(job, id.getAsLong()))));
            }
        }
        checkpoints.sort(Comparator.comparingLong(CheckpointFolder::id));
        return checkpoints;
    }

    private static OptionalLong latestCompleteId(List<CheckpointFolder> checkpoints)
    {
        return checkpoints.stream()
                .filter(CheckpointFolder::complete)
                .mapToLong(CheckpointFolder::id)
                .max();
    }

    private Object lock(String job)
    {
        return jobLocks.computeIfAbsent(CheckpointLayout.checkJob(job), ignored -> new Object());
    }

    private static void sweepDeletedJobs(CheckpointFileSystem files, Path root)
            throws IOException
    {
        for (FileStatus status : files.list(root)) {
            if (status.getPath().getName().startsWith(CheckpointLayout.DELETED_PREFIX)) {
                LOG.info("Deleting {}, left by an interrupted job deletion", status.getPath());
                files.delete(status.getPath());
            }
        }
    }

    private record CheckpointFolder(long id, boolean complete) {}
}
