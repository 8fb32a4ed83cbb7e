package io.ontul.engine.system;

import static io.ontul.engine.system.SystemColumns.BIGINT;
import static io.ontul.engine.system.SystemColumns.TIMESTAMP;
import static io.ontul.engine.system.SystemColumns.VARCHAR;
import static io.ontul.engine.system.SystemColumns.column;

import java.util.List;

import io.ontul.engine.cluster.ClusterNode;

/**
 * {@code system.runtime.nodes}: the members of the cluster as the coordinator knows them, the
 * coordinator (or the single server) first: role {@code all}, {@code coordinator} or
 * {@code worker}, state {@code active} or {@code dead} (missed its heartbeats for
 * {@code ontul.cluster.worker-timeout}), when it last reported, its cores and memory, and the
 * tasks it runs.
 */
final class NodesTable
{
    static final String SCHEMA = QueriesTable.SCHEMA;
    static final String NAME = "nodes";

    static final SystemColumns<ClusterNode> COLUMNS = new SystemColumns<>("system.runtime.nodes", List.of(
            column("node_id", VARCHAR, false, ClusterNode::nodeId),
            column("role", VARCHAR, false, node -> node.role().configName()),
            column("address", VARCHAR, false, ClusterNode::address),
            column("state", VARCHAR, false, node -> node.state().name().toLowerCase(java.util.Locale.ROOT)),
            column("registered", TIMESTAMP, false, ClusterNode::registeredAt),
            column("last_heartbeat", TIMESTAMP, false, ClusterNode::lastHeartbeat),
            column("cores", BIGINT, false, node -> (long) node.status().cores()),
            column("memory_max_bytes", BIGINT, false, node -> node.status().memoryMax()),
            column("memory_used_bytes", BIGINT, false, node -> node.status().memoryUsed()),
            column("running_tasks", BIGINT, false, node -> (long) node.status().runningTasks())));

    private NodesTable() {}
}
