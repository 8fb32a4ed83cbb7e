package io.ontul.engine.scheduler;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.operator.exchange.RemoteSource;
import io.ontul.spi.cluster.RemoteStream;
import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.HashExchangeNode;
import io.ontul.engine.plan.PlanNode;
import io.ontul.spi.cluster.FragmentRequest;
import io.ontul.spi.cluster.FragmentWrite;
import io.ontul.spi.cluster.RemoteTasks;

/**
 * The coordinator's scheduler: places a query's fragments ({@link Fragmenter}) on the active
 * workers, each worker taking an equal share of the splits, and points the exchanges above them
 * at the workers' streams. Without workers, or before the server has installed its transport,
 * the whole plan runs here.
 */
public final class QueryScheduler
{
    private static final Logger LOG = LoggerFactory.getLogger(QueryScheduler.class);

    /** An active worker: its id and where it serves. */
    public record Worker(String id, String address) {}

    private final Supplier<List<Worker>> workers;
    private volatile RemoteTasks remoteTasks;

    /** @param workers the active workers now, in a stable order */
    public QueryScheduler(Supplier<List<Worker>> workers)
    {
        this.workers = requireNonNull(workers, "workers is null");
    }

    /** Installs the transport to the workers (the server does, once it runs). */
    public void useRemoteTasks(RemoteTasks tasks)
    {
        this.remoteTasks = requireNonNull(tasks, "tasks is null");
    }

    /**
     * Marks the fragments of {@code root} to run on the workers.
     *
     * @param statement the statement's request, its fragment fields to be filled in per fragment and
     *        worker; asked for only when there are workers
     * @return the fragments placed (none without workers)
     */
    public List<Fragment> distribute(PlanNode root, Supplier<FragmentRequest> statement)
    {
        RemoteTasks tasks = remoteTasks;
        if (tasks == null) {
            return List.of();
        }
        List<Worker> active = workers.get();
        if (active.isEmpty()) {
            return List.of();
        }
        FragmentRequest template = statement.get();
        List<Fragment> fragments = Fragmenter.fragments(root);
        for (Fragment fragment : fragments) {
            WorkerStreams source = new WorkerStreams(tasks, active, template, fragment);
            if (fragment.exchange() instanceof GatherNode gather) {
                gather.distribute(source);
            }
            else {
                ((HashExchangeNode) fragment.exchange()).distribute(source);
            }
            markBroadcasts(fragment.root());
        }
        if (!fragments.isEmpty()) {
            LOG.debug("Query {}: {} fragments on workers {}", template.queryId(), fragments.size(), active);
        }
        return fragments;
    }

    /** The gathers inside a fragment feed join build sides, which every worker computes whole. */
    private static void markBroadcasts(PlanNode node)
    {
        if (node instanceof GatherNode gather) {
            gather.computedOnEveryWorker();
        }
        for (PlanNode child : node.children()) {
            markBroadcasts(child);
        }
    }

    /** One fragment on every active worker: a stream per worker. */
    private record WorkerStreams(RemoteTasks tasks, List<Worker> workers, FragmentRequest template, Fragment fragment)
            implements RemoteSource
    {
        @Override
        public int streams()
        {
            return workers.size();
        }

        @Override
        public RemoteStream open(int index)
        {
            Worker worker = workers.get(index);
            return tasks.open(worker.id(), worker.address(), template.forWorker(fragment.index(), fragment.fingerprint(), index, workers.size()));
        }

        @Override
        public RemoteSource writing(FragmentWrite write)
        {
            return new WorkerStreams(tasks, workers, template.writing(write), fragment);
        }

        @Override
        public String describe()
        {
            return "fragment " + fragment.index() + " on " + workers.size() + (workers.size() == 1 ? " worker" : " workers");
        }

        @Override
        public java.util.Map<String, List<io.ontul.spi.cluster.OperatorFigures>> statistics()
        {
            java.util.Map<String, List<io.ontul.spi.cluster.OperatorFigures>> figures = new java.util.LinkedHashMap<>();
            for (Worker worker : workers) {
                figures.put(worker.id(), tasks.statistics(worker.id(), worker.address(), template.queryId(), fragment.index()));
            }
            return figures;
        }
    }
}
