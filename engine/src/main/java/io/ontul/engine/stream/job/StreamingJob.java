package io.ontul.engine.stream.job;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.metadata.StoredStreamingJob;
import io.ontul.engine.query.QueryContext;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.tree.SqlCreateStreamingJob;
import io.ontul.engine.stream.checkpoint.CheckpointCoordinator;
import io.ontul.engine.stream.checkpoint.CrashPoints;
import io.ontul.engine.stream.checkpoint.TaskAcknowledgement;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.plan.StreamingJobPlanner;
import io.ontul.engine.stream.sink.JobSinks;
import io.ontul.engine.stream.task.StreamingPipeline;
import io.ontul.engine.stream.window.WatermarkTracker;
import io.ontul.engine.type.OntulTypeSystem;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.stream.StreamBatch;
import io.ontul.spi.stream.StreamReader;
import io.ontul.spi.stream.StreamSplit;

/**
 * One running streaming job: a thread that polls the source, runs the rows through the job's
 * {@link StreamingPipeline} (the query engine's operators: filter/project, window table
 * functions, window aggregations) into its sinks ({@link JobSinks}), and every checkpoint
 * interval takes a checkpoint through its {@link CheckpointCoordinator}. One task for now; the
 * task talks to the coordinator with messages ({@link TaskAcknowledgement}).
 * <p>
 * A failure ends the attempt; the job restarts from its latest complete checkpoint after the
 * backoff, up to the configured attempts in a row (a completed checkpoint resets the count), then
 * is FAILED. {@link #stop} takes a final checkpoint; {@link #shutdown} (engine closing, DROP)
 * does not and leaves the stored state alone, as a crash would.
 */
