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
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
import io.ontul.engine.stream.checkpoint.Ack;
import io.ontul.engine.stream.checkpoint.CrashHook;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.plan.StreamingJobPlanner;
import io.ontul.engine.stream.sink.JobSinks;
import io.ontul.engine.stream.task.TaskReport;
import io.ontul.engine.stream.task.TaskServices;
import io.ontul.engine.stream.task.TaskStatus;
import io.ontul.engine.stream.window.WatermarkTracker;
import io.ontul.engine.type.OntulTypeSystem;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.cluster.WorkerAddress;

/**
 * One running streaming job. Its thread is the job's checkpoint coordinator: each attempt plans
 * the job, starts its tasks ({@link JobAttempt}: source tasks, and for a windowed job window tasks
 * behind a hash shuffle, {@code parallelism} of each) and then drives checkpoints through barriers
 * and the tasks' acknowledgements ({@link CheckpointCoordinator} over the Exchange Manager's
 * checkpoint store), committing every writer's part of a checkpoint in one commit per sink.
 * <p>
 * A failure ends the attempt; the job restarts from its latest complete checkpoint after the
 * backoff, up to the configured attempts in a row (a completed checkpoint resets the count), then
 * is FAILED. {@link #stop} takes a final checkpoint; {@link #shutdown} (engine closing, DROP)
 * does not and leaves the stored state alone, as a crash would.
 */
public final class StreamingJob
{
    private static final Logger LOG = LoggerFactory.getLogger(StreamingJob.class);
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
    private volatile Attempt current;
    /** Whether the running attempt's tasks run on the workers of a cluster. */
    private volatile boolean distributed;
    /** The workers of the latest attempt's tasks; null when they ran here. */
    private volatile List<WorkerAddress> lastPlacement;
    /** The number of the latest attempt: it grows across attempts and restarts (it follows the clock), so a worker can tell an older attempt's requests. */
    private long attemptNumber;
    private volatile long watermark = WatermarkTracker.NONE;
    private volatile long spilledBytes;
    private volatile long memoryBytes;
    private volatile long memoryPeakBytes;
    private final AtomicLong checkpointsAborted = new AtomicLong();
    private final AtomicLong restarts = new AtomicLong();
    private final CheckpointHistory checkpointHistory = new CheckpointHistory();
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
                if (lostWorker()) {
                    // not the job's fault: it restarts on the workers still active, however often workers die
                    LOG.warn("Streaming job {} lost a worker; it restarts from its latest checkpoint on the active workers in {}: {}", definition.name(), options.restartBackoff(), reason);
                }
                else {
                    consecutiveFailures++;
                    if (consecutiveFailures > options.restartMaxAttempts()) {
                        LOG.error("Streaming job {} failed after {} restarts: {}", definition.name(), options.restartMaxAttempts(), reason, e);
                        setState(StreamingJobState.FAILED, reason);
                        return;
                    }
                    LOG.warn("Streaming job {} failed (restart {} of {} in {}): {}", definition.name(), consecutiveFailures, options.restartMaxAttempts(), options.restartBackoff(), reason, e);
                }
                restarts.incrementAndGet();
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

