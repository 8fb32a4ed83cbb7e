package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.plan.TaskContext;
import io.ontul.engine.stream.checkpoint.Ack;
import io.ontul.engine.stream.checkpoint.CrashPoints;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.shuffle.ChannelElement;
import io.ontul.engine.stream.shuffle.ShuffleOutput;
import io.ontul.engine.stream.sink.JobSinks;
import io.ontul.engine.stream.window.LocalWindowAggregation;
import io.ontul.engine.stream.window.WatermarkTracker;
import io.ontul.spi.stream.StreamBatch;
import io.ontul.spi.stream.StreamReader;
import io.ontul.spi.stream.StreamSplit;

/**
 * A source task: reads the partitions the coordinator assigned it, runs the rows through the
 * job's filter/project and window table function operators ({@link InputStage}) and either writes
 * them to its own sink writer (a stateless job) or sends them through the hash shuffle to the
 * window tasks, with its watermark (the minimum over its partitions, {@link WatermarkTracker}),
 * or that it is idle when it reads no partition. A job that aggregates per window sends, for
 * each poll, the state rows of its {@link LocalWindowAggregation} instead of the rows.
 * <p>
 * The coordinator injects checkpoint barriers ({@link #injectBarrier}); between two polls the task
 * takes the next one: it pre-commits its sinks, writes its snapshot (its partitions' positions and
 * greatest event times), forwards the barrier downstream and acknowledges. When a checkpoint
 * completes ({@link #checkpointCompleted}) it reports the checkpoint's positions to the source
 * (Kafka: the consumer group's offsets, for lag monitoring).
 */
