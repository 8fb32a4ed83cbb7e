package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A streaming job as it is now, for metrics and the operators' pages: the figures of SHOW
 * STREAMING JOBS, typed, with its latest checkpoints. Counts are since this process loaded the job.
 *
 * @param state CREATED, RUNNING, RESTARTING, STOPPED or FAILED
 * @param startedAt when the running job started; empty when it does not run
 * @param sourceLag records its sources have yet to read, over all partitions; empty when unknown
 * @param partitionLags the same per source partition (Kafka's partition number), for those known
 * @param watermark the job's event-time watermark; empty before the first event time
 * @param restarts restarts after failures since the job was loaded
 * @param recentCheckpoints the latest completed checkpoints, oldest first (the last hundred or so)
 */
public record StreamingJobFigures(
        String name,
        String state,
        String owner,
        int parallelism,
        Optional<Instant> startedAt,
        long recordsIn,
        long recordsOut,
        long recordsRejected,
        long recordsLate,
        OptionalLong sourceLag,
        java.util.Map<String, Long> partitionLags,
        Optional<Instant> watermark,
        long spilledBytes,
        long memoryBytes,
        long checkpointsCompleted,
        long checkpointsAborted,
        long restarts,
        Optional<String> lastError,
        List<Checkpoint> recentCheckpoints)
{
    public StreamingJobFigures
    {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(owner, "owner is null");
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(sourceLag, "sourceLag is null");
        partitionLags = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(partitionLags));
        requireNonNull(watermark, "watermark is null");
        requireNonNull(lastError, "lastError is null");
        recentCheckpoints = List.copyOf(recentCheckpoints);
    }

    /** A completed checkpoint: its id, when it completed, how long from barrier to commit, the bytes of its snapshots. */
    public record Checkpoint(long id, Instant completedAt, long durationMillis, long bytes)
    {
        public Checkpoint
        {
            requireNonNull(completedAt, "completedAt is null");
        }
    }

    static StreamingJobFigures of(io.ontul.engine.stream.job.JobFigures job)
    {
        return new StreamingJobFigures(job.name(), job.state(), job.owner(), job.parallelism(), job.startedAt(), job.recordsIn(), job.recordsOut(), job.recordsRejected(),
                job.recordsLate(), job.sourceLag() < 0 ? OptionalLong.empty() : OptionalLong.of(job.sourceLag()), job.partitionLags(),
                job.watermark() == io.ontul.engine.stream.window.WatermarkTracker.NONE ? Optional.empty() : Optional.of(Instant.EPOCH.plus(job.watermark(), java.time.temporal.ChronoUnit.MICROS)),
                job.spilledBytes(), job.memoryBytes(), job.checkpointsCompleted(), job.checkpointsAborted(), job.restarts(), job.lastError(),
                job.recentCheckpoints().stream().map(checkpoint -> new Checkpoint(checkpoint.id(), checkpoint.completedAt(), checkpoint.durationMillis(), checkpoint.bytes())).toList());
    }
}
