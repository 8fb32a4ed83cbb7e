package io.ontul.engine.stream.job;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.metadata.StoredStreamingJob;
import io.ontul.engine.stream.checkpoint.Ack;
import io.ontul.engine.stream.task.TaskReport;
import io.ontul.engine.stream.task.TaskStatus;
import io.ontul.engine.stream.window.WatermarkTracker;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.cluster.StreamAttemptRequest;
import io.ontul.spi.cluster.StreamCommand;
import io.ontul.spi.cluster.StreamReport;
import io.ontul.spi.cluster.StreamTaskFigures;
import io.ontul.spi.cluster.StreamTransport;
import io.ontul.spi.cluster.WorkerAddress;

/**
 * An attempt whose tasks run on the workers of a cluster, as the coordinator sees it: one session
 * per worker ({@link StreamTransport#openSession}), over which each worker prepares its task
 * indices ({@link StreamTaskHost}), then runs them when all have prepared; barriers, completed
 * checkpoints and the end of the sources go to every worker, and the workers' reports come back
 * in order into the one queue the job's coordinator reads, as if the tasks ran here. The
 * checkpoint protocol is the same as in one process: the coordinator completes checkpoints and
 * commits the sinks. A worker lost (its session failed) fails the attempt with WORKER_LOST
 * naming it; the job then restarts from its latest complete checkpoint on the workers still
 * active.
 */
