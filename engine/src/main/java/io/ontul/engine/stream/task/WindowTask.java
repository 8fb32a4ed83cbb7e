package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.plan.TaskContext;
import io.ontul.engine.stream.checkpoint.Ack;
import io.ontul.engine.stream.checkpoint.CrashPoints;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.shuffle.InputGate;
import io.ontul.engine.stream.shuffle.KeyGroups;
import io.ontul.engine.stream.sink.JobSinks;
import io.ontul.exchange.checkpoint.TaskSnapshot;

/**
 * A window task: one channel from each source task ({@link InputGate}), barriers aligned and the
 * watermark taken as the minimum over the channels ({@link AlignedInput}), the job's window state
 * for the key groups it owns ({@link WindowStage}), and its own sink writer for the rows of the
 * windows that close. On an aligned barrier it pre-commits its sink, writes its snapshot (its
 * watermark, its open windows) and acknowledges.
 */
public final class WindowTask
        implements Runnable
{
    /** The state metadata key of a window task's watermark in its snapshot. */
    public static final String WATERMARK = WindowStage.WATERMARK;
    private static final long POLL_MILLIS = 100;

    private final String taskId;
    private final int index;
    private final int parallelism;
    private final int maxParallelism;
    private final StreamingJobPlan plan;
    private final InputGate gate;
    private final JobSinks sinks;
    private final TaskServices services;
    private final Collection<TaskSnapshot> restoreFrom;
    private final long restoredWatermark;
    private final TaskMetrics metrics = new TaskMetrics();

    /**
     * @param index this task's place among the window tasks: it owns the key groups of that task
     * @param restoreFrom the snapshots of the checkpoint the job restarts from (empty for a new job)
     * @param restoredWatermark the window tasks' watermark at that checkpoint: windows closed before stay closed
     */
    public WindowTask(String taskId, int index, int parallelism, int maxParallelism, StreamingJobPlan plan, InputGate gate, JobSinks sinks, TaskServices services,
            Collection<TaskSnapshot> restoreFrom, long restoredWatermark)
    {
        this.taskId = requireNonNull(taskId, "taskId is null");
        this.index = index;
        this.parallelism = parallelism;
        this.maxParallelism = maxParallelism;
        this.plan = requireNonNull(plan, "plan is null");
        this.gate = requireNonNull(gate, "gate is null");
        this.sinks = requireNonNull(sinks, "sinks is null");
        this.services = requireNonNull(services, "services is null");
        this.restoreFrom = List.copyOf(restoreFrom);
        this.restoredWatermark = restoredWatermark;
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
        int first = firstKeyGroup(index);
        int end = firstKeyGroup(index + 1);
        return new TaskStatus(job, taskId, "window", "key groups " + first + ".." + (end - 1) + " of " + maxParallelism, metrics.recordsIn.get(), metrics.recordsOut.get(),
                metrics.watermark, 0, metrics.lastCheckpointMillis, metrics.lastCheckpointBytes);
    }

    /** The first key group task {@code task} owns (the groups of task i are those that {@link KeyGroups#taskOf} maps to i). */
    private int firstKeyGroup(int task)
    {
        return (int) (((long) task * maxParallelism + parallelism - 1) / parallelism);
    }

    @Override
    public void run()
    {
        TaskReporting.run(taskId, services.reports(), () -> {
            try (WindowStage stage = new WindowStage(plan, services.context(), TaskContext.single(services.context()))) {
                stage.restore(restoreFrom, services.context(), index, parallelism, maxParallelism);
                AlignedInput input = new AlignedInput(gate.channelCount());
                input.restoreWatermark(restoredWatermark);
                metrics.watermark = input.watermark();
                return consume(gate, input, new Handler(stage, input));
            }
        });
    }

    /**
     * Takes the gate's elements, round robin over the channels not held back, into {@code input}
     * until every channel ended (true) or the gate is closed (false: the attempt is ending).
     */
    static boolean consume(InputGate gate, AlignedInput input, AlignedInput.Handler handler)
            throws InterruptedException
    {
        int next = 0;
        while (!input.finished()) {
            InputGate.Taken taken = gate.take(input.heldBack(), next, POLL_MILLIS, TimeUnit.MILLISECONDS);
            if (taken == null) {
                if (gate.isClosed()) {
                    return false;
                }
                continue;
            }
            next = (taken.channel() + 1) % gate.channelCount();
            input.accept(taken.channel(), taken.element(), handler);
        }
        return true;
    }

    private final class Handler
            implements AlignedInput.Handler
    {
        private final WindowStage stage;
        private final AlignedInput input;

        Handler(WindowStage stage, AlignedInput input)
        {
            this.stage = stage;
            this.input = input;
        }

        @Override
        public void records(int channel, VectorSchemaRoot batch)
        {
            stage.add(batch, input.watermark());
            metrics.recordsIn.addAndGet(batch.getRowCount());
            metrics.late.set(stage.lateRows());
        }

        @Override
        public void watermark(long micros)
        {
            stage.advance(micros, output -> {
                sinks.write(output);
                metrics.recordsOut.addAndGet(output.getRowCount());
            });
            metrics.watermark = micros;
        }

        @Override
        public void barrier(long checkpointId)
        {
            long started = System.nanoTime();
            byte[] committable = sinks.prepareCommit(checkpointId);
            services.hook().reached(CrashPoints.AFTER_PREPARE_COMMIT);
            services.checkpoints().snapshotTask(taskId, checkpointId, Map.of(), writer -> stage.snapshot(writer, input.watermark()));
            metrics.lastCheckpointBytes = stage.lastSnapshotBytes() + committable.length;
            metrics.lastCheckpointMillis = (System.nanoTime() - started) / 1_000_000;
            services.reports().add(new TaskReport.Acknowledged(new Ack(taskId, checkpointId, committable)));
        }

        @Override
        public void endOfInput()
        {
            // the loop ends: every source task stopped
        }
    }
}