    /**
     * Whether the attempt that failed lost a worker: any failure of an attempt on workers one of
     * which is no longer active (its tasks on the other workers fail
     * in their own ways when it dies).
     */
    private boolean lostWorker()
    {
        // WORKER_LOST alone is not enough: a channel between two live workers that cannot connect
        // (an address one cannot reach) says it too, and must fail the job after its restarts
        List<WorkerAddress> workers = lastPlacement;
        return workers != null && !environment.cluster().allActive(workers);
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
        // a failure before this attempt's tasks are placed is the job's own, whatever became of the last attempt's workers
        lastPlacement = null;
        if (!environment.cluster().awaitWorkers(() -> stopRequested || shutdown)) {
            return;
        }
        Map<Integer, StreamingJobPlan> plans = plan(environment, definition, options, java.util.stream.IntStream.range(0, options.parallelism()).boxed().toList());
        StreamingJobPlan plan = plans.get(0);
        lastPlan = plan;
        Optional<List<WorkerAddress>> placement = environment.cluster().placement(catalogsOf(plan), options.parallelism());
        QueryContext context = context(environment, definition, options);
        try (JobSinks committer = JobSinks.open(plan, definition.name(), definition.jobId(), io.ontul.spi.stream.StreamSinkProvider.COMMITTER, context.allocator())) {
            context.enableSpill(environment.spillStore().get());
            java.util.Set<String> taskIds = JobAttempt.taskIds(plans.size(), !plan.aggregations().isEmpty());
            CheckpointCoordinator coordinator = new CheckpointCoordinator(environment.checkpoints().get(), definition.jobId(), taskIds);
            CheckpointCoordinator.Restored restored = coordinator.restore();
            if (restored.checkpointId() > 0) {
                committer.commit(restored.checkpointId(), restored.committables());
                lastCheckpointId = restored.checkpointId();
            }
            attemptNumber = Math.max(attemptNumber + 1, System.currentTimeMillis());
            try (Attempt attempt = placement.isPresent()
                    ? new DistributedAttempt(definition, attemptNumber, restored.checkpointId(), placement.get(),
                            JobAttempt.splits(plan, Optional.empty()).stream().map(io.ontul.spi.stream.StreamSplit::id).toList(), taskIds, environment.cluster())
                    : new JobAttempt(definition.name(), definition.jobId(), plans.size(), plans, options,
                            new TaskServices(context, coordinator, new LinkedBlockingQueue<>(), CrashHook.NONE), restored, Optional.empty(), JobAttempt.RemoteReceivers.NONE)) {
                current = attempt;
                distributed = placement.isPresent();
                lastPlacement = placement.orElse(null);
                attempt.start(definition.name());
                new Coordination(attempt, coordinator, committer, context, checkpointIdAfter(restored.checkpointId())).run();
            }
            finally {
                carryOver();
                current = null;
            }
        }
        finally {
            context.close();
        }
    }

    /** The job planned for each of {@code indices}: each task index runs its own operators over its own feeds. */
    static Map<Integer, StreamingJobPlan> plan(StreamingEnvironment environment, StoredStreamingJob definition, StreamingJobOptions options, List<Integer> indices)
    {
        SqlCreateStreamingJob create = (SqlCreateStreamingJob) OntulParser.parse(definition.definition());
        StreamingJobPlanner planner = new StreamingJobPlanner(environment.catalogs(), definition.catalog(), definition.schema(),
                environment.accessControl().of(definition.createdBy()));
        Map<Integer, StreamingJobPlan> plans = new java.util.TreeMap<>();
        for (int index : indices) {
            StreamingJobPlan plan = planner.plan(create.insert(), options);
            if (plans.isEmpty()) {
                plan.checkParallelism(options.parallelism());
            }
            plans.put(index, plan);
        }
        return plans;
    }

    /** The memory budget and spill space of the job's tasks in this process. */
    static QueryContext context(StreamingEnvironment environment, StoredStreamingJob definition, StreamingJobOptions options)
    {
        return new QueryContext("stream-" + definition.jobId(), definition.createdBy(), environment.rootAllocator(),
                options.maxMemory().orElse(environment.defaultMaxMemory()), environment.workers(), 1, new RexBuilder(new JavaTypeFactoryImpl(OntulTypeSystem.INSTANCE)), () -> { });
    }

    /** The catalogs a job reads and writes: a worker that lacks one cannot run its tasks. */
    private static java.util.Set<String> catalogsOf(StreamingJobPlan plan)
    {
        java.util.Set<String> catalogs = new java.util.TreeSet<>();
        catalogs.add(plan.scan().table().catalog());
        catalogs.add(plan.sinkTable().catalog());
        plan.rejects().ifPresent(rejects -> catalogs.add(rejects.table().catalog()));
        return catalogs;
    }

