package io.ontul.engine.stream.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.ontul.engine.metadata.StoredStreamingJob;
import io.ontul.engine.scheduler.QueryScheduler;
import io.ontul.engine.stream.task.TaskReport;
import io.ontul.engine.stream.task.TaskStatus;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.cluster.ChannelSender;
import io.ontul.spi.cluster.ChannelTarget;
import io.ontul.spi.cluster.StreamAttemptRequest;
import io.ontul.spi.cluster.StreamCommand;
import io.ontul.spi.cluster.StreamReport;
import io.ontul.spi.cluster.StreamTaskFigures;
import io.ontul.spi.cluster.StreamTransport;
import io.ontul.spi.cluster.WorkerAddress;

/**
 * The coordinator's side of an attempt on workers, over a hand-written transport that stands for
 * the workers: placement of task indices, the prepare-then-run handshake, commands to every
 * worker, the workers' reports turned into the tasks' reports, figures summed over workers, and a
 * lost worker failing the attempt.
 */
class TestDistributedAttempt
{
    private static final StoredStreamingJob JOB = new StoredStreamingJob("windows", "job-1", "CREATE STREAMING JOB windows AS INSERT INTO t SELECT * FROM s",
            Optional.of("kafka"), Optional.empty(), Map.of("parallelism", "4"), "RUNNING", Optional.empty(), "alice", Instant.EPOCH);
    private static final List<QueryScheduler.Worker> WORKERS = List.of(
            new QueryScheduler.Worker("w2", "grpc+tcp://127.0.0.1:3", Set.of("kafka", "lake")),
            new QueryScheduler.Worker("w0", "grpc+tcp://127.0.0.1:1", Set.of("kafka", "lake")),
            new QueryScheduler.Worker("w1", "grpc+tcp://127.0.0.1:2", Set.of("kafka", "lake")));

    @Test
    void placesIndicesRoundTheWorkersByIdAndOnlyWhereEveryCatalogIs()
    {
        StreamCluster cluster = cluster(new FakeWorkers(), WORKERS);
        assertThat(cluster.placement(Set.of("kafka", "lake"), 4).orElseThrow()).extracting(WorkerAddress::id).containsExactly("w0", "w1", "w2", "w0");
        assertThat(cluster.placement(Set.of("kafka", "pg"), 4)).as("a worker without catalog pg: the tasks run on the coordinator").isEmpty();
        assertThat(new StreamCluster(true, List::of, Duration.ZERO, Duration.ZERO).placement(Set.of("kafka"), 2)).as("no transport yet").isEmpty();
        assertThat(cluster(new FakeWorkers(), List.of()).placement(Set.of("kafka"), 2)).as("no worker").isEmpty();
        assertThat(new StreamCluster(false, () -> WORKERS, Duration.ZERO, Duration.ZERO).placement(Set.of("kafka"), 2)).as("not a coordinator").isEmpty();
        assertThat(cluster.allActive(List.of(new WorkerAddress("w1", "x")))).isTrue();
        assertThat(cluster.allActive(List.of(new WorkerAddress("w1", "x"), new WorkerAddress("w9", "y")))).isFalse();
    }

