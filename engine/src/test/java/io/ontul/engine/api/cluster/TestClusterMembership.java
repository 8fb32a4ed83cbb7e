package io.ontul.engine.api.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.ontul.spi.OntulException;

class TestClusterMembership
{
    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-05T10:00:00Z"));
    private final ClusterConfig config = ClusterConfig.from(Map.of(ClusterConfig.ROLE, "coordinator", ClusterConfig.NODE_ID, "coordinator-1",
            ClusterConfig.SECRET, SECRET, ClusterConfig.WORKER_TIMEOUT, "10s", ClusterConfig.HEARTBEAT_INTERVAL, "1s"), Optional.empty(), Optional.empty());
    private final ClusterMembership membership = new ClusterMembership(config, () -> new NodeStatus(2, 1000, 10, 1), clock);

    @Test
    void theCoordinatorListsItselfFirstThenItsWorkersById()
    {
        membership.advertise("grpc+tcp://127.0.0.1:1000");
        membership.register("worker-b", "grpc+tcp://127.0.0.1:1002", new NodeStatus(4, 2000, 0, 0));
        membership.register("worker-a", "grpc+tcp://127.0.0.1:1001", new NodeStatus(8, 3000, 0, 0));

        List<ClusterNode> nodes = membership.nodes();

        assertThat(nodes).extracting(ClusterNode::nodeId).containsExactly("coordinator-1", "worker-a", "worker-b");
        assertThat(nodes.get(0).role()).isEqualTo(NodeRole.COORDINATOR);
        assertThat(nodes.get(0).address()).isEqualTo("grpc+tcp://127.0.0.1:1000");
        assertThat(nodes.get(0).status()).isEqualTo(new NodeStatus(2, 1000, 10, 1));
        assertThat(nodes.get(1).role()).isEqualTo(NodeRole.WORKER);
        assertThat(nodes.get(1).status().cores()).isEqualTo(8);
        assertThat(nodes).extracting(ClusterNode::state).containsOnly(ClusterNode.State.ACTIVE);
    }

    @Test
    void aWorkerSilentForLongerThanTheTimeoutIsDeclaredDeadOnceAndComesBackWhenItReports()
    {
        List<String> deaths = new ArrayList<>();
        membership.onWorkerDeath(node -> deaths.add(node.nodeId()));
        membership.register("w1", "grpc+tcp://127.0.0.1:1001", new NodeStatus(2, 100, 0, 0));
        membership.register("w2", "grpc+tcp://127.0.0.1:1002", new NodeStatus(2, 100, 0, 0));

        clock.advance(Duration.ofSeconds(6));
        assertThat(membership.heartbeat("w2", new NodeStatus(2, 100, 50, 3))).isTrue();
        clock.advance(Duration.ofSeconds(4));
        // exactly the timeout is not past it
        assertThat(membership.checkHeartbeats()).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(membership.checkHeartbeats()).extracting(ClusterNode::nodeId).containsExactly("w1");
        assertThat(membership.checkHeartbeats()).isEmpty();
        assertThat(deaths).containsExactly("w1");
        assertThat(membership.activeWorkers()).extracting(ClusterNode::nodeId).containsExactly("w2");
        assertThat(membership.activeWorkers().get(0).status().runningTasks()).isEqualTo(3);

        ClusterNode dead = membership.nodes().get(1);
        assertThat(dead.state()).isEqualTo(ClusterNode.State.DEAD);
        assertThat(dead.lastHeartbeat()).isEqualTo(Instant.parse("2026-12-05T10:00:00Z"));

        // a worker that was only cut off reports again; one that restarted registers again
        assertThat(membership.heartbeat("w1", new NodeStatus(2, 100, 0, 0))).isTrue();
        assertThat(membership.activeWorkers()).extracting(ClusterNode::nodeId).containsExactly("w1", "w2");
        clock.advance(Duration.ofSeconds(11));
        assertThat(membership.checkHeartbeats()).extracting(ClusterNode::nodeId).containsExactly("w1", "w2");
        membership.register("w2", "grpc+tcp://127.0.0.1:2002", new NodeStatus(2, 100, 0, 0));
        assertThat(membership.activeWorkers()).extracting(ClusterNode::address).containsExactly("grpc+tcp://127.0.0.1:2002");
        assertThat(deaths).containsExactly("w1", "w1", "w2");
    }

