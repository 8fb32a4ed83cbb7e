package io.ontul.engine.stream.job;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.metadata.StoredStreamingJob;
import io.ontul.engine.query.QueryContext;
import io.ontul.engine.stream.checkpoint.CheckpointCoordinator;
import io.ontul.engine.stream.checkpoint.CrashHook;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.shuffle.ChannelCodec;
import io.ontul.engine.stream.shuffle.ChannelElement;
import io.ontul.engine.stream.shuffle.InputGate;
import io.ontul.engine.stream.shuffle.RemoteChannel;
import io.ontul.engine.stream.task.TaskReport;
import io.ontul.engine.stream.task.TaskStatus;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.cluster.ChannelInbound;
import io.ontul.spi.cluster.ChannelTarget;
import io.ontul.spi.cluster.StreamAttemptRequest;
import io.ontul.spi.cluster.StreamCommand;
import io.ontul.spi.cluster.StreamReport;
import io.ontul.spi.cluster.StreamTaskFigures;
import io.ontul.spi.cluster.StreamTransport;
import io.ontul.spi.cluster.WorkerAddress;

/**
 * A worker's side of the streaming jobs of its cluster: the tasks of one attempt of a job that
 * its coordinator placed here, for as long as the coordinator's session of that attempt lasts.
 * A {@link Session} plans the job for the worker's task indices, makes their tasks (the window
 * tasks' input gates first, so that channels from other workers find them), starts them when the
 * coordinator says, passes barriers and completed checkpoints on, and sends the tasks' reports
 * and figures back in order. The tasks read the checkpoint the coordinator restored from the
 * shared checkpoint store and write their snapshots into it; the coordinator alone completes
 * checkpoints and commits the sinks.
 * <p>
 * A worker runs one attempt of a job at a time: a newer attempt's session ends the older one's
 * tasks, a session of an older attempt than the one running is refused, and when a session ends
 * (the coordinator ended the attempt, or cannot be reached) its tasks stop.
 */
