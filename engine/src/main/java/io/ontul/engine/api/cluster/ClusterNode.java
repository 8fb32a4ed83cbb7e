package io.ontul.engine.api.cluster;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A member of the cluster as the coordinator knows it: a row of {@code system.runtime.nodes}.
 *
 * @param address where the node serves Flight ({@code grpc+tcp://host:port})
 * @param lastHeartbeat when it last reported (for the coordinator itself: now)
 */
public record ClusterNode(String nodeId, NodeRole role, String address, State state, Instant registeredAt, Instant lastHeartbeat, NodeStatus status)
{
    public enum State
    {
        /** Reports within the worker timeout. */
        ACTIVE,
        /** Missed its heartbeats for the worker timeout; it becomes active again when it registers or reports. */
        DEAD
    }

    public ClusterNode
    {
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(role, "role is null");
        requireNonNull(address, "address is null");
        requireNonNull(state, "state is null");
        requireNonNull(registeredAt, "registeredAt is null");
        requireNonNull(lastHeartbeat, "lastHeartbeat is null");
        requireNonNull(status, "status is null");
    }
}