public final class StreamingJob
{
    private static final Logger LOG = LoggerFactory.getLogger(StreamingJob.class);
    private static final String TASK = "task-0";
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);

    private final StoredStreamingJob definition;
    private final StreamingJobOptions options;
    private final StreamingEnvironment environment;

    private final AtomicLong recordsIn = new AtomicLong();
    private final AtomicLong recordsOut = new AtomicLong();
    private final AtomicLong recordsRejected = new AtomicLong();
    private final AtomicLong recordsLate = new AtomicLong();
    private volatile StreamingJobState state;
    private volatile String lastError;
    private volatile Instant startedAt;
    private volatile long lastCheckpointId;
    private volatile Instant lastCheckpointTime;
    private volatile long lastCheckpointDurationMillis;
    private volatile long lastCheckpointBytes;
    private volatile StreamingJobPlan lastPlan;
    private volatile boolean stopRequested;
    private volatile boolean shutdown;
    private volatile StreamReader currentReader;
    private volatile long watermark = WatermarkTracker.NONE;
    private volatile long sourceLag = -1;
    private volatile long spilledBytes;
    private int consecutiveFailures;
    private Thread thread;

    public StreamingJob(StoredStreamingJob definition, StreamingEnvironment environment)
    {
        this.definition = requireNonNull(definition, "definition is null");
        this.environment = requireNonNull(environment, "environment is null");
        this.options = StreamingJobOptions.parse(definition.options());
        this.state = StreamingJobState.valueOf(definition.state());
        this.lastError = definition.lastError().orElse(null);
    }

    public String name()
    {
        return definition.name();
    }

    public StoredStreamingJob definition()
    {
        return definition;
    }

    public StreamingJobState state()
    {
        return state;
    }

    public synchronized boolean isActive()
    {
        return thread != null && thread.isAlive();
    }

    /** Starts the job's thread unless it runs; it resumes from the latest complete checkpoint. */
    public synchronized void start()
    {
        if (isActive()) {
            return;
        }
        stopRequested = false;
        shutdown = false;
        consecutiveFailures = 0;
        startedAt = Instant.now();
        setState(StreamingJobState.RUNNING, null);
        thread = new Thread(this::run, "ontul-streaming-job-" + definition.name());
        thread.setDaemon(true);
        thread.start();
    }

    /** Takes a final checkpoint, commits it and stops; the job is STOPPED. */
    public void stop()
    {
        stopRequested = true;
        awaitThread(false);
        if (state != StreamingJobState.FAILED) {
            setState(StreamingJobState.STOPPED, state == StreamingJobState.STOPPED ? lastError : null);
        }
    }

    /** Stops the thread without a checkpoint and without changing the stored state. */
    public void shutdown()
    {
        shutdown = true;
        awaitThread(true);
    }

    /** @param interrupt whether to interrupt the thread: not when it must finish a final checkpoint */
    private void awaitThread(boolean interrupt)
    {
        Thread running;
        synchronized (this) {
            running = thread;
        }
        if (running == null) {
            return;
        }
        StreamReader reader = currentReader;
        if (reader != null) {
            reader.wakeup();
        }
        if (interrupt) {
            running.interrupt();
        }
        try {
            running.join(JOIN_TIMEOUT.toMillis());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (running.isAlive()) {
            LOG.warn("Streaming job {} did not stop within {}", definition.name(), JOIN_TIMEOUT);
        }
    }

    private void run()
    {
        while (true) {
            try {
                runAttempt();
                if (stopRequested && !shutdown) {
                    setState(StreamingJobState.STOPPED, null);
                }
                return;
            }
            catch (CrashPoints.SimulatedCrash e) {
                LOG.warn("Streaming job {}: {}", definition.name(), e.getMessage());
                return;
            }
            catch (RuntimeException | LinkageError | AssertionError e) {
                if (shutdown) {
                    return;
                }
                String reason = e.getMessage() == null ? e.toString() : e.getMessage();
                consecutiveFailures++;
                if (consecutiveFailures > options.restartMaxAttempts()) {
                    LOG.error("Streaming job {} failed after {} restarts: {}", definition.name(), options.restartMaxAttempts(), reason, e);
                    setState(StreamingJobState.FAILED, reason);
                    return;
                }
                LOG.warn("Streaming job {} failed (restart {} of {} in {}): {}", definition.name(), consecutiveFailures, options.restartMaxAttempts(), options.restartBackoff(), reason, e);
                setState(StreamingJobState.RESTARTING, reason);
                if (!sleepBackoff()) {
                    if (stopRequested && !shutdown) {
                        setState(StreamingJobState.STOPPED, reason);
                    }
                    return;
                }
                setState(StreamingJobState.RUNNING, reason);
            }
        }
    }

    /** Returns false when the job was asked to stop meanwhile. */
    private boolean sleepBackoff()
    {
        long end = System.nanoTime() + options.restartBackoff().toNanos();
        while (System.nanoTime() < end) {
            if (stopRequested || shutdown) {
                return false;
            }
            try {
                Thread.sleep(Math.min(50, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            }
            catch (InterruptedException e) {
                // stop and shutdown interrupt; the flags say which
            }
        }
        return !stopRequested && !shutdown;
    }

    private void runAttempt()
    {
        SqlCreateStreamingJob create = (SqlCreateStreamingJob) OntulParser.parse(definition.definition());
        StreamingJobPlan plan = new StreamingJobPlanner(environment.catalogs(), definition.catalog(), definition.schema(),
                environment.accessControl().of(definition.createdBy())).plan(create.insert(), options);
        lastPlan = plan;
        CheckpointCoordinator coordinator = new CheckpointCoordinator(environment.checkpoints().get(), definition.jobId(), Set.of(TASK));
        QueryContext context = new QueryContext("stream-" + definition.jobId(), definition.createdBy(), environment.rootAllocator(),
                options.maxMemory().orElse(environment.defaultMaxMemory()), environment.workers(), 1, new RexBuilder(new JavaTypeFactoryImpl(OntulTypeSystem.INSTANCE)), () -> { });
        try (JobSinks sink = JobSinks.open(plan, definition.name(), definition.jobId(), context.allocator())) {
            context.enableSpill(environment.spillStore().get());
            CheckpointCoordinator.Restored restored = coordinator.restore();
            if (restored.checkpointId() > 0) {
                sink.commit(restored.checkpointId(), restored.committables());
                lastCheckpointId = restored.checkpointId();
            }
            Map<String, byte[]> saved = restored.positionsByTask().getOrDefault(TASK, Map.of());
            List<StreamSplit> splits = new ArrayList<>();
            Map<String, byte[]> positions = new HashMap<>();
            for (StreamSplit split : plan.source().splits(plan.scan().table())) {
                byte[] position = saved.getOrDefault(split.id(), split.startPosition());
                splits.add(new StreamSplit(split.id(), position));
                positions.put(split.id(), position);
            }
            try (StreamReader reader = plan.source().open(plan.scan().table(), plan.scan().scan().columns(), splits, context.allocator());
                    StreamingPipeline pipeline = new StreamingPipeline(plan, context, positions.keySet(), System::nanoTime)) {
                currentReader = reader;
                pipeline.restore(restored.stateMetadata(TASK), restored.snapshots().get(TASK), context);
                long rejectedBefore = recordsRejected.get();
                long lateBefore = recordsLate.get();
                long nextCheckpointId = checkpointIdAfter(restored.checkpointId());
                long nextCheckpointNanos = System.nanoTime() + options.checkpointInterval().toNanos();
                while (!stopRequested && !shutdown) {
                    StreamBatch polled = reader.poll(POLL_TIMEOUT);
                    recordsIn.addAndGet(polled.rowCount());
                    pipeline.process(polled, output -> {
                        sink.write(output);
                        recordsOut.addAndGet(output.getRowCount());
                    });
                    sink.writeRejected(polled.rejected());
                    positions.putAll(polled.positions());
                    recordsRejected.set(rejectedBefore + reader.rejectedRecords());
                    recordsLate.set(lateBefore + pipeline.lateRows());
                    watermark = pipeline.watermark();
                    sourceLag = reader.lag().orElse(-1);
                    spilledBytes = context.spillStatistics().bytes();
                    if (System.nanoTime() >= nextCheckpointNanos) {
                        long started = System.nanoTime();
                        checkpoint(coordinator, sink, reader, pipeline, nextCheckpointId, positions);
                        nextCheckpointId = checkpointIdAfter(nextCheckpointId);
                        nextCheckpointNanos = Math.max(started + options.checkpointInterval().toNanos(), System.nanoTime() + options.checkpointMinPause().toNanos());
                    }
                }
                if (stopRequested && !shutdown) {
                    checkpoint(coordinator, sink, reader, pipeline, nextCheckpointId, positions);
                }
            }
            finally {
                currentReader = null;
            }
        }
        finally {
            context.close();
        }
    }

    /**
     * The id of the checkpoint after {@code previous}. With at-least-once delivery a sink commits
     * a checkpoint before it is stored, so a restart from an earlier checkpoint must never reuse
     * an id a sink may hold (sinks skip ids they have): ids then follow the clock (milliseconds),
     * which moves on across restarts, and are only made to grow when checkpoints come faster.
     */
    private long checkpointIdAfter(long previous)
    {
        return options.deliveryGuarantee() == StreamingJobOptions.DeliveryGuarantee.AT_LEAST_ONCE ? Math.max(previous + 1, System.currentTimeMillis()) : previous + 1;
    }

    private void checkpoint(CheckpointCoordinator coordinator, JobSinks sink, StreamReader reader, StreamingPipeline pipeline, long checkpointId, Map<String, byte[]> positions)
    {
        long started = System.nanoTime();
        byte[] committable = sink.prepareCommit(checkpointId);
        CrashPoints.reached(CrashPoints.AFTER_PREPARE_COMMIT);
        boolean atLeastOnce = options.deliveryGuarantee() == StreamingJobOptions.DeliveryGuarantee.AT_LEAST_ONCE;
        if (atLeastOnce) {
            // rows visible before the checkpoint is stored: a failure until it is replays them
            sink.commit(checkpointId, List.of(committable));
        }
        coordinator.snapshotTask(TASK, checkpointId, positions, pipeline::snapshot);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        if (elapsed.compareTo(options.checkpointTimeout()) > 0) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Checkpoint " + checkpointId + " of streaming job " + definition.name() + " took " + elapsed.toMillis()
                    + " ms, more than its '" + StreamingJobOptions.CHECKPOINT_TIMEOUT + "' of " + options.checkpointTimeout().toMillis() + " ms; the job restarts from the previous checkpoint");
        }
        CrashPoints.reached(CrashPoints.BEFORE_CHECKPOINT_COMPLETE);
        List<byte[]> committables = coordinator.acknowledge(new TaskAcknowledgement(TASK, checkpointId, committable))
                .orElseThrow(() -> OntulException.internal("checkpoint " + checkpointId + " of streaming job " + definition.name() + " is missing acknowledgements", null));
        CrashPoints.reached(CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        if (!atLeastOnce) {
            sink.commit(checkpointId, committables);
        }
        CrashPoints.reached(CrashPoints.AFTER_SINK_COMMIT);
        reader.reportProgress(Map.copyOf(positions));
        lastCheckpointId = checkpointId;
        lastCheckpointTime = Instant.now();
        lastCheckpointDurationMillis = (System.nanoTime() - started) / 1_000_000;
        lastCheckpointBytes = pipeline.lastSnapshotBytes() + committable.length;
        consecutiveFailures = 0;
    }

    private void setState(StreamingJobState newState, String error)
    {
        state = newState;
        lastError = error;
        environment.store().updateState(definition.name(), newState.name(), error);
    }

    /** One row of SHOW STREAMING JOBS, in {@link StreamingJobManager#SHOW_COLUMNS} order. */
    public List<Object> showRow()
    {
        Instant started = startedAt;
        boolean active = isActive();
        Instant checkpointTime = lastCheckpointTime;
        return Arrays.asList(
                definition.name(),
                state.name(),
                active && started != null ? formatDuration(Duration.between(started, Instant.now())) : null,
                recordsIn.get(),
                recordsOut.get(),
                recordsRejected.get(),
                recordsLate.get(),
                active && sourceLag >= 0 ? sourceLag : null,
                watermark == WatermarkTracker.NONE ? null : Instant.EPOCH.plus(watermark, ChronoUnit.MICROS).toString(),
                active ? spilledBytes : null,
                lastCheckpointId == 0 ? null : lastCheckpointId,
                checkpointTime == null ? null : checkpointTime.toString(),
                checkpointTime == null ? null : lastCheckpointDurationMillis,
                checkpointTime == null ? null : lastCheckpointBytes,
                lastError,
                definition.createdBy());
    }

    public Optional<StreamingJobPlan> lastPlan()
    {
        return Optional.ofNullable(lastPlan);
    }

    private static String formatDuration(Duration duration)
    {
        long seconds = duration.toSeconds();
        return String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}
