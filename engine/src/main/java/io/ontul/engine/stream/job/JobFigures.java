package io.ontul.engine.stream.job;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A streaming job as it is now: what SHOW STREAMING JOBS prints and what the metrics export.
 * Counts are since the job was loaded by this process; {@code sourceLag} is -1 when unknown (the
 * job does not run, or its sources have not read yet), {@code watermark} is
 * {@code WatermarkTracker.NONE} when no event time was seen.
 *
 * @param watermark the greatest watermark of the job, in epoch microseconds
 * @param partitionLags {@code sourceLag} per source partition (split id), for the partitions whose task knows it
 * @param recentCheckpoints the latest completed checkpoints, oldest first (at most {@link CheckpointHistory#SIZE})
 */
public record JobFigures(
        String name,
        String state,
        String owner,
        int parallelism,
        Optional<Instant> startedAt,
        long recordsIn,
        long recordsOut,
        long recordsRejected,
        long recordsLate,
        long sourceLag,
        java.util.Map<String, Long> partitionLags,
        long watermark,
        long spilledBytes,
        long memoryBytes,
        long checkpointsCompleted,
        long checkpointsAborted,
        long restarts,
        Optional<String> lastError,
        List<CompletedCheckpoint> recentCheckpoints)
{
    public JobFigures
    {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(owner, "owner is null");
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(lastError, "lastError is null");
        partitionLags = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(partitionLags));
        recentCheckpoints = List.copyOf(recentCheckpoints);
    }

    /** The latest completed checkpoint, if any since the job was loaded. */
    public Optional<CompletedCheckpoint> lastCheckpoint()
    {
        return recentCheckpoints.isEmpty() ? Optional.empty() : Optional.of(recentCheckpoints.get(recentCheckpoints.size() - 1));
    }

    /** A checkpoint the job completed: when, how long from its barriers to its commit, and the bytes of its snapshots. */
    public record CompletedCheckpoint(long id, Instant completedAt, long durationMillis, long bytes)
    {
        public CompletedCheckpoint
        {
            requireNonNull(completedAt, "completedAt is null");
        }
    }
}
