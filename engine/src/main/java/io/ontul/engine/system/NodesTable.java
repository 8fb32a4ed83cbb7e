package io.ontul.engine.system;

import static io.ontul.engine.system.SystemColumns.BIGINT;
import static io.ontul.engine.system.SystemColumns.TIMESTAMP;
import static io.ontul.engine.system.SystemColumns.VARCHAR;
import static io.ontul.engine.system.SystemColumns.column;

import java.util.List;

/**
 * {@code system.runtime.nodes}: the members of the cluster as the coordinator knows them, the
 * coordinator (or the single server) first: role {@code all}, {@code coordinator} or
 * {@code worker}, state {@code active} or {@code dead} (missed its heartbeats for
 * {@code ontul.cluster.worker-timeout}), when it last reported, its cores and memory, and the
 * tasks it runs.
 */
public final class NodesTable
{
    static final String SCHEMA = QueriesTable.SCHEMA;
    static final String NAME = "nodes";

    /** One row: a node as the engine's cluster membership knows it (the engine maps its nodes to these). */
    public record Row(String nodeId, String role, String address, String state, java.time.Instant registered, java.time.Instant lastHeartbeat, long cores,
            long memoryMax, long memoryUsed, long runningTasks) {}

    static final SystemColumns<Row> COLUMNS = new SystemColumns<>("system.runtime.nodes", List.of(
            column("node_id", VARCHAR, false, Row::nodeId),
            column("role", VARCHAR, false, Row::role),
            column("address", VARCHAR, false, Row::address),
            column("state", VARCHAR, false, Row::state),
            column("registered", TIMESTAMP, false, Row::registered),
            column("last_heartbeat", TIMESTAMP, false, Row::lastHeartbeat),
            column("cores", BIGINT, false, Row::cores),
            column("memory_max_bytes", BIGINT, false, Row::memoryMax),
            column("memory_used_bytes", BIGINT, false, Row::memoryUsed),
            column("running_tasks", BIGINT, false, Row::runningTasks)));

    private NodesTable() {}
}