    /** Adds the ending attempt's counts to the job's, which SHOW shows across attempts. */
    private void carryOver()
    {
        Attempt attempt = current;
        if (attempt == null) {
            return;
        }
        recordsIn.addAndGet(attempt.recordsIn());
        recordsOut.addAndGet(attempt.recordsOut());
        recordsRejected.addAndGet(attempt.recordsRejected());
        recordsLate.addAndGet(attempt.recordsLate());
        long attemptWatermark = attempt.watermark();
        if (attemptWatermark != WatermarkTracker.NONE) {
            watermark = attemptWatermark;
        }
    }

    /**
     * The coordinator's side of one attempt, on the job's thread: every checkpoint interval it
     * injects barrier N into the source tasks; once every task acknowledged N it completes N in
     * the checkpoint store and commits the sinks of N (one commit of every writer's committable).
     * A checkpoint that not every task acknowledged within 'checkpoint.timeout' is aborted: the
     * job carries on and the next checkpoint is triggered; the aborted one's acknowledgements,
     * which still come (each task acknowledges in order), go with the next checkpoint that
     * completes, so its committables are committed then and nothing is lost. A task's failure ends
     * the attempt. STOP takes a final checkpoint, then lets the tasks run out.
     */
    private final class Coordination
    {
        private final Attempt attempt;
        private final CheckpointCoordinator coordinator;
        private final JobSinks committer;
        private final QueryContext context;
        /** Checkpoints triggered and not complete yet, aborted ones included, with the acknowledgements so far. */
        private final java.util.TreeMap<Long, Map<String, Ack>> pending = new java.util.TreeMap<>();
        private long nextCheckpointId;
        /** The latest triggered checkpoint while it is neither complete nor aborted; -1 otherwise. */
        private long inFlight = -1;
        private long inFlightStarted;
        private long nextCheckpointNanos;

        Coordination(Attempt attempt, CheckpointCoordinator coordinator, JobSinks committer, QueryContext context, long firstCheckpointId)
        {
            this.attempt = attempt;
            this.coordinator = coordinator;
            this.committer = committer;
            this.context = context;
            this.nextCheckpointId = firstCheckpointId;
            this.nextCheckpointNanos = System.nanoTime() + options.checkpointInterval().toNanos();
        }

        void run()
        {
            while (!stopRequested && !shutdown) {
                if (inFlight < 0 && System.nanoTime() >= nextCheckpointNanos) {
                    trigger();
                }
                awaitReport(POLL_TIMEOUT);
            }
            if (stopRequested && !shutdown) {
                // the final checkpoint: it completes whatever is pending
                trigger();
                while (!pending.isEmpty()) {
                    awaitReport(POLL_TIMEOUT);
                }
                attempt.endSources();
                if (!attempt.join()) {
                    LOG.warn("Streaming job {}: tasks still running after the final checkpoint", definition.name());
                }
                failOnReport();
            }
        }

        private void trigger()
        {
            inFlight = nextCheckpointId;
            nextCheckpointId = checkpointIdAfter(nextCheckpointId);
            inFlightStarted = System.nanoTime();
            pending.put(inFlight, new HashMap<>());
            attempt.injectBarrier(inFlight);
        }

        /** Takes the next report, up to {@code timeout}; a failure ends the attempt. */
        private void awaitReport(Duration timeout)
        {
            TaskReport report;
            try {
                report = attempt.reports().poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException e) {
                if (shutdown) {
                    return;
                }
                Thread.currentThread().interrupt();
                throw new OntulException(ErrorCode.INTERNAL_ERROR, "Streaming job " + definition.name() + " was interrupted");
            }
            if (report != null) {
                handle(report);
            }
            updateFigures();
            if (inFlight >= 0 && System.nanoTime() - inFlightStarted > options.checkpointTimeout().toNanos()) {
                abort();
            }
        }

        /** The in-flight checkpoint took too long: the job carries on, its acknowledgements go with the next checkpoint. */
        private void abort()
        {
            LOG.warn("Checkpoint {} of streaming job {} was not acknowledged by every task within its '{}' of {} ms ({} of {} did); aborted: its rows go with the next checkpoint",
                    inFlight, definition.name(), StreamingJobOptions.CHECKPOINT_TIMEOUT, options.checkpointTimeout().toMillis(), pending.get(inFlight).size(), attempt.taskIds().size());
            checkpointsAborted.incrementAndGet();
            nextCheckpointNanos = Math.max(inFlightStarted + options.checkpointInterval().toNanos(), System.nanoTime() + options.checkpointMinPause().toNanos());
            inFlight = -1;
        }