public final class SourceTask
        implements Runnable
{
    public static final String EVENT_TIME = "event-time.";
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);

    private final String taskId;
    private final StreamingJobPlan plan;
    private final List<StreamSplit> splits;
    private final Map<String, byte[]> positions = new HashMap<>();
    private final WatermarkTracker watermarks;
    private final JobSinks sinks;
    private final ShuffleOutput shuffle;
    private final TaskServices services;
    private final TaskMetrics metrics = new TaskMetrics();
    private final LinkedBlockingQueue<Long> barriers = new LinkedBlockingQueue<>();
    private final TreeMap<Long, Map<String, byte[]>> checkpointPositions = new TreeMap<>();
    private volatile long completedCheckpoint;
    private volatile boolean ending;
    private volatile boolean aborted;
    private long sentWatermark = WatermarkTracker.NONE;
    /** The local half of a windowed job's aggregation, or null: rows cross the shuffle as they are. */
    private LocalWindowAggregation local;

    /**
     * @param splits the partitions to read, each from its position
     * @param watermarks the task's watermark over its splits; null for a stateless job
     * @param sinks where a stateless job's rows go, and any job's undecodable records
     * @param shuffle where a windowed job's rows go; null for a stateless job
     */
    public SourceTask(String taskId, StreamingJobPlan plan, List<StreamSplit> splits, WatermarkTracker watermarks, JobSinks sinks, ShuffleOutput shuffle, TaskServices services)
    {
        this.taskId = requireNonNull(taskId, "taskId is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.splits = List.copyOf(splits);
        this.watermarks = watermarks;
        this.sinks = requireNonNull(sinks, "sinks is null");
        this.shuffle = shuffle;
        this.services = requireNonNull(services, "services is null");
        if ((watermarks == null) != (shuffle == null)) {
            throw new IllegalArgumentException("a windowed job's source task has a watermark and a shuffle, a stateless job's neither");
        }
        splits.forEach(split -> positions.put(split.id(), split.startPosition()));
    }

    public String taskId()
    {
        return taskId;
    }

    public TaskMetrics metrics()
    {
        return metrics;
    }

    /** What the task shows of itself. */
    public TaskStatus status(String job)
    {
        return new TaskStatus(job, taskId, "source", "partitions " + splits.stream().map(StreamSplit::id).toList(), metrics.recordsIn.get(), metrics.recordsOut.get(),
                metrics.watermark, metrics.blockedNanos.get() / 1_000_000, metrics.lastCheckpointMillis, metrics.lastCheckpointBytes);
    }

    /** Asks the task to take checkpoint {@code checkpointId} between its next two polls. */
    public void injectBarrier(long checkpointId)
    {
        barriers.add(checkpointId);
    }

    /** Checkpoint {@code checkpointId} is complete: its positions may be reported to the source. */
    public void checkpointCompleted(long checkpointId)
    {
        completedCheckpoint = checkpointId;
    }

    /**
     * Asks the task to stop at once, between two polls, without ending its output (the attempt
     * is over: its channels are closed). Not an interrupt: Kafka's client and file I/O do not
     * take interrupts well.
     */
    public void abort()
    {
        aborted = true;
    }

    /** Asks the task to stop reading once the barriers injected so far are taken, and to end its output. */
    public void end()
    {
        ending = true;
    }

    @Override
    public void run()
    {
        TaskReporting.run(taskId, services.reports(), () -> {
            try (InputStage input = new InputStage(plan, TaskContext.single(services.context()));
                    LocalWindowAggregation local = shuffle != null && plan.aggregatesLocally()
                            ? new LocalWindowAggregation(services.context(), plan.aggregations().get(0).aggregate().parts())
                            : null) {
                this.local = local;
                if (splits.isEmpty()) {
                    runIdle();
                }
                else {
                    runReading(input);
                }
                if (aborted) {
                    return false;
                }
                if (shuffle != null) {
                    shuffle.broadcast(new ChannelElement.EndOfInput());
                }
                return true;
            }
        });
    }

    private void runReading(InputStage input)
            throws InterruptedException
    {
        try (StreamReader reader = plan.source().open(plan.scan().table(), plan.scan().scan().columns(), splits, services.context().allocator())) {
            while (!aborted) {
                reportCompleted(reader);
                Long barrier = barriers.poll();
                if (barrier != null) {
                    checkpoint(barrier);
                    continue;
                }
                if (ending) {
                    return;
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException("source task " + taskId + " interrupted");
                }
                StreamBatch polled = reader.poll(POLL_TIMEOUT);
                metrics.recordsIn.addAndGet(polled.rowCount());
                if (polled.batch() != null) {
                    input.process(polled.batch(), this::emit);
                }
                flushLocal();
                sinks.writeRejected(polled.rejected());
                positions.putAll(polled.positions());
                metrics.rejected.set(reader.rejectedRecords());
                metrics.lag = reader.lag().orElse(-1);
                metrics.partitionLags = reader.splitLags();
                if (watermarks != null) {
                    long watermark = watermarks.advance(polled.maxEventTimes());
                    if (watermark > sentWatermark) {
                        sentWatermark = watermark;
                        metrics.watermark = watermark;
                        shuffle.broadcast(new ChannelElement.Watermark(watermark));
                    }
                }
            }
        }
    }

    /** A task without partitions (more tasks than partitions) says it is idle and takes its barriers. */
    private void runIdle()
            throws InterruptedException
    {
        if (shuffle != null) {
            shuffle.broadcast(new ChannelElement.Idle());
        }
        while (!aborted) {
            Long barrier = barriers.poll(POLL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (barrier != null) {
                checkpoint(barrier);
            }
            else if (ending) {
                return;
            }
        }
    }

    private void emit(VectorSchemaRoot batch)
    {
        if (shuffle == null) {
            sinks.write(batch);
            metrics.recordsOut.addAndGet(batch.getRowCount());
            return;
        }
        if (local != null) {
            local.add(batch);
            metrics.recordsOut.addAndGet(batch.getRowCount());
            return;
        }
        send(batch);
    }

    /** Sends the poll's local aggregation (its state rows) into the shuffle, before the watermark that follows it. */
    private void flushLocal()
    {
        if (local == null) {
            return;
        }
        try (VectorSchemaRoot state = local.flush()) {
            if (state != null) {
                send(state);
            }
        }
    }

    private void send(VectorSchemaRoot batch)
    {
        try {
            shuffle.records(batch);
            if (local == null) {
                metrics.recordsOut.addAndGet(batch.getRowCount());
            }
            metrics.blockedNanos.set(shuffle.blockedNanos());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("source task " + taskId + " interrupted while sending rows", e);
        }
    }

    private void checkpoint(long checkpointId)
            throws InterruptedException
    {
        long started = System.nanoTime();
        byte[] committable = sinks.prepareCommit(checkpointId);
        services.hook().reached(CrashPoints.AFTER_PREPARE_COMMIT);
        Map<String, byte[]> at = Map.copyOf(positions);
        services.checkpoints().snapshotTask(taskId, checkpointId, at, writer -> {
            Map<String, String> state = new HashMap<>();
            if (watermarks != null) {
                watermarks.maxEventTimes().forEach((split, time) -> state.put(EVENT_TIME + split, String.valueOf(time)));
            }
            return state;
        });
        if (shuffle != null) {
            shuffle.broadcast(new ChannelElement.Barrier(checkpointId));
        }
        checkpointPositions.put(checkpointId, at);
        metrics.lastCheckpointMillis = (System.nanoTime() - started) / 1_000_000;
        metrics.lastCheckpointBytes = committable.length;
        services.reports().add(new TaskReport.Acknowledged(new Ack(taskId, checkpointId, committable)));
    }

    private void reportCompleted(StreamReader reader)
    {
        long completed = completedCheckpoint;
        Map.Entry<Long, Map<String, byte[]>> latest = checkpointPositions.floorEntry(completed);
        if (latest == null) {
            return;
        }
        checkpointPositions.headMap(completed, true).clear();
        reader.reportProgress(latest.getValue());
    }
}