public final class StreamTaskHost
        implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(StreamTaskHost.class);
    private static final long FIGURES_MILLIS = 1000;

    private final StreamingEnvironment environment;
    private final StreamCluster cluster;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    StreamTaskHost(StreamingEnvironment environment, StreamCluster cluster)
    {
        this.environment = requireNonNull(environment, "environment is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
    }

    /**
     * Prepares this worker's tasks of the attempt {@code request} describes and reports
     * {@link StreamReport.Kind#PREPARED} to {@code out}, which then gets every report of the
     * session in order (from the session's own thread). {@code failed} is told when the session
     * cannot go on (its reports cannot be sent, a command fails): the transport then ends it
     * with that failure, so that the coordinator learns why.
     *
     * @throws OntulException when the job cannot be planned here, or a newer attempt of it runs
     */
    public Session open(StreamAttemptRequest request, Consumer<StreamReport> out, Consumer<RuntimeException> failed)
    {
        // an older attempt's tasks stop first (outside the lock: that waits for their threads)
        close(checkNewest(request));
        Session session = new Session(request, out, failed);
        Session replaced;
        try {
            replaced = checkNewest(request);
        }
        catch (RuntimeException e) {
            session.close();
            throw e;
        }
        synchronized (sessions) {
            sessions.put(request.jobId(), session);
        }
        close(replaced);
        // the session is found by the channels of other workers from now on
        out.accept(StreamReport.prepared());
        return session;
    }

    /** The session of the job that runs here, if any; refuses a request older than it. */
    private Session checkNewest(StreamAttemptRequest request)
    {
        synchronized (sessions) {
            Session running = sessions.get(request.jobId());
            if (running != null && running.request.attempt() > request.attempt()) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Attempt " + request.attempt() + " of streaming job " + request.jobName()
                        + " is older than attempt " + running.request.attempt() + ", which runs on this worker");
            }
            if (running != null && running.request.attempt() < request.attempt()) {
                LOG.info("Streaming job {}: attempt {} replaces attempt {} on this worker", request.jobName(), request.attempt(), running.request.attempt());
                return running;
            }
            return null;
        }
    }

    private static void close(Session session)
    {
        if (session != null) {
            session.close();
        }
    }

    /**
     * Delivers the channel {@code target} names, as it arrives, into the input gate of its task
     * here, until the sender ends it or the task's attempt ends; runs on the transport's thread,
     * and waits while the channel is full (which holds the sender back).
     *
     * @throws OntulException NOT_FOUND-like INVALID_ARGUMENT when that attempt's task does not run here
     */
    public void receive(ChannelTarget target, ChannelInbound inbound)
    {
        Session session = sessions.get(target.jobId());
        if (session == null || session.request.attempt() != target.attempt()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Attempt " + target.attempt() + " of streaming job " + target.jobId() + " does not run on this worker"
                    + (session == null ? "" : " (attempt " + session.request.attempt() + " does)"));
        }
        InputGate gate = session.attempt.gate(target.task()).orElseThrow(() -> new OntulException(ErrorCode.INVALID_ARGUMENT,
                "Window task " + target.task() + " of streaming job " + session.request.jobName() + " does not run on this worker"));
        if (!session.enter(inbound)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Attempt " + target.attempt() + " of streaming job " + session.request.jobName() + " has ended on this worker");
        }
        try {
            while (!gate.isClosed() && inbound.next()) {
                ChannelElement element = ChannelCodec.element(inbound.metadata(), () -> inbound.batch(session.context.allocator()));
                gate.put(target.channel(), element);
                if (ChannelCodec.ends(element)) {
                    return;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OntulException(ErrorCode.QUERY_CANCELLED, "Interrupted while receiving channel " + target.channel() + " of window task " + target.task());
        }
        finally {
            session.exit(inbound);
        }
    }

    /** The tasks of this worker now, every job's, for {@code system.runtime.stream_tasks}. */
    public List<TaskStatus> tasks()
    {
        List<TaskStatus> tasks = new ArrayList<>();
        sessions.values().forEach(session -> tasks.addAll(session.attempt.statuses(session.request.jobName())));
        return tasks;
    }

    /**
     * Stops every attempt's tasks (the worker is shutting down) and ends their sessions with that
     * reason, so that the coordinators restart their jobs elsewhere now rather than when this
     * worker's heartbeats stop.
     */
    @Override
    public void close()
    {
        List.copyOf(sessions.values()).forEach(session -> session.fail(new OntulException(ErrorCode.EXTERNAL_ERROR,
                "Worker " + session.request.worker() + " is shutting down: its tasks of streaming job " + session.request.jobName() + " stopped")));
    }

    /** This worker's tasks of one attempt, driven by the coordinator's commands. */
    public final class Session
            implements StreamTransport.WorkerSession
    {
        private final StreamAttemptRequest request;
        private final Consumer<StreamReport> out;
        private final QueryContext context;
        private final JobAttempt attempt;
        private final LinkedBlockingQueue<TaskReport> reports = new LinkedBlockingQueue<>();
        private final Consumer<RuntimeException> failed;
        private final Thread forwarder;
        /** The channels being received into the tasks' gates now, on the transport's threads. */
        private final java.util.Set<ChannelInbound> receiving = new java.util.HashSet<>();
        private volatile boolean closed;

        private Session(StreamAttemptRequest request, Consumer<StreamReport> out, Consumer<RuntimeException> failed)
        {
            this.request = requireNonNull(request, "request is null");
            this.out = requireNonNull(out, "out is null");
            this.failed = requireNonNull(failed, "failed is null");
            StoredStreamingJob definition = new StoredStreamingJob(request.jobName(), request.jobId(), request.definition(), Optional.ofNullable(request.catalog()),
                    Optional.ofNullable(request.schema()), request.options(), StreamingJobState.RUNNING.name(), Optional.empty(), request.createdBy(), Instant.EPOCH);
            StreamingJobOptions options = StreamingJobOptions.parse(request.options());
            List<Integer> indices = request.localIndices();
            if (indices.isEmpty()) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "No task of attempt " + request.attempt() + " of streaming job " + request.jobName() + " is placed on worker " + request.worker());
            }
            Map<Integer, StreamingJobPlan> plans;
            try {
                plans = StreamingJob.plan(environment, definition, options, indices);
            }
            catch (OntulException e) {
                throw new OntulException(e.code(), "This worker cannot plan its tasks of streaming job " + request.jobName() + ", which its coordinator planned (give every node "
                        + "the same catalogs and one shared metadata store, ontul.metadata.url): " + e.getMessage(), e);
            }
            StreamingJobPlan plan = plans.values().iterator().next();
            this.context = StreamingJob.context(environment, definition, options);
            try {
                CheckpointCoordinator checkpoints = new CheckpointCoordinator(environment.checkpoints().get(), request.jobId(),
                        JobAttempt.taskIds(request.placement().size(), !plan.aggregations().isEmpty()));
                CheckpointCoordinator.Restored restored = checkpoints.read(request.restoredCheckpointId());
                StreamTransport transport = cluster.transport().orElseThrow(() -> new IllegalStateException("no transport between the nodes"));
                this.attempt = new JobAttempt(request.jobName(), request.jobId(), request.placement().size(), plans, options,
                        new io.ontul.engine.stream.task.TaskServices(context, checkpoints, reports, CrashHook.NONE), restored, Optional.of(request.splits()),
                        (sender, receiver) -> {
                            WorkerAddress worker = request.placement().get(receiver);
                            ChannelTarget target = new ChannelTarget(request.jobId(), request.attempt(), receiver, sender);
                            return new RemoteChannel(() -> transport.openChannel(worker, target));
                        });
            }
            catch (RuntimeException | Error e) {
                context.close();
                throw e;
            }
            this.forwarder = new Thread(this::forward, "ontul-stream-" + request.jobName() + "-reports");
            this.forwarder.setDaemon(true);
        }

        /** A channel starts delivering into this session's tasks; false once the session ended. */
        private synchronized boolean enter(ChannelInbound inbound)
        {
            if (closed) {
                return false;
            }
            receiving.add(inbound);
            return true;
        }

        private synchronized void exit(ChannelInbound inbound)
        {
            receiving.remove(inbound);
            notifyAll();
        }

        /** Ends the channels still delivering and waits a while until their threads are out of the tasks' memory. */
        private void stopReceiving()
        {
            List<ChannelInbound> open;
            synchronized (this) {
                open = List.copyOf(receiving);
            }
            open.forEach(ChannelInbound::cancel);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            synchronized (this) {
                while (!receiving.isEmpty() && System.nanoTime() < deadline) {
                    try {
                        wait(100);
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (!receiving.isEmpty()) {
                    LOG.warn("Streaming job {}: {} channels still deliver after attempt {} ended on this worker", request.jobName(), receiving.size(), request.attempt());
                }
            }
        }

        @Override
        public void command(StreamCommand command)
        {
            try {
                apply(command);
            }
            catch (RuntimeException e) {
                fail(e);
            }
        }

        private void apply(StreamCommand command)
        {
            switch (command.kind()) {
                case RUN -> {
                    attempt.start(request.jobName());
                    forwarder.start();
                }
                case BARRIER -> attempt.injectBarrier(command.checkpointId());
                case COMPLETED -> attempt.checkpointCompleted(command.checkpointId());
                case END -> attempt.endSources();
            }
        }

        /** Sends the tasks' reports in order, and every task's figures now and then, until the session ends. */
        private void forward()
        {
            long nextFigures = System.nanoTime();
            try {
                while (!closed) {
                    TaskReport report = reports.poll(100, TimeUnit.MILLISECONDS);
                    if (report != null) {
                        out.accept(toReport(report));
                    }
                    if (report instanceof TaskReport.Finished || System.nanoTime() >= nextFigures) {
                        out.accept(StreamReport.figures(figures()));
                        nextFigures = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FIGURES_MILLIS);
                    }
                }
            }
            catch (InterruptedException e) {
                // the session ended
            }
            catch (RuntimeException e) {
                if (!closed) {
                    LOG.warn("Streaming job {}: cannot report attempt {} to the coordinator: {}", request.jobName(), request.attempt(), e.getMessage());
                    fail(e);
                }
            }
        }

        /** The session cannot go on: the coordinator is told (the transport ends the session with the failure) and the tasks stop. */
        private void fail(RuntimeException failure)
        {
            try {
                failed.accept(failure);
            }
            finally {
                close();
            }
        }

        private StreamReport toReport(TaskReport report)
        {
            if (report instanceof TaskReport.Acknowledged acknowledged) {
                return StreamReport.ack(acknowledged.taskId(), acknowledged.ack().checkpointId(), acknowledged.ack().committable());
            }
            if (report instanceof TaskReport.Failure failure) {
                Throwable cause = failure.cause();
                ErrorCode code = cause instanceof OntulException ontul ? ontul.code() : ErrorCode.INTERNAL_ERROR;
                String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
                LOG.warn("Streaming job {}: task {} of attempt {} failed: {}", request.jobName(), failure.taskId(), request.attempt(), message, cause);
                return StreamReport.failure(failure.taskId(), code.name(), message);
            }
            return StreamReport.finished(report.taskId());
        }

        private List<StreamTaskFigures> figures()
        {
            return attempt.figures();
        }

        /** Stops the tasks and frees what they hold; the session is over. */
        @Override
        public void close()
        {
            synchronized (sessions) {
                if (closed) {
                    return;
                }
                closed = true;
                sessions.remove(request.jobId(), this);
            }
            forwarder.interrupt();
            try {
                attempt.close();
            }
            finally {
                // the channels' threads move batches into the job's memory: they must be out before it closes
                stopReceiving();
                context.close();
            }
        }
    }
}
