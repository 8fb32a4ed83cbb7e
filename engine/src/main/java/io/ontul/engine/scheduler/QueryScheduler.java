package io.ontul.engine.scheduler;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.operator.exchange.RemoteSource;
import io.ontul.spi.cluster.RemoteStream;
import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.HashExchangeNode;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.ScanNode;
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

    /** An active worker: its id, where it serves and the catalogs it has. */
    public record Worker(String id, String address, java.util.Set<String> catalogs) {}

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
        Map<String, String> versions = new TreeMap<>();
        for (Fragment fragment : fragments) {
            if (!versions(fragment.root(), versions)) {
                // one table read at two versions (a commit between two lookups): the whole plan runs here
                LOG.debug("Query {}: a table is read at two versions; the plan runs on the coordinator", template.queryId());
                return List.of();
            }
        }
        List<Fragment> placed = new java.util.ArrayList<>();
        for (Fragment fragment : fragments) {
            java.util.Set<String> catalogs = new TreeSet<>();
            catalogs(fragment.root(), catalogs);
            Optional<Worker> lacking = active.stream().filter(worker -> !worker.catalogs().containsAll(catalogs)).findFirst();
            if (lacking.isPresent()) {
                LOG.debug("Query {}: fragment {} runs on the coordinator: worker {} lacks some of the catalogs {}", template.queryId(), fragment.index(), lacking.get().id(), catalogs);
                continue;
            }
            placed.add(fragment);
            WorkerStreams source = new WorkerStreams(tasks, active, template, fragment, versions);
            if (fragment.exchange() instanceof GatherNode gather) {
                gather.distribute(source);
            }
            else {
                ((HashExchangeNode) fragment.exchange()).distribute(source);
            }
            markBroadcasts(fragment.root());
        }
        if (!placed.isEmpty()) {
            LOG.debug("Query {}: {} fragments on workers {}", template.queryId(), placed.size(), active);
        }
        return placed;
    }

    /** Adds the catalog of every table {@code node} scans. */
    private static void catalogs(PlanNode node, java.util.Set<String> catalogs)
    {
        if (node instanceof ScanNode scan) {
            catalogs.add(scan.table().catalog());
        }
        for (PlanNode child : node.children()) {
            catalogs(child, catalogs);
        }
    }

    /**
     * Adds the version of every table {@code node} scans that has versions (the workers read the
     * rows the coordinator planned with); false if a table is read at two versions.
     */
    private static boolean versions(PlanNode node, Map<String, String> versions)
    {
        if (node instanceof ScanNode scan) {
            Optional<String> version = scan.connector().version(scan.table());
            if (version.isPresent()) {
                String previous = versions.putIfAbsent(scan.table().qualifiedName(), version.get());
                if (previous != null && !previous.equals(version.get())) {
                    return false;
                }
            }
        }
        for (PlanNode child : node.children()) {
            if (!versions(child, versions)) {
                return false;
            }
        }
        return true;
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
    private record WorkerStreams(RemoteTasks tasks, List<Worker> workers, FragmentRequest template, Fragment fragment, Map<String, String> versions)
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
            return tasks.open(worker.id(), worker.address(), template.forWorker(fragment.index(), fragment.fingerprint(), index, workers.size(), versions));
        }

        @Override
        public Optional<RemoteSource> writing(FragmentWrite write)
        {
            if (!workers.stream().allMatch(worker -> worker.catalogs().contains(write.catalog()))) {
                return Optional.empty();
            }
            return Optional.of(new WorkerStreams(tasks, workers, template.writing(write), fragment, versions));
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
