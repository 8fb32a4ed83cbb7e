package io.ontul.server.cluster;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.server.testing.TestCluster;
import io.ontul.server.tls.PemFiles;
import io.ontul.server.tls.SelfSignedCertificate;

/**
 * A cluster whose nodes talk TLS: one certificate for all nodes (as from one CA), trusted through
 * {@code ontul.cluster.tls.root-certificates}; workers register over grpc+tls, advertise grpc+tls
 * and run their fragments for the coordinator over it.
 */
class ClusterTlsIT
{
    @TempDir
    static Path directory;

    @Test
    void theNodesRegisterAndRunQueriesOverTls()
            throws Exception
    {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate(List.of("127.0.0.1", "localhost"), Instant.now());
        Path certificateFile = directory.resolve("cluster.crt");
        Path keyFile = directory.resolve("cluster.key");
        Files.writeString(certificateFile, PemFiles.toPem(certificate.certificate()), US_ASCII);
        Files.writeString(keyFile, PemFiles.toPem(certificate.privateKey()), US_ASCII);
        Map<String, String> tls = Map.of(
                "ontul.flight.tls.enabled", "true",
                "ontul.flight.tls.certificate-file", certificateFile.toString(),
                "ontul.flight.tls.key-file", keyFile.toString(),
                "ontul.cluster.tls.root-certificates", certificateFile.toString());
        try (TestCluster cluster = TestCluster.start(directory.resolve("cluster"), 2, tls);
                Connection connection = cluster.connect();
                Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT role, address FROM system.runtime.nodes WHERE state = 'active'")) {
                int workers = 0;
                while (rows.next()) {
                    assertThat(rows.getString(2)).startsWith("grpc+tls://127.0.0.1:");
                    workers += rows.getString(1).equals("worker") ? 1 : 0;
                }
                assertThat(workers).isEqualTo(2);
            }
            // the scan runs on both workers, over TLS; 60,175 is lineitem's row count at scale 0.01
            try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM tpch.tiny.lineitem")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(60_175);
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery("EXPLAIN ANALYZE SELECT count(*) FROM tpch.tiny.lineitem WHERE l_quantity > 10")) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            assertThat(plan.toString()).contains("from fragment 0 on 2 workers").contains("on 2 workers: rows=");
            // plain gRPC to a worker's TLS port gets nowhere
            try (BufferAllocator allocator = new RootAllocator();
                    FlightClient plain = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", cluster.worker(0).port())).build()) {
                assertThatThrownBy(() -> plain.doAction(new Action(ClusterMessages.STATUS, new byte[0])).next())
                        .isInstanceOf(org.apache.arrow.flight.FlightRuntimeException.class);
            }
        }
    }
}
