package io.ontul.exchange.checkpoint;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.ontul.exchange.crypto.ExchangeStreamFactory;

/**
 * Durable snapshots of streaming jobs, for exactly-once recovery. Each job has a series of
 * checkpoints with increasing ids; a checkpoint holds one snapshot per task (named streams of
 * Arrow batches, such as window state, and metadata, such as source offsets) and metadata of
 * its own (such as the sink commits pending for it).
 *
 * <p>The protocol for checkpoint N of job J:
 * <ol>
 * <li>Each task writes its snapshot with {@link #taskSnapshot}{@code (J, N, task)} and
 * {@link TaskSnapshotWriter#finish}, then acknowledges N to the coordinator. Tasks write in
 * parallel, from any thread or process that shares the base directory.</li>
 * <li>Once every task has acknowledged, the coordinator calls {@link #complete}{@code (J, N, ...)}
 * — one coordinator per job: the store does not lock across processes. The checkpoint exists
 * from the moment its metadata file is in place: written under a temporary name, synced to disk
 * and renamed, after all its other files. A checkpoint whose coordinator failed before that is
 * incomplete and ignored. {@code complete} then keeps the newest
 * {@link CheckpointConfig#retained} complete checkpoints and deletes incomplete ones older than
 * N.</li>
 * <li>Only after {@code complete} returned may sinks commit N.</li>
 * <li>When the job (re)starts, before any task writes, the coordinator calls
 * {@link #cleanUpIncomplete} and restores every task from {@link #latestComplete}. Later
 * checkpoint ids must be greater than the restored one.</li>
 * <li>{@link #deleteJob} when the job is dropped.</li>
 * </ol>
 *
 * <p>Every file goes through the {@link ExchangeStreamFactory}: encrypted and compressed as
 * configured. A damaged, tampered, truncated, moved or missing file fails the read with an
 * {@link java.io.UncheckedIOException} naming it; the store never falls back to an older
 * checkpoint on its own. Other storage failures are {@link java.io.UncheckedIOException}s too,
 * invalid names {@link io.ontul.spi.OntulException}s ({@code INVALID_ARGUMENT}), and calls out
 * of protocol order {@link IllegalStateException}s. Thread-safe.
 */
public interface CheckpointStore
        extends AutoCloseable
{
    /**
     * Opens the store in {@code <base directory>/checkpoints} (created if missing) on its own
     * Hadoop file system client, and deletes what an interrupted {@link #deleteJob} left.
     */
    static CheckpointStore open(CheckpointConfig config, ExchangeStreamFactory streams)
    {
        return FileSystemCheckpointStore.open(config, streams);
    }

    /**
     * Starts the snapshot of task {@code taskId} for checkpoint {@code checkpointId} of
     * {@code job}.
     *
     * @throws IllegalStateException if the checkpoint is already complete or the task already
     * written
     */
    TaskSnapshotWriter taskSnapshot(String job, long checkpointId, String taskId);

    /**
     * Completes checkpoint {@code checkpointId} with every task snapshot written for it, then
     * applies retention. Returns once the checkpoint is durable.
     *
     * @param metadata the checkpoint's own metadata, such as pending sink commits
     * @throws IllegalStateException if a task of the checkpoint has not finished its snapshot, or
     * {@code checkpointId} is not greater than the latest complete checkpoint's
     */
    CompletedCheckpoint complete(String job, long checkpointId, Map<String, String> metadata);

    /** The complete checkpoint with the greatest id; incomplete ones are ignored. */
    Optional<CompletedCheckpoint> latestComplete(String job);

    /** Checkpoint {@code checkpointId} of {@code job} if it is complete. */
    Optional<CompletedCheckpoint> completedCheckpoint(String job, long checkpointId);

    /** Ids of the job's complete checkpoints, ascending. */
    List<Long> completedCheckpointIds(String job);

    /** Jobs that have a folder in the store, complete checkpoints or not, sorted by name. */
    List<String> jobs();

    /**
     * Keeps the newest {@code count} complete checkpoints of {@code job} and deletes older ones,
     * and incomplete checkpoints older than the latest complete one. {@link #complete} does it
     * with {@link CheckpointConfig#retained}.
     *
     * @return how many checkpoints were deleted
     */
    int retain(String job, int count);

    /**
     * Deletes every incomplete checkpoint of {@code job}, newer ones too. Call it only while no
     * task of the job writes, such as when the job starts.
     *
     * @return how many checkpoints were deleted
     */
    int cleanUpIncomplete(String job);

    /** Deletes all checkpoints of {@code job}. Idempotent. */
    void deleteJob(String job);

    /** Closes the store's file system client, once its writers and readers are closed. */
    @Override
    void close();
}
