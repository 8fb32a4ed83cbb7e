package io.ontul.server.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.server.testing.ServerProcess;
import io.ontul.server.testing.TestCluster;

/**
 * One coordinator and two worker processes: membership, heartbeats, deaths, and the cluster
 * secret that keeps everyone else out.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT
{
    @TempDir
    static Path directory;

    private static TestCluster cluster;
    private static BufferAllocator allocator;

    @BeforeAll
    static void startCluster()
    {
        cluster = TestCluster.start(directory, 2, Map.of());
        allocator = new RootAllocator();
    }

    @AfterAll
    static void stopCluster()
    {
        if (cluster != null) {
            cluster.close();
        }
        if (allocator != null) {
            allocator.close();
        }
    }

    @Test
    @Order(1)
    void nodesListsTheCoordinatorAndItsWorkers()
            throws Exception
    {
        List<Node> nodes = nodes();

        assertThat(nodes).hasSize(3);
        Node coordinator = nodes.get(0);
        assertThat(coordinator.role()).isEqualTo("coordinator");
        assertThat(coordinator.address()).isEqualTo("grpc+tcp://127.0.0.1:" + cluster.coordinator().port());
        // the statement reading the table runs on the coordinator
        assertThat(coordinator.runningTasks()).isGreaterThanOrEqualTo(1);
        List<Node> workers = nodes.subList(1, 3);
        assertThat(workers).extracting(Node::role).containsOnly("worker");
        assertThat(workers).extracting(Node::address).containsExactlyInAnyOrder(
                "grpc+tcp://127.0.0.1:" + cluster.worker(0).port(), "grpc+tcp://127.0.0.1:" + cluster.worker(1).port());
        assertThat(workers).extracting(Node::nodeId).containsExactlyInAnyOrder(nodeIdOf("worker-0"), nodeIdOf("worker-1"));
        assertThat(nodes).extracting(Node::state).containsOnly("active");
        assertThat(nodes).allSatisfy(node -> {
            assertThat(node.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(node.memoryMax()).isPositive();
            assertThat(node.memoryUsed()).isBetween(0L, node.memoryMax());
        });
    }

    @Test
    @Order(2)
    void aWorkerWithTheWrongSecretIsRefusedAndTheRefusalIsLogged()
            throws Exception
    {
        try (ServerProcess intruder = cluster.launchWorker("intruder", Map.of("ontul.cluster.secret", "not-the-cluster-secret-but-long-enough"))) {
            assertThat(intruder.awaitExit(Duration.ofSeconds(90))).isNotZero();
            assertThat(intruder.output()).contains("Cannot start Ontul: The coordinator at grpc+tcp://127.0.0.1:" + cluster.coordinator().port() + " refused this worker")
                    .contains("not signed with this cluster's secret");
        }
        assertThat(cluster.coordinator().output()).contains("Refused a call from 127.0.0.1").contains("not signed with this cluster's secret");
        assertThat(nodes()).extracting(Node::nodeId).doesNotContain(nodeIdOf("intruder")).hasSize(3);
    }

    @Test
    @Order(3)
    void aWorkerAcceptsCallsFromClusterMembersOnly()
    {
        Location worker = Location.forGrpcInsecure("127.0.0.1", cluster.worker(0).port());
        try (FlightClient client = FlightClient.builder(allocator, worker).build()) {
            Action status = new Action(ClusterMessages.STATUS, new byte[0]);
            assertThatThrownBy(() -> consume(client.doAction(status)))
                    .isInstanceOfSatisfying(FlightRuntimeException.class, e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED))
                    .hasMessageContaining("This is an Ontul worker: it accepts calls from the members of its cluster only");
            // a user's password is no way in either
            assertThatThrownBy(() -> consume(client.doAction(status, header("authorization", "Basic "
                    + Base64.getEncoder().encodeToString(("admin:" + ServerProcess.PASSWORD).getBytes(UTF_8))))))
                    .hasMessageContaining("This is an Ontul worker");
            assertThatThrownBy(() -> consume(client.doAction(status, header(ClusterTokens.HEADER,
                    new ClusterTokens("not-the-cluster-secret-but-long-enough", Clock.systemUTC()).issue("someone")))))
                    .hasMessageContaining("not signed with this cluster's secret");

            List<Result> results = consume(client.doAction(status, header(ClusterTokens.HEADER, new ClusterTokens(TestCluster.SECRET, Clock.systemUTC()).issue("test"))));
            ClusterMessages.Report report = ClusterMessages.read(results.get(0).getBody(), ClusterMessages.Report.class);
            assertThat(report.address()).isEqualTo("grpc+tcp://127.0.0.1:" + cluster.worker(0).port());
            assertThat(report.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        }
        catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Order(4)
    void onlyClusterMembersRegisterAndTheyRunNoSql()
            throws Exception
    {
        Location coordinator = Location.forGrpcInsecure("127.0.0.1", cluster.coordinator().port());
        ClusterMessages.Report report = new ClusterMessages.Report("grpc+tcp://127.0.0.1:1", 1, 1, 0, 0, 0, 0, java.util.List.of());
        try (FlightClient client = FlightClient.builder(allocator, coordinator).build()) {
            // a logged-in administrator is still not a cluster member
            assertThatThrownBy(() -> consume(client.doAction(new Action(ClusterMessages.REGISTER, ClusterMessages.write(report)),
                    header("authorization", "Basic " + Base64.getEncoder().encodeToString(("admin:" + ServerProcess.PASSWORD).getBytes(UTF_8))))))
                    .hasMessageContaining("ontul.cluster.register is for the members of the cluster");
            assertThat(cluster.coordinator().output()).contains("Refused ontul.cluster.register from user 'admin'");
            // and the cluster secret is no user login
            FlightSqlClient sql = new FlightSqlClient(client);
            assertThatThrownBy(() -> sql.execute("SELECT 1", header(ClusterTokens.HEADER, new ClusterTokens(TestCluster.SECRET, Clock.systemUTC()).issue("test"))))
                    .hasMessageContaining("Cluster members cannot run SQL with the cluster secret");
        }
        assertThat(nodes()).hasSize(3);
    }

    @Test
    @Order(5)
    void aKilledWorkerIsDeclaredDeadAndComesBackWithItsIdWhenRestarted()
            throws Exception
    {
        String killed = nodeIdOf("worker-1");
        cluster.killWorker(1);

        List<Node> afterDeath = awaitNodes(nodes -> nodes.stream().anyMatch(node -> node.nodeId().equals(killed) && node.state().equals("dead")));
        assertThat(afterDeath).filteredOn(node -> !node.nodeId().equals(killed)).extracting(Node::state).containsOnly("active");
        assertThat(cluster.coordinator().output()).contains("Worker " + killed).contains("missed its heartbeats for PT3S");

        ServerProcess restarted = cluster.restartWorker(1);
        List<Node> afterReturn = awaitNodes(nodes -> nodes.stream().allMatch(node -> node.state().equals("active")));
        assertThat(afterReturn).hasSize(3);
        assertThat(afterReturn).filteredOn(node -> node.nodeId().equals(killed)).extracting(Node::address)
                .containsExactly("grpc+tcp://127.0.0.1:" + restarted.port());
    }

    private record Node(String nodeId, String role, String address, String state, long cores, long memoryMax, long memoryUsed, long runningTasks) {}

    private static List<Node> nodes()
            throws SQLException
    {
        try (Connection connection = cluster.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT node_id, role, address, state, cores, memory_max_bytes, memory_used_bytes, running_tasks, last_heartbeat FROM system.runtime.nodes")) {
            List<Node> nodes = new ArrayList<>();
            while (rows.next()) {
                assertThat(rows.getTimestamp("last_heartbeat")).isNotNull();
                nodes.add(new Node(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4), rows.getLong(5), rows.getLong(6), rows.getLong(7), rows.getLong(8)));
            }
            return nodes;
        }
    }

    /** The nodes once {@code condition} holds; fails after a minute. */
    private static List<Node> awaitNodes(Predicate<List<Node>> condition)
            throws SQLException, InterruptedException
    {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        List<Node> nodes = nodes();
        while (!condition.test(nodes)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The nodes never got there: " + nodes);
            }
            Thread.sleep(200);
            nodes = nodes();
        }
        return nodes;
    }

    private static String nodeIdOf(String node)
            throws Exception
    {
        Path file = directory.resolve(node).resolve("data").resolve(io.ontul.engine.api.cluster.ClusterConfig.NODE_ID_FILE);
        return Files.exists(file) ? Files.readString(file).trim() : "(no id yet)";
    }

    private static HeaderCallOption header(String name, String value)
    {
        CallHeaders headers = new FlightCallHeaders();
        headers.insert(name, value);
        return new HeaderCallOption(headers);
    }

    private static List<Result> consume(Iterator<Result> results)
    {
        List<Result> all = new ArrayList<>();
        results.forEachRemaining(all::add);
        return all;
    }
}
