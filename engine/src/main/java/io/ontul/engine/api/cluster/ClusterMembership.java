package io.ontul.engine.api.cluster;

import static io.ontul.engine.api.cluster.ClusterNode.State.ACTIVE;
import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The coordinator's list of the cluster's members: itself, and the workers that registered.
 * A worker reports with a heartbeat every few seconds; one that has not reported for the worker
 * timeout is declared {@link ClusterNode.State#DEAD} (logged once, and the listeners are told),
 * and comes back when it registers or reports again (a restarted worker keeps its node id).
 * Thread-safe; time comes from the clock given, so tests need no waiting.
 */
public final class ClusterMembership
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);

    private final String localNodeId;
    private final NodeRole localRole;
    private volatile String localAddress = "";
    private final Supplier<NodeStatus> localStatus;
    private final Instant localStart;
    private final Duration workerTimeout;
    private final Clock clock;
    private final Map<String, ClusterNode> workers = new LinkedHashMap<>();
    private final List<Consumer<ClusterNode>> deathListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param localStatus this process's own figures, read whenever the members are listed
     */
    public ClusterMembership(ClusterConfig config, Supplier<NodeStatus> localStatus, Clock clock)
    {
        requireNonNull(config, "config is null");
        this.localNodeId = config.nodeId();
        this.localRole = config.role();
        this.localStatus = requireNonNull(localStatus, "localStatus is null");
        this.workerTimeout = config.workerTimeout();
        this.clock = requireNonNull(clock, "clock is null");
        this.localStart = clock.instant();
    }

    /** Where this process serves Flight, once its server runs. */
    public void advertise(String address)
    {
        this.localAddress = requireNonNull(address, "address is null");
    }

    /** Called with a worker when it is declared dead (on the thread that noticed). */
    public void onWorkerDeath(Consumer<ClusterNode> listener)
    {
        deathListeners.add(requireNonNull(listener, "listener is null"));
    }

    /**
     * Adds a worker, or makes a known one active again with its new address and figures.
     *
     * @throws OntulException INVALID_ARGUMENT when the id is this coordinator's own
     */
    public void register(String nodeId, String address, NodeStatus status)
    {
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(address, "address is null");
        requireNonNull(status, "status is null");
        if (nodeId.equals(localNodeId)) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Node id '%s' is the coordinator's own: give every node its own ontul.node.id (or data directory)", nodeId);
        }
        Instant now = clock.instant();
        ClusterNode previous;
        synchronized (this) {
            previous = workers.put(nodeId, new ClusterNode(nodeId, NodeRole.WORKER, address, ACTIVE, now, now, status));
        }
        if (previous == null) {
            LOG.info("Worker {} registered from {} ({} cores, {} bytes of memory)", nodeId, address, status.cores(), status.memoryMax());
        }
        else {
            LOG.info("Worker {} registered again from {} (was {} at {}, last heard from at {})", nodeId, address, previous.state(), previous.address(), previous.lastHeartbeat());
        }
    }

    /**
     * Records a worker's report.
     *
     * @return false when the worker is not known (this coordinator restarted since it registered):
     *         it must register again
     */
    public boolean heartbeat(String nodeId, NodeStatus status)
    {
        Instant now = clock.instant();
        ClusterNode previous;
        synchronized (this) {
            previous = workers.get(nodeId);
            if (previous == null) {
                return false;
            }
            workers.put(nodeId, new ClusterNode(nodeId, previous.role(), previous.address(), ACTIVE, previous.registeredAt(), now, status));
        }
        if (previous.state() != ACTIVE) {
            LOG.info("Worker {} at {} reports again after {}: active", nodeId, previous.address(), Duration.between(previous.lastHeartbeat(), now));
        }
        return true;
    }

    /**
     * Declares a worker dead now, without waiting for its heartbeats to stop: a query could not
     * reach it. If it is alive after all, its next report makes it active again.
     */
    public void declareDead(String nodeId, String reason)
    {
        ClusterNode dead;
        synchronized (this) {
            ClusterNode node = workers.get(nodeId);
            if (node == null || node.state() != ACTIVE) {
                return;
            }
            dead = new ClusterNode(node.nodeId(), node.role(), node.address(), ClusterNode.State.DEAD, node.registeredAt(), node.lastHeartbeat(), node.status());
            workers.put(nodeId, dead);
        }
        LOG.warn("Worker {} at {} declared dead: {}", nodeId, dead.address(), reason);
        tellDeath(dead);
    }

    /** Declares dead the workers that have not reported for the worker timeout; returns them. */
    public List<ClusterNode> checkHeartbeats()
    {
        Instant now = clock.instant();
        List<ClusterNode> died = new ArrayList<>();
        synchronized (this) {
            for (Map.Entry<String, ClusterNode> entry : workers.entrySet()) {
                ClusterNode node = entry.getValue();
                if (node.state() == ACTIVE && Duration.between(node.lastHeartbeat(), now).compareTo(workerTimeout) > 0) {
                    ClusterNode dead = new ClusterNode(node.nodeId(), node.role(), node.address(), ClusterNode.State.DEAD, node.registeredAt(), node.lastHeartbeat(), node.status());
                    entry.setValue(dead);
                    died.add(dead);
                }
            }
        }
        for (ClusterNode dead : died) {
            LOG.warn("Worker {} at {} missed its heartbeats for {} (last at {}): declared dead", dead.nodeId(), dead.address(), workerTimeout, dead.lastHeartbeat());
            tellDeath(dead);
        }
        return died;
    }

    private void tellDeath(ClusterNode dead)
    {
        for (Consumer<ClusterNode> listener : deathListeners) {
            try {
                listener.accept(dead);
            }
            catch (RuntimeException e) {
                LOG.error("A listener failed on the death of worker {}", dead.nodeId(), e);
            }
        }
    }

    /** This process first, then the workers by id, with their states as of now. */
    public List<ClusterNode> nodes()
    {
        checkHeartbeats();
        Instant now = clock.instant();
        List<ClusterNode> nodes = new ArrayList<>();
        nodes.add(new ClusterNode(localNodeId, localRole, localAddress, ACTIVE, localStart, now, localStatus.get()));
        synchronized (this) {
            workers.values().stream().sorted(Comparator.comparing(ClusterNode::nodeId)).forEach(nodes::add);
        }
        return nodes;
    }

    /** The workers that are active now, by id. */
    public List<ClusterNode> activeWorkers()
    {
        checkHeartbeats();
        synchronized (this) {
            return workers.values().stream().filter(node -> node.state() == ACTIVE).sorted(Comparator.comparing(ClusterNode::nodeId)).toList();
        }
    }
}