    @Test
    void runsOnceEveryWorkerPreparedAndReportsAsIfTheTasksRanHere()
            throws Exception
    {
        FakeWorkers workers = new FakeWorkers();
        StreamCluster cluster = cluster(workers, WORKERS);
        List<WorkerAddress> placement = cluster.placement(Set.of("kafka"), 4).orElseThrow();
        Set<String> taskIds = JobAttempt.taskIds(4, true);
        try (DistributedAttempt attempt = new DistributedAttempt(JOB, 7, 3, placement, List.of("p0", "p1"), taskIds, cluster)) {
            CompletableFuture<Void> started = CompletableFuture.runAsync(() -> attempt.start("windows"));
            workers.awaitSessions(3);
            assertThat(workers.requests.get("w0").localIndices()).containsExactly(0, 3);
            assertThat(workers.requests.get("w2").localIndices()).containsExactly(2);
            assertThat(workers.requests.get("w1").restoredCheckpointId()).isEqualTo(3);
            assertThat(workers.requests.get("w1").attempt()).isEqualTo(7);
            assertThat(workers.requests.get("w2").splits()).as("every worker deals the coordinator's splits").containsExactly("p0", "p1");
            workers.report("w0", StreamReport.prepared());
            workers.report("w1", StreamReport.prepared());
            Thread.sleep(200);
            assertThat(started).as("not run before every worker prepared").isNotDone();
            assertThat(workers.commands.get("w0")).isEmpty();
            workers.report("w2", StreamReport.prepared());
            started.get(10, TimeUnit.SECONDS);
            for (String worker : List.of("w0", "w1", "w2")) {
                assertThat(workers.commands.get(worker)).containsExactly(new StreamCommand(StreamCommand.Kind.RUN, 0));
            }

            attempt.injectBarrier(11);
            assertThat(workers.commands.get("w2")).endsWith(new StreamCommand(StreamCommand.Kind.BARRIER, 11));
            workers.report("w2", StreamReport.ack("window-2", 11, new byte[] {5, 6}));
            TaskReport.Acknowledged ack = (TaskReport.Acknowledged) attempt.reports().poll(5, TimeUnit.SECONDS);
            assertThat(ack.taskId()).isEqualTo("window-2");
            assertThat(ack.ack().checkpointId()).isEqualTo(11);
            assertThat(ack.ack().committable()).containsExactly(5, 6);

            workers.report("w0", StreamReport.figures(List.of(
                    figures("source-0", "source", 100, 40, -1, 7), figures("window-0", "window", 40, 3, 5_000, -1),
                    figures("source-3", "source", 50, 20, -1, 3), figures("window-3", "window", 20, 2, 4_000, -1))));
            workers.report("w1", StreamReport.figures(List.of(figures("source-1", "source", 10, 5, -1, -1), figures("window-1", "window", 5, 1, 9_000, -1))));
            workers.report("w2", StreamReport.figures(List.of(figures("source-2", "source", 1, 1, -1, 2), figures("window-2", "window", 1, 1, 8_000, -1))));
            assertThat(attempt.recordsIn()).isEqualTo(161);
            assertThat(attempt.recordsOut()).as("a windowed job's records out are its window tasks'").isEqualTo(7);
            assertThat(attempt.watermark()).as("the least window task's").isEqualTo(4_000);
            assertThat(attempt.lag()).as("over the sources that know").isEqualTo(12);
            List<TaskStatus> statuses = attempt.statuses("windows");
            assertThat(statuses).extracting(TaskStatus::taskId).containsExactly("source-0", "source-1", "source-2", "source-3", "window-0", "window-1", "window-2", "window-3");
            assertThat(statuses).extracting(TaskStatus::node).containsExactly("w0", "w1", "w2", "w0", "w0", "w1", "w2", "w0");

            attempt.endSources();
            for (String task : taskIds) {
                workers.report(task.endsWith("0") || task.endsWith("3") ? "w0" : task.endsWith("1") ? "w1" : "w2", StreamReport.finished(task));
            }
            assertThat(attempt.join()).isTrue();
        }
        assertThat(workers.closed).as("every session ends with the attempt").containsExactlyInAnyOrder("w0", "w1", "w2");
    }

    @Test
    void aLostWorkerOrAFailedTaskFailsTheAttempt()
            throws Exception
    {
        FakeWorkers workers = new FakeWorkers();
        StreamCluster cluster = cluster(workers, WORKERS);
        List<WorkerAddress> placement = cluster.placement(Set.of("kafka"), 3).orElseThrow();
        try (DistributedAttempt attempt = new DistributedAttempt(JOB, 8, 0, placement, List.of(), JobAttempt.taskIds(3, true), cluster)) {
            CompletableFuture<Void> started = CompletableFuture.runAsync(() -> attempt.start("windows"));
            workers.awaitSessions(3);
            List.of("w0", "w1", "w2").forEach(worker -> workers.report(worker, StreamReport.prepared()));
            started.get(10, TimeUnit.SECONDS);

            workers.report("w1", StreamReport.failure("source-1", ErrorCode.EXTERNAL_ERROR.name(), "broker gone"));
            TaskReport.Failure failed = (TaskReport.Failure) attempt.reports().poll(5, TimeUnit.SECONDS);
            assertThat(failed.cause()).isInstanceOf(OntulException.class).hasMessage("Task source-1 of streaming job windows on worker w1 failed: broker gone");
            assertThat(((OntulException) failed.cause()).code()).isEqualTo(ErrorCode.EXTERNAL_ERROR);

            workers.end("w2", new OntulException(ErrorCode.WORKER_LOST, "Lost worker w2"));
            TaskReport.Failure lost = (TaskReport.Failure) attempt.reports().poll(5, TimeUnit.SECONDS);
            assertThat(((OntulException) lost.cause()).code()).isEqualTo(ErrorCode.WORKER_LOST);

            workers.end("w0", null);
            TaskReport.Failure ended = (TaskReport.Failure) attempt.reports().poll(5, TimeUnit.SECONDS);
            assertThat(ended.cause()).hasMessage("Worker w0 ended attempt 8 of streaming job windows while its tasks ran");
        }
        workers.end("w1", new OntulException(ErrorCode.WORKER_LOST, "after the attempt ended"));
    }