final class DistributedAttempt
        implements Attempt
{
    private static final Logger LOG = LoggerFactory.getLogger(DistributedAttempt.class);
    private static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);
    private static final long WATCH_MILLIS = 500;

    private final StoredStreamingJob definition;
    private final long attempt;
    private final long restoredCheckpointId;
    private final List<WorkerAddress> placement;
    private final List<String> splits;
    private final Set<String> taskIds;
    private final StreamCluster cluster;
    private final BlockingQueue<TaskReport> reports = new LinkedBlockingQueue<>();
    private final Map<String, StreamTransport.StreamSession> sessions = new LinkedHashMap<>();
    private final Map<String, List<StreamTaskFigures>> figures = new ConcurrentHashMap<>();
    private final Set<String> finished = ConcurrentHashMap.newKeySet();
    private volatile CountDownLatch prepared = new CountDownLatch(0);
    private final Thread watchdog = new Thread(this::watch, "ontul-stream-watchdog");
    private volatile boolean closing;

    /**
     * @param attempt the attempt's number, greater than any earlier attempt's of the job
     * @param restoredCheckpointId the complete checkpoint the tasks start from, 0 for none
     * @param placement the worker of each task index
     * @param splits the ids of the source's splits, split j for task index j mod parallelism
     * @param taskIds every task of the attempt
     */
    DistributedAttempt(StoredStreamingJob definition, long attempt, long restoredCheckpointId, List<WorkerAddress> placement, List<String> splits, Set<String> taskIds,
            StreamCluster cluster)
    {
        this.splits = List.copyOf(splits);
        this.definition = requireNonNull(definition, "definition is null");
        this.attempt = attempt;
        this.restoredCheckpointId = restoredCheckpointId;
        this.placement = List.copyOf(placement);
        this.taskIds = Set.copyOf(taskIds);
        this.cluster = requireNonNull(cluster, "cluster is null");
    }

    /** Opens a session with every worker of the placement, waits until each has prepared its tasks, then runs them. */
    @Override
    public void start(String jobName)
    {
        StreamTransport transport = cluster.transport().orElseThrow(() -> new IllegalStateException("no transport to the workers"));
        Map<String, WorkerAddress> workers = new LinkedHashMap<>();
        placement.forEach(worker -> workers.putIfAbsent(worker.id(), worker));
        prepared = new CountDownLatch(workers.size());
        for (WorkerAddress worker : workers.values()) {
            StreamAttemptRequest request = new StreamAttemptRequest(definition.name(), definition.jobId(), attempt, definition.definition(), definition.catalog().orElse(null),
                    definition.schema().orElse(null), definition.options(), definition.createdBy(), restoredCheckpointId, placement, worker.id(), splits);
            synchronized (sessions) {
                if (closing) {
                    return;
                }
                sessions.put(worker.id(), transport.openSession(worker, request, report -> receive(worker, report), failure -> ended(worker, failure)));
            }
        }
        long deadline = System.nanoTime() + PREPARE_TIMEOUT.toNanos();
        try {
            while (!prepared.await(100, TimeUnit.MILLISECONDS)) {
                TaskReport early = reports.peek();
                if (early instanceof TaskReport.Failure failure) {
                    throw failure.cause() instanceof RuntimeException runtime ? runtime : new OntulException(ErrorCode.INTERNAL_ERROR, failure.cause().toString(), failure.cause());
                }
                if (System.nanoTime() > deadline) {
                    throw new OntulException(ErrorCode.EXTERNAL_ERROR, "The workers of streaming job " + definition.name() + " did not prepare attempt " + attempt + " within "
                            + PREPARE_TIMEOUT.toSeconds() + " s (" + prepared.getCount() + " of " + workers.size() + " did not)");
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "Streaming job " + definition.name() + " was interrupted while its workers prepared");
        }
        LOG.info("Streaming job {}: attempt {} runs on workers {} (task index i on the i-th)", jobName, attempt, placement.stream().map(WorkerAddress::id).toList());
        sendAll(new StreamCommand(StreamCommand.Kind.RUN, 0));
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * Fails the attempt once one of its workers is no longer active: a worker that hangs or is cut
     * off keeps its sessions open, but stops heartbeating and is declared dead.
     */
    private void watch()
    {
        while (!closing) {
            Set<String> lost = cluster.inactive(placement);
            if (!lost.isEmpty()) {
                reports.add(new TaskReport.Failure("worker " + String.join(", ", lost), new OntulException(ErrorCode.WORKER_LOST, "Worker " + String.join(", ", lost)
                        + " of attempt " + attempt + " of streaming job " + definition.name() + " is no longer active (it stopped heartbeating)")));
                return;
            }
            try {
                Thread.sleep(WATCH_MILLIS);
            }
            catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A worker's report, on the transport's thread: acknowledgements, failures and ends go to the job's coordinator in order. */
    private void receive(WorkerAddress worker, StreamReport report)
    {
        switch (report.kind()) {
            case PREPARED -> prepared.countDown();
            case ACK -> reports.add(new TaskReport.Acknowledged(new Ack(report.taskId(), report.checkpointId(), report.committable())));
            case FAILURE -> reports.add(new TaskReport.Failure(report.taskId(), new OntulException(errorCode(report.errorCode()),
                    "Task " + report.taskId() + " of streaming job " + definition.name() + " on worker " + worker.id() + " failed: " + report.message())));
            case FINISHED -> {
                finished.add(report.taskId());
                reports.add(new TaskReport.Finished(report.taskId()));
            }
            case FIGURES -> figures.put(worker.id(), report.tasks());
        }
    }

    private static ErrorCode errorCode(String name)
    {
        try {
            return name == null ? ErrorCode.INTERNAL_ERROR : ErrorCode.valueOf(name);
        }
        catch (IllegalArgumentException unknown) {
            return ErrorCode.INTERNAL_ERROR;
        }
    }

    /** A worker's session ended: unless the attempt is ending, that fails it. */
    private void ended(WorkerAddress worker, RuntimeException failure)
    {
        if (closing) {
            return;
        }
        if (failure != null) {
            reports.add(new TaskReport.Failure("worker " + worker.id(), failure));
            return;
        }
        List<String> running = new ArrayList<>();
        for (int index = 0; index < placement.size(); index++) {
            if (placement.get(index).id().equals(worker.id())) {
                for (String task : List.of("source-" + index, "window-" + index)) {
                    if (taskIds.contains(task) && !finished.contains(task)) {
                        running.add(task);
                    }
                }
            }
        }
        if (!running.isEmpty()) {
            reports.add(new TaskReport.Failure("worker " + worker.id(), new OntulException(ErrorCode.EXTERNAL_ERROR,
                    "Worker " + worker.id() + " ended attempt " + attempt + " of streaming job " + definition.name() + " while its tasks ran")));
        }
    }

    private void sendAll(StreamCommand command)
    {
        List<StreamTransport.StreamSession> open;
        synchronized (sessions) {
            open = List.copyOf(sessions.values());
        }
        open.forEach(session -> session.send(command));
    }

    @Override
    public BlockingQueue<TaskReport> reports()
    {
        return reports;
    }

    @Override
    public Set<String> taskIds()
    {
        return taskIds;
    }

    @Override
    public void injectBarrier(long checkpointId)
    {
        sendAll(new StreamCommand(StreamCommand.Kind.BARRIER, checkpointId));
    }

    @Override
    public void checkpointCompleted(long checkpointId)
    {
        sendAll(new StreamCommand(StreamCommand.Kind.COMPLETED, checkpointId));
    }

    @Override
    public void endSources()
    {
        sendAll(new StreamCommand(StreamCommand.Kind.END, 0));
    }

    @Override
    public boolean join()
    {
        long deadline = System.nanoTime() + JOIN_TIMEOUT.toNanos();
        while (!finished.containsAll(taskIds) && System.nanoTime() < deadline) {
            if (reports.stream().anyMatch(TaskReport.Failure.class::isInstance)) {
                return false;
            }
            try {
                Thread.sleep(20);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return finished.containsAll(taskIds);
    }

    private List<StreamTaskFigures> allFigures()
    {
        List<StreamTaskFigures> all = new ArrayList<>();
        figures.values().forEach(all::addAll);
        return all;
    }

    private long sum(Predicate<StreamTaskFigures> tasks, ToLongFunction<StreamTaskFigures> figure)
    {
        return allFigures().stream().filter(tasks).mapToLong(figure).sum();
    }

    private static boolean isSource(StreamTaskFigures task)
    {
        return task.kind().equals("source");
    }

    private static boolean isWindow(StreamTaskFigures task)
    {
        return !isSource(task);
    }

    @Override
    public long recordsIn()
    {
        return sum(DistributedAttempt::isSource, StreamTaskFigures::recordsIn);
    }

    @Override
    public long recordsRejected()
    {
        return sum(DistributedAttempt::isSource, StreamTaskFigures::rejected);
    }

    @Override
    public long recordsLate()
    {
        return sum(DistributedAttempt::isWindow, StreamTaskFigures::late);
    }

    @Override
    public long recordsOut()
    {
        boolean windowed = taskIds.stream().anyMatch(task -> task.startsWith("window-"));
        return sum(windowed ? DistributedAttempt::isWindow : DistributedAttempt::isSource, StreamTaskFigures::recordsOut);
    }

    @Override
    public long watermark()
    {
        List<StreamTaskFigures> windows = allFigures().stream().filter(DistributedAttempt::isWindow).toList();
        boolean windowed = taskIds.stream().anyMatch(task -> task.startsWith("window-"));
        if (!windowed || windows.size() < taskIds.size() / 2) {
            // a stateless job, or not every window task has reported yet
            return WatermarkTracker.NONE;
        }
        return windows.stream().mapToLong(StreamTaskFigures::watermark).min().orElse(WatermarkTracker.NONE);
    }

    @Override
    public long lag()
    {
        List<StreamTaskFigures> known = allFigures().stream().filter(DistributedAttempt::isSource).filter(task -> task.lag() >= 0).toList();
        return known.isEmpty() ? -1 : known.stream().mapToLong(StreamTaskFigures::lag).sum();
    }

    @Override
    public Map<String, Long> partitionLags()
    {
        Map<String, Long> lags = new java.util.TreeMap<>();
        allFigures().stream().filter(DistributedAttempt::isSource).forEach(task -> lags.putAll(task.partitionLags()));
        return lags;
    }

    @Override
    public List<TaskStatus> statuses(String jobName)
    {
        List<TaskStatus> statuses = new ArrayList<>();
        figures.forEach((worker, tasks) -> tasks.forEach(task -> statuses.add(new TaskStatus(jobName, task.taskId(), task.kind(), task.assignment(), task.recordsIn(),
                task.recordsOut(), task.watermark(), task.blockedMillis(), task.lastCheckpointMillis(), task.lastCheckpointBytes(), worker))));
        statuses.sort(Comparator.comparing((TaskStatus task) -> !task.kind().equals("source")).thenComparing(task -> task.taskId().length()).thenComparing(TaskStatus::taskId));
        return statuses;
    }

    @Override
    public long lastCheckpointBytes()
    {
        return sum(task -> true, StreamTaskFigures::lastCheckpointBytes);
    }

    /** Ends every worker's session: the workers stop the attempt's tasks. */
    @Override
    public void close()
    {
        List<StreamTransport.StreamSession> open;
        synchronized (sessions) {
            closing = true;
            open = List.copyOf(sessions.values());
        }
        watchdog.interrupt();
        for (StreamTransport.StreamSession session : open) {
            try {
                session.close();
            }
            catch (RuntimeException e) {
                LOG.debug("Closing a worker's session of streaming job {} failed", definition.name(), e);
            }
        }
    }
}
