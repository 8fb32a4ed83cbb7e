package io.ontul.engine.stream.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.function.ToLongFunction;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.stream.checkpoint.CheckpointCoordinator;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.shuffle.InputGate;
import io.ontul.engine.stream.shuffle.KeyGroups;
import io.ontul.engine.stream.shuffle.RemoteChannel;
import io.ontul.engine.stream.shuffle.ShuffleReceiver;
import io.ontul.engine.stream.shuffle.ShuffleOutput;
import io.ontul.engine.stream.sink.JobSinks;
import io.ontul.engine.stream.task.SourceTask;
import io.ontul.engine.stream.task.TaskMetrics;
import io.ontul.engine.stream.task.TaskReport;
import io.ontul.engine.stream.task.TaskServices;
import io.ontul.engine.stream.task.TaskStatus;
import io.ontul.engine.stream.task.WindowTask;
import io.ontul.engine.stream.window.WatermarkTracker;
import io.ontul.spi.stream.StreamSplit;

/**
 * One attempt of a job: its tasks, each on its own thread, started from the latest complete
 * checkpoint. A job of parallelism P has P source tasks, the source's partitions dealt out to them
 * in order (partition j to task j mod P: the coordinator decides, never a consumer group); a
 * stateless job's source tasks write their own sinks, a windowed job's send their rows through a
 * hash shuffle by key group to P window tasks, which write the sinks. The tasks talk to the
 * job's coordinator ({@link StreamingJob}) only by {@link TaskReport reports}, and it to them by
 * injecting barriers into the source tasks.
 * <p>
 * On restore, each source task takes its partitions' positions and greatest event times, whichever
 * task held them before; each window task takes, from every task snapshot, the window state of the
 * key groups it owns now, so the parallelism may change between attempts.
 */
