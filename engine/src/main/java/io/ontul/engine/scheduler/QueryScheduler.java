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
import io.ontul.engine.plan.SharedSubplanNode;
import io.ontul.engine.plan.ScanNode;
import io.ontul.spi.cluster.FragmentRequest;
import io.ontul.spi.cluster.FragmentWrite;
import io.ontul.spi.cluster.WorkerAddress;
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

    /**
     * How long a worker keeps a statement's plan for the requests of its other fragments, which
     * come while its first fragment runs; a later one plans again. Few and short-lived: a plan
     * that ran holds what its operators left (a join's hash table) until it is dropped.
     */
    private static final java.time.Duration PLAN_RETENTION = java.time.Duration.ofMinutes(2);
    private static final int MAX_PLANS = 8;

    private final Supplier<List<Worker>> workers;
    private volatile RemoteTasks remoteTasks;
    private final java.util.concurrent.ConcurrentHashMap<String, PlannedStatement> plans = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param workers the active workers now, in a stable order */
    public QueryScheduler(Supplier<List<Worker>> workers)
    {
        this.workers = requireNonNull(workers, "workers is null");
    }

    /** The active workers now, in a stable order. */
    public List<Worker> activeWorkers()
    {
        return workers.get();
    }

    /** Installs the transport to the workers (the server does, once it runs). */
    public void useRemoteTasks(RemoteTasks tasks)
    {
        this.remoteTasks = requireNonNull(tasks, "tasks is null");
    }

    /** Whether statements planned now may run in part on workers (the transport is installed and a worker is active). */
    public boolean distributes()
    {
        return remoteTasks != null && !workers.get().isEmpty();
    }

    /**
     * Marks the fragments of {@code root} to run on the workers. A plan that shares a subplan
     * between parents ({@link SharedSubplanNode}: planned while no worker was active) runs here.
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
        if (active.isEmpty() || sharesSubplans(root)) {
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
        List<WorkerAddress> peers = active.stream().map(worker -> new WorkerAddress(worker.id(), worker.address())).toList();
        List<Fragment> placed = new java.util.ArrayList<>();
        for (Fragment fragment : fragments) {
            if (!fragment.topLevel()) {
                // a lone worker computes its nested fragments itself: sending them to itself would only cost
                if (peers.size() > 1 && placed.stream().anyMatch(parent -> parent.index() == fragment.parent())) {
                    // read by the parent's workers, from each other; marked here for EXPLAIN
                    placed.add(fragment);
                    markRead(fragment, new PeerStreams(tasks, template.forWorker(fragment.parent(), "", 0, peers, versions), fragment));
                }
                continue;
            }
            java.util.Set<String> catalogs = new TreeSet<>();
            catalogs(fragment.root(), catalogs);
            Optional<Worker> lacking = active.stream().filter(worker -> !worker.catalogs().containsAll(catalogs)).findFirst();
            if (lacking.isPresent()) {
                LOG.debug("Query {}: fragment {} runs on the coordinator: worker {} lacks some of the catalogs {}", template.queryId(), fragment.index(), lacking.get().id(), catalogs);
                continue;
            }
            placed.add(fragment);
            markRead(fragment, new WorkerStreams(tasks, active, template, fragment, versions, peers));
            markBroadcasts(fragment.root());
        }
        if (!placed.isEmpty()) {
            LOG.debug("Query {}: {} fragments on workers {}", template.queryId(), placed.size(), active);
        }
        return placed;
    }

    /**
     * On a worker: the fragments of the statement of {@code request}, planned by {@code plan} once
     * per attempt of the statement (the coordinator's request for a fragment and the peers'
     * requests for the fragments nested in it share the plan: each runs its own part of it), with
     * the exchanges of nested fragments reading the peers' outputs, each peer computing its share
     * once for all. A planning that fails fails every request waiting for it.
     */
    public List<Fragment> fragmentsFor(FragmentRequest request, Supplier<PlanNode> plan)
    {
        String key = request.queryId() + ".a" + request.attempt();
        java.util.concurrent.CompletableFuture<List<Fragment>> mine = new java.util.concurrent.CompletableFuture<>();
        PlannedStatement existing = plans.putIfAbsent(key, new PlannedStatement(System.nanoTime(), mine));
        if (existing != null) {
            try {
                return existing.fragments().join();
            }
            catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
            }
        }
        try {
            List<Fragment> fragments = Fragmenter.fragments(plan.get());
            readNested(fragments, request);
            mine.complete(fragments);
            forgetOldPlans();
            return fragments;
        }
        catch (RuntimeException | Error e) {
            plans.remove(key);
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** A statement a worker planned, since when. */
    private record PlannedStatement(long planned, java.util.concurrent.CompletableFuture<List<Fragment>> fragments) {}

    /** Plans older than {@link #PLAN_RETENTION}, and the oldest beyond {@link #MAX_PLANS}: their fragments have run. */
    private void forgetOldPlans()
    {
        long now = System.nanoTime();
        plans.entrySet().removeIf(entry -> now - entry.getValue().planned() > PLAN_RETENTION.toNanos());
        while (plans.size() > MAX_PLANS) {
            plans.entrySet().stream().min(java.util.Comparator.comparingLong(entry -> entry.getValue().planned()))
                    .ifPresent(oldest -> plans.remove(oldest.getKey(), oldest.getValue()));
        }
    }

    /** Points the exchanges of the nested fragments at the peers' outputs, as this worker (the request's) reads them. */
    private void readNested(List<Fragment> fragments, FragmentRequest request)
    {
        RemoteTasks tasks = remoteTasks;
        if (request.peers().size() < 2) {
            // as the coordinator decided: a lone worker computes them itself
            return;
        }
        if (tasks == null) {
            throw new IllegalStateException("this worker has no transport to its peers");
        }
        for (Fragment fragment : fragments) {
            if (!fragment.topLevel()) {
                markRead(fragment, new PeerStreams(tasks, request, fragment));
            }
        }
    }

    private static void markRead(Fragment fragment, RemoteSource source)
    {
        if (fragment.exchange() instanceof GatherNode gather) {
            gather.distribute(source);
        }
        else {
            ((HashExchangeNode) fragment.exchange()).distribute(source);
        }
    }

    /** Whether {@code node} holds a subplan several parents share (a plan that then runs in one process). */
    public static boolean sharesSubplans(PlanNode node)
    {
        return node instanceof SharedSubplanNode || node.children().stream().anyMatch(QueryScheduler::sharesSubplans);
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

    /** The gathers inside a fragment that no nested fragment reads feed join build sides, which every worker computes whole. */
    private static void markBroadcasts(PlanNode node)
    {
        if (node instanceof GatherNode gather && gather.remote().isEmpty()) {
            gather.computedOnEveryWorker();
        }
        for (PlanNode child : node.children()) {
            markBroadcasts(child);
        }
    }

    /** One fragment on every active worker: a stream per worker. */
    private record WorkerStreams(RemoteTasks tasks, List<Worker> workers, FragmentRequest template, Fragment fragment, Map<String, String> versions, List<WorkerAddress> peers)
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
            return tasks.open(worker.id(), worker.address(), template.forWorker(fragment.index(), fragment.fingerprint(), index, peers, versions));
        }

        @Override
        public Optional<RemoteSource> writing(FragmentWrite write)
        {
            if (!workers.stream().allMatch(worker -> worker.catalogs().contains(write.catalog()))) {
                return Optional.empty();
            }
            return Optional.of(new WorkerStreams(tasks, workers, template.writing(write), fragment, versions, peers));
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

    /**
     * A nested fragment's output as one worker of its parent reads it: a stream from every peer,
     * each serving its own share (computed once, whoever asks first) to every consumer, whole (a
     * broadcast) or the rows of the consumer's keys (a repartition).
     *
     * @param request the parent's request to this worker
     */
    private record PeerStreams(RemoteTasks tasks, FragmentRequest request, Fragment fragment)
            implements RemoteSource
    {
        @Override
        public int streams()
        {
            return request.peers().size();
        }

        @Override
        public RemoteStream open(int index)
        {
            WorkerAddress peer = request.peers().get(index);
            return tasks.open(peer.id(), peer.address(), request.forPeer(fragment.index(), fragment.fingerprint(), index, partitionKeys()));
        }

        /** Below a hash repartition each worker takes the rows of its own keys; below a gather (a build side) all rows. */
        private List<Integer> partitionKeys()
        {
            if (fragment.exchange() instanceof HashExchangeNode exchange) {
                return java.util.Arrays.stream(exchange.keyColumns()).boxed().toList();
            }
            return List.of();
        }

        @Override
        public boolean broadcast()
        {
            return fragment.exchange() instanceof GatherNode;
        }

        @Override
        public String describe()
        {
            return "fragment " + fragment.index() + " on " + streams() + (streams() == 1 ? " worker" : " workers");
        }

        @Override
        public java.util.Map<String, List<io.ontul.spi.cluster.OperatorFigures>> statistics()
        {
            java.util.Map<String, List<io.ontul.spi.cluster.OperatorFigures>> figures = new java.util.LinkedHashMap<>();
            for (WorkerAddress peer : request.peers()) {
                figures.put(peer.id(), tasks.statistics(peer.id(), peer.address(), request.queryId(), fragment.index()));
            }
            return figures;
        }
    }
}
