package io.ontul.server.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ontul.engine.api.cluster.NodeStatus;

/**
 * The bodies of the Flight actions between cluster members, as JSON. The calling node's id is
 * not in them: it is the subject of the call's cluster token.
 */
public final class ClusterMessages
{
    /** Coordinator: a worker joins (or joins again after a restart of either side). */
    public static final String REGISTER = "ontul.cluster.register";
    /** Coordinator: a worker's periodic report. */
    public static final String HEARTBEAT = "ontul.cluster.heartbeat";
    /** Worker: its own figures, for its coordinator (and to check that a node answers). */
    public static final String STATUS = "ontul.worker.status";
    /** Worker: the figures of the operators of one fragment it ran, for EXPLAIN ANALYZE. */
    public static final String FRAGMENT_STATISTICS = "ontul.worker.fragment-statistics";

    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /**
     * What a worker sends when it registers and with each heartbeat, and answers to
     * {@value #STATUS}.
     *
     * @param fragmentsRun the query fragments it has started since it started
     * @param spilledBytes what its queries and fragments wrote to spill files since it started
     */
    public record Report(String address, int cores, long memoryMax, long memoryUsed, int runningTasks, long fragmentsRun, long spilledBytes, java.util.List<String> catalogs)
    {
        public static Report of(String address, NodeStatus status, long fragmentsRun, long spilledBytes)
        {
            return new Report(address, status.cores(), status.memoryMax(), status.memoryUsed(), status.runningTasks(), fragmentsRun, spilledBytes,
                    java.util.List.copyOf(new java.util.TreeSet<>(status.catalogs())));
        }

        public NodeStatus status()
        {
            return new NodeStatus(cores, memoryMax, memoryUsed, runningTasks, catalogs == null ? java.util.Set.of() : java.util.Set.copyOf(catalogs));
        }
    }

    /** Which fragment's figures the coordinator asks for. */
    public record FragmentStatisticsRequest(String queryId, int fragment) {}

    /** The coordinator's answer to a heartbeat: {@code known} false means "register again". */
    public record HeartbeatReply(boolean known) {}

    private ClusterMessages() {}

    public static byte[] write(Object message)
    {
        try {
            return JSON.writeValueAsBytes(message);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws IllegalArgumentException naming the message type when the body is not one */
    public static <T> T read(byte[] body, Class<T> type)
    {
        try {
            return JSON.readValue(body, type);
        }
        catch (IOException e) {
            throw new IllegalArgumentException("Malformed " + type.getSimpleName() + " message: " + e.getMessage(), e);
        }
    }
}
