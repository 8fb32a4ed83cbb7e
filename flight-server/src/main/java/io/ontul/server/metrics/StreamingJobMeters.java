package io.ontul.server.metrics;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.ontul.engine.api.StreamingJobFigures;

/**
 * Series per streaming job, tagged {@code job}: records in, out, rejected and late; source lag (and
 * per partition, tagged {@code partition} too);
 * watermark delay; checkpoints (duration histogram, size, completed, aborted); restarts; and the
 * number of jobs per state. Refreshed at each scrape from the engine's figures; a dropped job's
 * series go with it.
 */
final class StreamingJobMeters
{
    /** Bucket bounds of the checkpoint duration histogram. */
    private static final Duration[] CHECKPOINT_BUCKETS = {
            Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5)};
    private static final List<String> STATES = List.of("CREATED", "RUNNING", "RESTARTING", "STOPPED", "FAILED");

    private final MeterRegistry registry;
    private final Map<String, Registered> jobs = new HashMap<>();
    private volatile Map<String, StreamingJobFigures> figures = Map.of();

    StreamingJobMeters(MeterRegistry registry)
    {
        this.registry = requireNonNull(registry, "registry is null");
        for (String state : STATES) {
            Gauge.builder("ontul.streaming.jobs", this, meters -> meters.figures.values().stream().filter(job -> job.state().equals(state)).count())
                    .description("Streaming jobs in each state")
                    .tag("state", state.toLowerCase(Locale.ROOT))
                    .register(registry);
        }
    }

    synchronized void refresh(List<StreamingJobFigures> current)
    {
        Map<String, StreamingJobFigures> byName = new HashMap<>();
        current.forEach(job -> byName.put(job.name(), job));
        figures = byName;
        Set<String> gone = new HashSet<>(jobs.keySet());
        gone.removeAll(byName.keySet());
        for (String name : gone) {
            jobs.remove(name).meters.forEach(registry::remove);
        }
        for (StreamingJobFigures job : current) {
            Registered registered = jobs.computeIfAbsent(job.name(), this::register);
            for (String partition : job.partitionLags().keySet()) {
                if (registered.partitions.add(partition)) {
                    registered.meters.add(partitionLag(job.name(), partition));
                }
            }
            // checkpoints completed since the last scrape go into the histogram once each
            for (StreamingJobFigures.Checkpoint checkpoint : job.recentCheckpoints()) {
                if (checkpoint.id() > registered.lastCheckpointRecorded) {
                    registered.checkpointDuration.record(Duration.ofMillis(checkpoint.durationMillis()));
                    registered.lastCheckpointRecorded = checkpoint.id();
                }
            }
        }
    }

    private Registered register(String name)
    {
        List<Meter> meters = new ArrayList<>();
        meters.add(counter("ontul.streaming.job.records.in", "Records the job's sources read", name, StreamingJobFigures::recordsIn));
        meters.add(counter("ontul.streaming.job.records.out", "Records the job wrote to its sinks", name, StreamingJobFigures::recordsOut));
        meters.add(counter("ontul.streaming.job.records.rejected", "Records the job could not read (malformed, wrong type)", name, StreamingJobFigures::recordsRejected));
        meters.add(counter("ontul.streaming.job.records.late", "Records that came after their window closed", name, StreamingJobFigures::recordsLate));
        meters.add(counter("ontul.streaming.job.restarts", "Restarts after failures", name, StreamingJobFigures::restarts));
        meters.add(counter("ontul.streaming.job.checkpoints.completed", "Checkpoints completed", name, StreamingJobFigures::checkpointsCompleted));
        meters.add(counter("ontul.streaming.job.checkpoints.failed", "Checkpoints aborted by their timeout", name, StreamingJobFigures::checkpointsAborted));
        meters.add(gauge("ontul.streaming.job.source.lag", "Records the sources have yet to read, over all partitions (NaN when unknown)", name, "records",
                job -> job.sourceLag().isPresent() ? job.sourceLag().getAsLong() : Double.NaN));
        meters.add(gauge("ontul.streaming.job.watermark.delay", "How far the job's watermark is behind the clock (NaN before the first event time)", name, "seconds",
                job -> job.watermark().map(watermark -> Duration.between(watermark, Instant.now()).toMillis() / 1000.0).orElse(Double.NaN)));
        meters.add(gauge("ontul.streaming.job.checkpoint.size", "Bytes of the latest checkpoint's snapshots", name, "bytes",
                job -> job.recentCheckpoints().isEmpty() ? 0 : job.recentCheckpoints().get(job.recentCheckpoints().size() - 1).bytes()));
        meters.add(gauge("ontul.streaming.job.memory", "Arrow memory the running job holds", name, "bytes", StreamingJobFigures::memoryBytes));
        meters.add(gauge("ontul.streaming.job.running", "1 while the job runs (or restarts), else 0", name, null,
                job -> job.state().equals("RUNNING") || job.state().equals("RESTARTING") ? 1 : 0));
        Timer checkpointDuration = Timer.builder("ontul.streaming.job.checkpoint.duration")
                .description("Time from a checkpoint's barriers to its commit")
                .tag("job", name)
                .serviceLevelObjectives(CHECKPOINT_BUCKETS)
                .register(registry);
        meters.add(checkpointDuration);
        return new Registered(meters, checkpointDuration);
    }

    private Meter partitionLag(String job, String partition)
    {
        return Gauge.builder("ontul.streaming.job.partition.lag", this, meters -> {
                    StreamingJobFigures figures = meters.figures.get(job);
                    Long lag = figures == null ? null : figures.partitionLags().get(partition);
                    return lag == null ? Double.NaN : lag;
                })
                .description("Records a source partition has yet to be read (NaN while its task does not know)")
                .tags(Tags.of("job", job, "partition", partition))
                .baseUnit("records")
                .register(registry);
    }

    private Meter counter(String name, String description, String job, java.util.function.ToLongFunction<StreamingJobFigures> value)
    {
        return FunctionCounter.builder(name, this, meters -> {
                    StreamingJobFigures figures = meters.figures.get(job);
                    return figures == null ? 0 : value.applyAsLong(figures);
                })
                .description(description)
                .tag("job", job)
                .register(registry);
    }

    private Meter gauge(String name, String description, String job, String unit, ToDoubleFunction<StreamingJobFigures> value)
    {
        return Gauge.builder(name, this, meters -> {
                    StreamingJobFigures figures = meters.figures.get(job);
                    return figures == null ? Double.NaN : value.applyAsDouble(figures);
                })
                .description(description)
                .tag("job", job)
                .baseUnit(unit)
                .register(registry);
    }

    private static final class Registered
    {
        final List<Meter> meters;
        final Set<String> partitions = new HashSet<>();
        final Timer checkpointDuration;
        long lastCheckpointRecorded = Long.MIN_VALUE;

        Registered(List<Meter> meters, Timer checkpointDuration)
        {
            this.meters = meters;
            this.checkpointDuration = checkpointDuration;
        }
    }
}