        private void failOnReport()
        {
            for (TaskReport report = attempt.reports().poll(); report != null; report = attempt.reports().poll()) {
                handle(report);
            }
        }

        private void handle(TaskReport report)
        {
            if (report instanceof TaskReport.Failure failure) {
                Throwable cause = failure.cause();
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw new OntulException(ErrorCode.INTERNAL_ERROR, "Task " + failure.taskId() + " of streaming job " + definition.name() + " failed: " + cause, cause);
            }
            if (report instanceof TaskReport.Acknowledged acknowledged) {
                Ack ack = acknowledged.ack();
                Map<String, Ack> acks = pending.get(ack.checkpointId());
                if (acks == null) {
                    throw OntulException.internal("task " + ack.taskId() + " of streaming job " + definition.name() + " acknowledged checkpoint " + ack.checkpointId()
                            + ", which is not pending (pending: " + pending.keySet() + ")", null);
                }
                acks.put(ack.taskId(), ack);
                if (acks.size() == attempt.taskIds().size()) {
                    complete(ack.checkpointId());
                }
            }
        }

        /**
         * Completes checkpoint {@code checkpointId}, which every task acknowledged, together with
         * the aborted checkpoints before it: every task acknowledged those too, as tasks
         * acknowledge in order.
         */
        private void complete(long checkpointId)
        {
            Map<Long, Map<String, Ack>> completing = new java.util.TreeMap<>(pending.headMap(checkpointId, true));
            List<Ack> acks = new ArrayList<>();
            completing.forEach((id, byTask) -> {
                if (byTask.size() != attempt.taskIds().size()) {
                    throw OntulException.internal("checkpoint " + id + " of streaming job " + definition.name() + " is missing acknowledgements while " + checkpointId + " is complete", null);
                }
                acks.addAll(byTask.values());
            });
            List<byte[]> committables = acks.stream().map(Ack::committable).toList();
            boolean atLeastOnce = options.deliveryGuarantee() == StreamingJobOptions.DeliveryGuarantee.AT_LEAST_ONCE;
            if (atLeastOnce) {
                // rows visible before the checkpoint is stored: a failure until it is replays them
                committer.commit(checkpointId, committables);
            }
            CrashHook.NONE.reached(CrashPoints.BEFORE_CHECKPOINT_COMPLETE);
            coordinator.complete(checkpointId, acks);
            CrashHook.NONE.reached(CrashPoints.AFTER_CHECKPOINT_COMPLETE);
            if (!atLeastOnce) {
                committer.commit(checkpointId, committables);
            }
            CrashHook.NONE.reached(CrashPoints.AFTER_SINK_COMMIT);
            attempt.checkpointCompleted(checkpointId);
            completing.keySet().forEach(pending::remove);
            if (inFlight >= 0 && inFlight <= checkpointId) {
                long started = inFlightStarted;
                inFlight = -1;
                lastCheckpointDurationMillis = (System.nanoTime() - started) / 1_000_000;
                nextCheckpointNanos = Math.max(started + options.checkpointInterval().toNanos(), System.nanoTime() + options.checkpointMinPause().toNanos());
            }
            lastCheckpointId = checkpointId;
            lastCheckpointTime = Instant.now();
            lastCheckpointBytes = attempt.lastCheckpointBytes();
            checkpointHistory.add(new JobFigures.CompletedCheckpoint(checkpointId, lastCheckpointTime, lastCheckpointDurationMillis, lastCheckpointBytes));
            consecutiveFailures = 0;
        }

        private void updateFigures()
        {
            spilledBytes = context.spillStatistics().bytes();
            memoryBytes = context.allocator().getAllocatedMemory();
            memoryPeakBytes = Math.max(memoryPeakBytes, context.allocator().getPeakMemoryAllocation());
        }
    }