    @Test
    void anUnknownWorkerIsToldToRegisterAndTheCoordinatorsOwnIdIsRefused()
    {
        assertThat(membership.heartbeat("never-registered", new NodeStatus(1, 1, 0, 0))).isFalse();
        assertThat(membership.nodes()).hasSize(1);
        assertThatThrownBy(() -> membership.register("coordinator-1", "grpc+tcp://127.0.0.1:9", new NodeStatus(1, 1, 0, 0)))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("Node id 'coordinator-1' is the coordinator's own");
    }

    @Test
    void theConfigurationSaysWhatIsMissingOrWrong()
    {
        assertThat(ClusterConfig.from(Map.of(), Optional.empty(), Optional.empty()).role()).isEqualTo(NodeRole.ALL);
        assertThatThrownBy(() -> ClusterConfig.from(Map.of(ClusterConfig.ROLE, "boss"), Optional.empty(), Optional.empty()))
                .hasMessage("Invalid ontul.cluster.role 'boss': expected coordinator, worker or all");
        assertThatThrownBy(() -> ClusterConfig.from(Map.of(ClusterConfig.ROLE, "worker", ClusterConfig.SECRET, SECRET), Optional.empty(), Optional.empty()))
                .hasMessageContaining("A worker needs ontul.cluster.coordinator");
        assertThatThrownBy(() -> ClusterConfig.from(Map.of(ClusterConfig.ROLE, "coordinator"), Optional.empty(), Optional.empty()))
                .hasMessageContaining("Role coordinator needs the cluster secret");
        assertThatThrownBy(() -> ClusterConfig.from(Map.of(ClusterConfig.ROLE, "coordinator", ClusterConfig.SECRET, "short"), Optional.empty(), Optional.empty()))
                .hasMessageContaining("ontul.cluster.secret must have at least 32 characters, has 5");
        assertThatThrownBy(() -> ClusterConfig.from(Map.of(ClusterConfig.HEARTBEAT_INTERVAL, "10s"), Optional.empty(), Optional.empty()))
                .hasMessage("ontul.cluster.heartbeat-interval (10s) must be shorter than ontul.cluster.worker-timeout (10s)");
        assertThatThrownBy(() -> ClusterConfig.from(Map.of(ClusterConfig.NODE_ID, "a b"), Optional.empty(), Optional.empty()))
                .hasMessageContaining("Invalid ontul.node.id 'a b'");
        // the environment's secret wins over the file's
        assertThat(ClusterConfig.from(Map.of(ClusterConfig.ROLE, "coordinator", ClusterConfig.SECRET, "short"), Optional.empty(), Optional.of(SECRET)).secret())
                .contains(SECRET);
    }

    @Test
    void aNodeKeepsTheIdItGeneratedInItsDataDirectory(@org.junit.jupiter.api.io.TempDir java.nio.file.Path data)
    {
        String first = ClusterConfig.from(Map.of(), Optional.of(data), Optional.empty()).nodeId();
        assertThat(ClusterConfig.from(Map.of(), Optional.of(data), Optional.empty()).nodeId()).isEqualTo(first);
        assertThat(ClusterConfig.from(Map.of(), Optional.of(data.resolve("other")), Optional.empty()).nodeId()).isNotEqualTo(first);
        assertThat(ClusterConfig.from(Map.of(ClusterConfig.NODE_ID, "chosen"), Optional.of(data), Optional.empty()).nodeId()).isEqualTo("chosen");
    }

    private static final class MutableClock
            extends Clock
    {
        private Instant now;

        MutableClock(Instant now)
        {
            this.now = now;
        }

        void advance(Duration duration)
        {
            now = now.plus(duration);
        }

        @Override
        public Instant instant()
        {
            return now;
        }

        @Override
        public java.time.ZoneId getZone()
        {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone)
        {
            return this;
        }
    }
}
