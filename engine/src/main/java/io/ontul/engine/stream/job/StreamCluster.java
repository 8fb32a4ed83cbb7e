package io.ontul.engine.stream.job;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import io.ontul.engine.scheduler.QueryScheduler;
import io.ontul.spi.cluster.StreamTransport;
import io.ontul.spi.cluster.WorkerAddress;

/**
 * What streaming jobs know of the cluster their process belongs to. A coordinator places the
 * tasks of each attempt on its active workers when every one of them has the job's catalogs
 * (task index i on the i-th worker by id, round the workers); a single server, or a coordinator
 * without such workers, runs them itself.
 */
public final class StreamCluster
{
    private final boolean coordinator;
    private final Supplier<List<QueryScheduler.Worker>> activeWorkers;
    private final Duration workerTimeout;
    private final Duration heartbeatInterval;
    private volatile StreamTransport transport;

    /**
     * @param coordinator whether this process coordinates workers (not a single server, not a worker)
     * @param workerTimeout how long a coordinator waits for a first worker before it runs a job itself
     * @param heartbeatInterval how often workers report: the others come within one interval of the first
     */
    public StreamCluster(boolean coordinator, Supplier<List<QueryScheduler.Worker>> activeWorkers, Duration workerTimeout,
            Duration heartbeatInterval)
    {
        this.coordinator = coordinator;
        this.activeWorkers = requireNonNull(activeWorkers, "activeWorkers is null");
        this.workerTimeout = requireNonNull(workerTimeout, "workerTimeout is null");
        this.heartbeatInterval = requireNonNull(heartbeatInterval, "heartbeatInterval is null");
    }

    /** Installs the transport between the nodes (the server does, once it runs). */
    public void useTransport(StreamTransport transport)
    {
        this.transport = requireNonNull(transport, "transport is null");
    }

    /** The transport between the nodes; empty before the server installed it. */
    public Optional<StreamTransport> transport()
    {
        return Optional.ofNullable(transport);
    }

    /**
     * Where the task indices of an attempt of {@code parallelism} run: the worker of each index,
     * or empty when they run here (not a coordinator, no transport, no active worker, or a worker
     * without one of {@code catalogs}).
     */
    Optional<List<WorkerAddress>> placement(Set<String> catalogs, int parallelism)
    {
        if (!coordinator || transport == null) {
            return Optional.empty();
        }
        List<QueryScheduler.Worker> workers = activeWorkers.get().stream().sorted(Comparator.comparing(QueryScheduler.Worker::id)).toList();
        if (workers.isEmpty() || !workers.stream().allMatch(worker -> worker.catalogs().containsAll(catalogs))) {
            return Optional.empty();
        }
        List<WorkerAddress> placement = new java.util.ArrayList<>();
        for (int index = 0; index < parallelism; index++) {
            QueryScheduler.Worker worker = workers.get(index % workers.size());
            placement.add(new WorkerAddress(worker.id(), worker.address()));
        }
        return Optional.of(placement);
    }

    /**
     * On a coordinator with no active worker yet (just started: the server installs the transport
     * in a moment and the workers register again within their heartbeat interval), waits for one
     * up to the worker timeout, then one heartbeat interval more for the others; returns false
     * when {@code stop} said to stop meanwhile.
     */
    boolean awaitWorkers(java.util.function.BooleanSupplier stop)
    {
        if (!coordinator || (transport != null && !activeWorkers.get().isEmpty())) {
            return true;
        }
        long deadline = System.nanoTime() + workerTimeout.toNanos();
        while ((transport == null || activeWorkers.get().isEmpty()) && System.nanoTime() < deadline) {
            if (!pause(stop, Duration.ofMillis(100))) {
                return false;
            }
        }
        return activeWorkers.get().isEmpty() || pause(stop, heartbeatInterval);
    }

    private static boolean pause(java.util.function.BooleanSupplier stop, Duration pause)
    {
        long end = System.nanoTime() + pause.toNanos();
        while (System.nanoTime() < end) {
            if (stop.getAsBoolean()) {
                return false;
            }
            try {
                Thread.sleep(Math.max(1, Math.min(50, (end - System.nanoTime()) / 1_000_000)));
            }
            catch (InterruptedException e) {
                // stop and shutdown interrupt; the caller's flags say which
            }
        }
        return !stop.getAsBoolean();
    }

    /** Whether every worker of {@code workers} is active now. */
    boolean allActive(List<WorkerAddress> workers)
    {
        return inactive(workers).isEmpty();
    }

    /** The ids of the workers of {@code workers} that are not active now. */
    Set<String> inactive(List<WorkerAddress> workers)
    {
        Set<String> active = new java.util.HashSet<>();
        activeWorkers.get().forEach(worker -> active.add(worker.id()));
        Set<String> inactive = new java.util.TreeSet<>();
        workers.stream().map(WorkerAddress::id).filter(id -> !active.contains(id)).forEach(inactive::add);
        return inactive;
    }
}