    /**
     * The id of the checkpoint after {@code previous}. With at-least-once delivery a sink commits
     * a checkpoint before it is stored, so a restart from an earlier checkpoint must never reuse
     * an id a sink may hold (sinks skip ids they have): ids then follow the clock (milliseconds),
     * which moves on across restarts, and are only made to grow when checkpoints come faster.
     * They follow the clock too when the tasks run on workers: a task of an earlier attempt that
     * a worker has not stopped yet then never writes a snapshot of a checkpoint the new attempt
     * takes.
     */
    private long checkpointIdAfter(long previous)
    {
        boolean clock = distributed || options.deliveryGuarantee() == StreamingJobOptions.DeliveryGuarantee.AT_LEAST_ONCE;
        return clock ? Math.max(previous + 1, System.currentTimeMillis()) : previous + 1;
    }

    private void setState(StreamingJobState newState, String error)
    {
        state = newState;
        lastError = error;
        environment.store().updateState(definition.name(), newState.name(), error);
    }

    /** Arrow memory the running attempt holds (batches in channels, window state, rows held for sinks), and the most it held; 0 when it does not run. */
    public long memoryBytes()
    {
        return current == null ? 0 : memoryBytes;
    }

    /** Checkpoints aborted by their timeout since the job was loaded (their rows went with a later one). */
    public long checkpointsAborted()
    {
        return checkpointsAborted.get();
    }

    /** The most Arrow memory an attempt of this job held since the job was loaded. */
    public long memoryPeakBytes()
    {
        return memoryPeakBytes;
    }

    /** The tasks of the running attempt; empty when the job does not run. */
    public List<TaskStatus> tasks()
    {
        Attempt attempt = current;
        return attempt == null ? List.of() : attempt.statuses(definition.name());
    }

    /** The job's figures now: its counts with those of the running attempt. */
    public JobFigures figures()
    {
        Instant started = startedAt;
        boolean active = isActive();
        Attempt attempt = current;
        long in = recordsIn.get();
        long out = recordsOut.get();
        long rejected = recordsRejected.get();
        long late = recordsLate.get();
        long jobWatermark = watermark;
        long lag = -1;
        Map<String, Long> partitionLags = Map.of();
        if (attempt != null) {
            partitionLags = attempt.partitionLags();
            in += attempt.recordsIn();
            out += attempt.recordsOut();
            rejected += attempt.recordsRejected();
            late += attempt.recordsLate();
            jobWatermark = Math.max(jobWatermark, attempt.watermark());
            lag = attempt.lag();
        }
        return new JobFigures(definition.name(), state.name(), definition.createdBy(), options.parallelism(), Optional.ofNullable(active ? started : null),
                in, out, rejected, late, active ? lag : -1, active ? partitionLags : Map.of(), jobWatermark, active ? spilledBytes : 0, memoryBytes(),
                checkpointHistory.completed(), checkpointsAborted.get(), restarts.get(), Optional.ofNullable(lastError), checkpointHistory.recent());
    }

    /** One row of SHOW STREAMING JOBS, in {@link StreamingJobManager#SHOW_COLUMNS} order. */
    public List<Object> showRow()
    {
        JobFigures figures = figures();
        boolean active = figures.startedAt().isPresent();
        Instant checkpointTime = lastCheckpointTime;
        return Arrays.asList(
                figures.name(),
                figures.state(),
                figures.startedAt().map(started -> formatDuration(Duration.between(started, Instant.now()))).orElse(null),
                figures.recordsIn(),
                figures.recordsOut(),
                figures.recordsRejected(),
                figures.recordsLate(),
                figures.sourceLag() >= 0 ? figures.sourceLag() : null,
                figures.watermark() == WatermarkTracker.NONE ? null : Instant.EPOCH.plus(figures.watermark(), ChronoUnit.MICROS).toString(),
                active ? figures.spilledBytes() : null,
                lastCheckpointId == 0 ? null : lastCheckpointId,
                checkpointTime == null ? null : checkpointTime.toString(),
                checkpointTime == null ? null : lastCheckpointDurationMillis,
                checkpointTime == null ? null : lastCheckpointBytes,
                figures.lastError().orElse(null),
                (long) figures.parallelism(),
                figures.owner());
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