    @Test
    void aWorkerThatStopsHeartbeatingFailsTheAttemptThoughItsSessionStaysOpen()
            throws Exception
    {
        FakeWorkers workers = new FakeWorkers();
        List<QueryScheduler.Worker> active = new CopyOnWriteArrayList<>(WORKERS);
        StreamCluster cluster = new StreamCluster(true, () -> active, Duration.ZERO, Duration.ZERO);
        cluster.useTransport(workers);
        try (DistributedAttempt attempt = new DistributedAttempt(JOB, 10, 0, cluster.placement(Set.of("kafka"), 3).orElseThrow(), List.of(), JobAttempt.taskIds(3, true), cluster)) {
            CompletableFuture<Void> started = CompletableFuture.runAsync(() -> attempt.start("windows"));
            workers.awaitSessions(3);
            List.of("w0", "w1", "w2").forEach(worker -> workers.report(worker, StreamReport.prepared()));
            started.get(10, TimeUnit.SECONDS);
            assertThat(attempt.reports().poll(1, TimeUnit.SECONDS)).as("all active: no failure").isNull();
            active.removeIf(worker -> worker.id().equals("w1"));
            TaskReport.Failure lost = (TaskReport.Failure) attempt.reports().poll(5, TimeUnit.SECONDS);
            assertThat(((OntulException) lost.cause()).code()).isEqualTo(ErrorCode.WORKER_LOST);
            assertThat(lost.cause()).hasMessageContaining("Worker w1 of attempt 10");
        }
    }

    @Test
    void aWorkerThatCannotPrepareFailsTheStart()
    {
        FakeWorkers workers = new FakeWorkers();
        StreamCluster cluster = cluster(workers, WORKERS.subList(0, 1));
        try (DistributedAttempt attempt = new DistributedAttempt(JOB, 9, 0, cluster.placement(Set.of("kafka"), 1).orElseThrow(), List.of(), JobAttempt.taskIds(1, false), cluster)) {
            workers.onOpen = worker -> workers.report(worker, StreamReport.failure("source-0", ErrorCode.NOT_FOUND.name(), "no table s"));
            assertThatThrownBy(() -> attempt.start("windows")).isInstanceOf(OntulException.class).hasMessageContaining("no table s");
        }
    }

    private static StreamTaskFigures figures(String task, String kind, long in, long out, long watermark, long lag)
    {
        return new StreamTaskFigures(task, kind, "", in, out, 0, 0, watermark, lag, 0, 0, 10, Map.of());
    }

    private static StreamCluster cluster(FakeWorkers workers, List<QueryScheduler.Worker> active)
    {
        StreamCluster cluster = new StreamCluster(true, () -> active, Duration.ZERO, Duration.ZERO);
        cluster.useTransport(workers);
        return cluster;
    }

    /** The workers as the coordinator sees them through its transport: what it asked, and a way to answer. */
    private static final class FakeWorkers
            implements StreamTransport
    {
        private final Map<String, StreamAttemptRequest> requests = new ConcurrentHashMap<>();
        private final Map<String, List<StreamCommand>> commands = new ConcurrentHashMap<>();
        private final Map<String, Consumer<StreamReport>> reporters = new ConcurrentHashMap<>();
        private final Map<String, Consumer<RuntimeException>> enders = new ConcurrentHashMap<>();
        private final List<String> closed = new CopyOnWriteArrayList<>();
        private volatile Consumer<String> onOpen = worker -> { };

        @Override
        public StreamSession openSession(WorkerAddress worker, StreamAttemptRequest request, Consumer<StreamReport> reports, Consumer<RuntimeException> ended)
        {
            requests.put(worker.id(), request);
            commands.put(worker.id(), new CopyOnWriteArrayList<>());
            reporters.put(worker.id(), reports);
            enders.put(worker.id(), ended);
            onOpen.accept(worker.id());
            return new StreamSession()
            {
                @Override
                public void send(StreamCommand command)
                {
                    commands.get(worker.id()).add(command);
                }

                @Override
                public void close()
                {
                    closed.add(worker.id());
                }
            };
        }

        @Override
        public ChannelSender openChannel(WorkerAddress worker, ChannelTarget target)
        {
            throw new UnsupportedOperationException("the coordinator opens no channel");
        }

        void report(String worker, StreamReport report)
        {
            reporters.get(worker).accept(report);
        }

        void end(String worker, RuntimeException failure)
        {
            enders.get(worker).accept(failure);
        }

        void awaitSessions(int count)
                throws InterruptedException
        {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (requests.size() < count && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(new ArrayList<>(requests.keySet())).hasSize(count);
        }
    }
}
