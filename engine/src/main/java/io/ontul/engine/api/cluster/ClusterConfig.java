package io.ontul.engine.api.cluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.ontul.engine.query.Durations;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The cluster settings of one process: its role, its node id, where its coordinator is, the
 * shared secret every member proves it knows, and how often workers report and how long the
 * coordinator waits for them.
 *
 * @param coordinator where a worker registers: {@code host:port}, or a URI
 *        {@code grpc+tcp://host:port} / {@code grpc+tls://host:port}; empty on the coordinator
 * @param secret the shared cluster secret; required unless the role is {@link NodeRole#ALL}
 */
public record ClusterConfig(NodeRole role, String nodeId, Optional<String> coordinator, Optional<String> secret, Duration workerTimeout, Duration heartbeatInterval)
{
    public static final String ROLE = "ontul.cluster.role";
    public static final String NODE_ID = "ontul.node.id";
    public static final String COORDINATOR = "ontul.cluster.coordinator";
    public static final String SECRET = "ontul.cluster.secret";
    public static final String WORKER_TIMEOUT = "ontul.cluster.worker-timeout";
    public static final String HEARTBEAT_INTERVAL = "ontul.cluster.heartbeat-interval";
    /** The environment variable that may hold the secret instead of the configuration file. */
    public static final String SECRET_VARIABLE = "ONTUL_CLUSTER_SECRET";
    /** Where a node keeps the id it generated on its first start, under its data directory. */
    public static final String NODE_ID_FILE = "node-id";
    public static final int MINIMUM_SECRET_LENGTH = 32;

    public ClusterConfig
    {
        requireNonNull(role, "role is null");
        requireNonNull(nodeId, "nodeId is null");
        requireNonNull(coordinator, "coordinator is null");
        requireNonNull(secret, "secret is null");
        requireNonNull(workerTimeout, "workerTimeout is null");
        requireNonNull(heartbeatInterval, "heartbeatInterval is null");
    }

    /**
     * The settings of {@code config}, checked: a worker needs its coordinator and the secret, a
     * coordinator the secret; the secret must be long enough to be one; the heartbeat interval must
     * be shorter than the timeout. Without {@value #NODE_ID} the node id is the one kept in the
     * data directory (generated on the first start), so a restarted node is the same node.
     *
     * @param properties the server's configuration ({@code ontul.properties})
     * @param dataDirectory where the generated node id is kept (none: a new id per start)
     * @param environmentSecret the value of {@value #SECRET_VARIABLE}, which wins over the file
     * @throws OntulException INVALID_ARGUMENT naming the setting that is wrong
     */
    public static ClusterConfig from(Map<String, String> properties, Optional<Path> dataDirectory, Optional<String> environmentSecret)
    {
        NodeRole role = NodeRole.parse(properties.getOrDefault(ROLE, NodeRole.ALL.configName()), ROLE);
        Optional<String> coordinator = Optional.ofNullable(properties.get(COORDINATOR)).map(String::trim).filter(value -> !value.isEmpty());
        Optional<String> secret = environmentSecret.filter(value -> !value.isEmpty()).or(() -> Optional.ofNullable(properties.get(SECRET)).filter(value -> !value.isEmpty()));
        Duration timeout = Durations.parse(properties.getOrDefault(WORKER_TIMEOUT, "10s"), WORKER_TIMEOUT);
        Duration interval = Durations.parse(properties.getOrDefault(HEARTBEAT_INTERVAL, "2s"), HEARTBEAT_INTERVAL);
        if (role == NodeRole.WORKER && coordinator.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "A worker needs %s: the host:port of its coordinator's Flight endpoint", COORDINATOR);
        }
        if (role != NodeRole.ALL && secret.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Role %s needs the cluster secret: set %s (or the environment variable %s) to the same value on every node",
                    role.configName(), SECRET, SECRET_VARIABLE);
        }
        if (secret.isPresent() && secret.get().length() < MINIMUM_SECRET_LENGTH) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "%s must have at least %d characters, has %d (e.g. the output of: openssl rand -base64 33)",
                    SECRET, MINIMUM_SECRET_LENGTH, secret.get().length());
        }
        if (interval.compareTo(timeout) >= 0) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "%s (%s) must be shorter than %s (%s)", HEARTBEAT_INTERVAL, Durations.format(interval),
                    WORKER_TIMEOUT, Durations.format(timeout));
        }
        String nodeId = Optional.ofNullable(properties.get(NODE_ID)).map(String::trim).filter(value -> !value.isEmpty())
                .orElseGet(() -> keptNodeId(dataDirectory));
        if (!nodeId.matches("[A-Za-z0-9._-]{1,64}")) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid %s '%s': use 1 to 64 letters, digits, '.', '_' or '-'", NODE_ID, nodeId);
        }
        return new ClusterConfig(role, nodeId, coordinator, secret, timeout, interval);
    }

    private static String keptNodeId(Optional<Path> dataDirectory)
    {
        if (dataDirectory.isEmpty()) {
            return UUID.randomUUID().toString();
        }
        Path file = dataDirectory.get().resolve(NODE_ID_FILE);
        try {
            if (Files.exists(file)) {
                return Files.readString(file, StandardCharsets.UTF_8).trim();
            }
            String generated = UUID.randomUUID().toString();
            Files.createDirectories(dataDirectory.get());
            Path temporary = Files.createTempFile(dataDirectory.get(), NODE_ID_FILE, ".tmp");
            Files.writeString(temporary, generated + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return generated;
        }
        catch (IOException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot read or create the node id file " + file + ": " + e.getMessage(), e);
        }
    }
}