final class JobAttempt
        implements Attempt
{
    /** Batches a channel holds before its sender waits. */
    static final int CHANNEL_CAPACITY = 8;
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JobAttempt.class);

    private final List<SourceTask> sources = new ArrayList<>();
    private final List<WindowTask> windows = new ArrayList<>();
    private final Map<Integer, InputGate> gates = new TreeMap<>();
    private final List<RemoteChannel> remoteChannels = new ArrayList<>();
    private final List<JobSinks> sinks = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final BlockingQueue<TaskReport> reports;

    /** Where a source task sends to a window task of another node. */
    interface RemoteReceivers
    {
        /** Never called by an attempt whose tasks all run here. */
        RemoteReceivers NONE = (sender, receiver) -> {
            throw new IllegalStateException("window task " + receiver + " does not run here");
        };

        /** The channel from source task {@code sender} to window task {@code receiver}, opened when first used. */
        RemoteChannel open(int sender, int receiver);
    }

    /**
     * The source's splits in the order their tasks are dealt them (split j to task index j mod
     * parallelism): as the source lists them here, or, for a worker's share, in the order its
     * coordinator listed them (every worker must deal the same splits).
     */
    static List<StreamSplit> splits(StreamingJobPlan plan, java.util.Optional<List<String>> order)
    {
        List<StreamSplit> listed = plan.source().splits(plan.scan().table());
        if (order.isEmpty()) {
            return listed;
        }
        Map<String, StreamSplit> byId = new HashMap<>();
        listed.forEach(split -> byId.put(split.id(), split));
        List<StreamSplit> ordered = new ArrayList<>();
        for (String id : order.get()) {
            StreamSplit split = byId.get(id);
            if (split == null) {
                throw new IllegalStateException("Split " + id + " of " + plan.scan().table().qualifiedName() + ", which the coordinator assigned, is not one this worker sees: "
                        + byId.keySet());
            }
            ordered.add(split);
        }
        return ordered;
    }

    /**
     * All the tasks of an attempt, in this process.
     *
     * @param plans one plan of the job per task index (a plan's feeds belong to one source and one window task)
     * @param restored the checkpoint the attempt starts from
     */
    JobAttempt(String jobName, String jobId, List<StreamingJobPlan> plans, StreamingJobOptions options, TaskServices shared, CheckpointCoordinator.Restored restored)
    {
        this(jobName, jobId, plans.size(), indexed(plans), options, shared, restored, java.util.Optional.empty(), RemoteReceivers.NONE);
    }

    /**
     * The tasks of an attempt that run in this process: those of the task indices of
     * {@code plans}, of {@code parallelism}; the window tasks of the other indices run elsewhere
     * and are reached through {@code remote}.
     *
     * @param plans one plan of the job per task index run here (a plan's feeds belong to one source and one window task)
     * @param splitOrder the ids of the source's splits in the order the coordinator dealt them; empty to list them here
     */
    JobAttempt(String jobName, String jobId, int parallelism, Map<Integer, StreamingJobPlan> plans, StreamingJobOptions options, TaskServices shared,
            CheckpointCoordinator.Restored restored, java.util.Optional<List<String>> splitOrder, RemoteReceivers remote)
    {
        StreamingJobPlan plan = plans.values().iterator().next();
        boolean windowed = !plan.aggregations().isEmpty();
        this.reports = shared.reports();
        try {
            Map<String, byte[]> saved = restored.positions();
            List<List<StreamSplit>> assigned = new ArrayList<>();
            for (int task = 0; task < parallelism; task++) {
                assigned.add(new ArrayList<>());
            }
            List<StreamSplit> splits = splits(plan, splitOrder);
            for (int j = 0; j < splits.size(); j++) {
                StreamSplit split = splits.get(j);
                assigned.get(j % parallelism).add(new StreamSplit(split.id(), saved.getOrDefault(split.id(), split.startPosition())));
            }
            long restoredWatermark = restored.stateValues(WindowTask.WATERMARK).stream().mapToLong(Long::parseLong).min().orElse(WatermarkTracker.NONE);
            Map<String, Long> eventTimes = new HashMap<>();
            restored.stateWithPrefix(SourceTask.EVENT_TIME).forEach((split, time) -> eventTimes.put(split, Long.parseLong(time)));
            if (windowed) {
                for (int task : plans.keySet()) {
                    gates.put(task, new InputGate(parallelism, CHANNEL_CAPACITY));
                }
            }
            // rows cross the shuffle as the local aggregation's state rows (keys first) or, for a SESSION window, as they are
            int[] keyColumns = windowed ? plan.shuffleKey().sent() : new int[0];
            for (Map.Entry<Integer, StreamingJobPlan> entry : plans.entrySet()) {
                int task = entry.getKey();
                StreamingJobPlan taskPlan = entry.getValue();
                JobSinks sourceSinks = open(taskPlan, jobName, jobId, "source-" + task, shared);
                WatermarkTracker watermarks = null;
                ShuffleOutput shuffle = null;
                if (windowed) {
                    List<String> ids = assigned.get(task).stream().map(StreamSplit::id).toList();
                    watermarks = new WatermarkTracker(plan.watermark().orElseThrow(), ids, System::nanoTime);
                    Map<String, Long> own = new HashMap<>();
                    ids.forEach(id -> {
                        if (eventTimes.containsKey(id)) {
                            own.put(id, eventTimes.get(id));
                        }
                    });
                    watermarks.restore(own, restoredWatermark);
                    List<ShuffleReceiver> receivers = new ArrayList<>();
                    for (int receiver = 0; receiver < parallelism; receiver++) {
                        InputGate local = gates.get(receiver);
                        if (local != null) {
                            receivers.add(local);
                        }
                        else {
                            RemoteChannel channel = remote.open(task, receiver);
                            remoteChannels.add(channel);
                            receivers.add(channel);
                        }
                    }
                    shuffle = new ShuffleOutput(task, receivers, new KeyGroups(keyColumns, options.maxParallelism()), shared.context().allocator());
                }
                sources.add(new SourceTask("source-" + task, taskPlan, assigned.get(task), watermarks, sourceSinks, shuffle, shared));
                if (windowed) {
                    windows.add(new WindowTask("window-" + task, task, parallelism, options.maxParallelism(), taskPlan, gates.get(task), open(taskPlan, jobName, jobId, "window-" + task, shared),
                            shared, restored.snapshots().values(), restoredWatermark));
                }
            }
        }
        catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private static Map<Integer, StreamingJobPlan> indexed(List<StreamingJobPlan> plans)
    {
        Map<Integer, StreamingJobPlan> indexed = new TreeMap<>();
        for (int task = 0; task < plans.size(); task++) {
            indexed.put(task, plans.get(task));
        }
        return indexed;
    }

    /** The input gate of window task {@code task} when it runs here: where the channels from other nodes deliver. */
    java.util.Optional<InputGate> gate(int task)
    {
        return java.util.Optional.ofNullable(gates.get(task));
    }

    /** @param writer the id of the task that writes through the sinks */
    private JobSinks open(StreamingJobPlan plan, String jobName, String jobId, String writer, TaskServices shared)
    {
        JobSinks opened = JobSinks.open(plan, jobName, jobId, writer, shared.context().allocator());
        sinks.add(opened);
        return opened;
    }

    /** The ids of the tasks of a job of {@code parallelism}: each acknowledges every checkpoint. */
    static Set<String> taskIds(int parallelism, boolean windowed)
    {
        Set<String> ids = new TreeSet<>();
        for (int task = 0; task < parallelism; task++) {
            ids.add("source-" + task);
            if (windowed) {
                ids.add("window-" + task);
            }
        }
        return ids;
    }

    @Override
    public Set<String> taskIds()
    {
        Set<String> ids = new TreeSet<>();
        sources.forEach(task -> ids.add(task.taskId()));
        windows.forEach(task -> ids.add(task.taskId()));
        return ids;
    }

    /** Starts every task's thread, the receiving tasks first. */
    @Override
    public void start(String jobName)
    {
        for (WindowTask task : windows) {
            startThread(task, "ontul-stream-" + jobName + "-" + task.taskId());
        }
        for (SourceTask task : sources) {
            startThread(task, "ontul-stream-" + jobName + "-" + task.taskId());
        }
    }

    private void startThread(Runnable task, String name)
    {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    @Override
    public BlockingQueue<TaskReport> reports()
    {
        return reports;
    }

    @Override
    public void injectBarrier(long checkpointId)
    {
        sources.forEach(task -> task.injectBarrier(checkpointId));
    }

    @Override
    public void checkpointCompleted(long checkpointId)
    {
        sources.forEach(task -> task.checkpointCompleted(checkpointId));
    }

    /** Asks the source tasks to stop reading; their end of input then ends the window tasks. */
    @Override
    public void endSources()
    {
        sources.forEach(SourceTask::end);
    }

    /** The sum of one figure over the source tasks or over the window tasks. */
    private long sum(boolean ofSources, ToLongFunction<TaskMetrics> figure)
    {
        List<TaskMetrics> metrics = (ofSources ? sources.stream().map(SourceTask::metrics) : windows.stream().map(WindowTask::metrics)).toList();
        return metrics.stream().mapToLong(figure).sum();
    }

    @Override
    public long recordsIn()
    {
        return sum(true, metrics -> metrics.recordsIn.get());
    }

    @Override
    public long recordsRejected()
    {
        return sum(true, metrics -> metrics.rejected.get());
    }

    @Override
    public long recordsLate()
    {
        return sum(false, metrics -> metrics.late.get());
    }

    /** The job's records out: written by the window tasks of a windowed job, by the source tasks of a stateless one. */
    @Override
    public long recordsOut()
    {
        return windows.isEmpty() ? sum(true, metrics -> metrics.recordsOut.get()) : sum(false, metrics -> metrics.recordsOut.get());
    }

    /** The job's watermark: the least of its window tasks', or none for a stateless job. */
    @Override
    public long watermark()
    {
        return windows.stream().mapToLong(task -> task.metrics().watermark).min().orElse(WatermarkTracker.NONE);
    }

    /** Records behind the partitions' ends over all source tasks, or -1 when no task knows. */
    @Override
    public long lag()
    {
        long lag = 0;
        boolean known = false;
        for (SourceTask task : sources) {
            if (task.metrics().lag >= 0) {
                lag += task.metrics().lag;
                known = true;
            }
        }
        return known ? lag : -1;
    }

    @Override
    public java.util.Map<String, Long> partitionLags()
    {
        java.util.Map<String, Long> lags = new java.util.TreeMap<>();
        for (SourceTask task : sources) {
            lags.putAll(task.metrics().partitionLags);
        }
        return lags;
    }

    /** Every task as it is now, sources first. */
    @Override
    public List<TaskStatus> statuses(String jobName)
    {
        List<TaskStatus> statuses = new ArrayList<>();
        sources.forEach(task -> statuses.add(task.status(jobName)));
        windows.forEach(task -> statuses.add(task.status(jobName)));
        return statuses;
    }

    /** Every task's figures, sources first, as a worker reports them to its coordinator. */
    List<io.ontul.spi.cluster.StreamTaskFigures> figures()
    {
        List<io.ontul.spi.cluster.StreamTaskFigures> figures = new ArrayList<>();
        for (SourceTask task : sources) {
            figures.add(figures(task.status(""), task.metrics()));
        }
        for (WindowTask task : windows) {
            figures.add(figures(task.status(""), task.metrics()));
        }
        return figures;
    }

    private static io.ontul.spi.cluster.StreamTaskFigures figures(TaskStatus status, TaskMetrics metrics)
    {
        return new io.ontul.spi.cluster.StreamTaskFigures(status.taskId(), status.kind(), status.assignment(), status.recordsIn(), status.recordsOut(), metrics.rejected.get(),
                metrics.late.get(), status.watermark(), metrics.lag, status.blockedMillis(), status.lastCheckpointMillis(), status.lastCheckpointBytes(), metrics.partitionLags);
    }

    @Override
    public long lastCheckpointBytes()
    {
        return sum(true, metrics -> metrics.lastCheckpointBytes) + sum(false, metrics -> metrics.lastCheckpointBytes);
    }

    /** Waits up to {@code timeout} for the task threads, whatever interrupts come; returns whether one came. */
    private boolean awaitThreads(Duration timeout)
    {
        boolean interrupted = false;
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : threads) {
            while (thread.isAlive() && System.nanoTime() < deadline) {
                try {
                    thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                }
                catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        return interrupted;
    }

    /** Waits up to the join timeout for every task's thread to end (an interrupt meanwhile is kept for the caller); false if some did not. */
    @Override
    public boolean join()
    {
        if (awaitThreads(JOIN_TIMEOUT)) {
            Thread.currentThread().interrupt();
        }
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /**
     * Ends the attempt: closes the channels (what waits in them is freed, blocked senders go on),
     * stops the tasks, waits for them and closes their sinks, which discards what was not
     * prepared.
     */
    @Override
    public void close()
    {
        // closed channels free what they hold and release blocked senders and receivers; source
        // tasks stop between two polls (an interrupt is the last resort: Kafka's client and file
        // I/O do not take it well)
        gates.values().forEach(InputGate::close);
        // a sender waiting for room on another node's channel fails at once
        remoteChannels.forEach(RemoteChannel::close);
        sources.forEach(SourceTask::abort);
        // the tasks must be gone before their sinks and the job's memory are freed, even when this
        // thread was interrupted itself (the engine shutting the job down)
        boolean interrupted = Thread.interrupted();
        interrupted |= awaitThreads(JOIN_TIMEOUT);
        if (threads.stream().anyMatch(Thread::isAlive)) {
            threads.forEach(Thread::interrupt);
            interrupted |= awaitThreads(Duration.ofSeconds(5));
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        threads.stream().filter(Thread::isAlive).forEach(thread -> LOG.warn("Task thread {} still runs {} after its attempt ended; closing its sinks anyway", thread.getName(), JOIN_TIMEOUT));
        List<AutoCloseable> closing = new ArrayList<>(sinks);
        Batches.closeAll(closing);
    }
}
