package io.ontul.catalog.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.HostAccessPolicy;
import io.ontul.spi.InMemoryConnectorStore;
import io.ontul.spi.OntulException;

class TestKafkaConnectorFactory
{
    @Test
    void isFoundByTheServiceLoader()
    {
        assertThat(ServiceLoader.load(ConnectorFactory.class).stream().map(provider -> provider.get().name())).contains("kafka");
    }

    @Test
    void passesKafkaPropertiesToTheClientsWithoutThePrefix()
    {
        KafkaCatalogConfig config = KafkaCatalogConfig.parse("kafka", Map.of(
                "kafka.bootstrap-servers", "broker-1:9092,broker-2:9092",
                "kafka.security.protocol", "SASL_SSL",
                "kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"secret-password\";",
                "kafka.fetch.min.bytes", "1024",
                "kafka.linger.ms", "7",
                "kafka.schema.registry.url", "http://registry:8081",
                "kafka.api-timeout", "2s"));
        assertThat(config.bootstrapServers()).isEqualTo("broker-1:9092,broker-2:9092");
        assertThat(config.apiTimeout()).hasSeconds(2);
        assertThat(config.consumerProperties())
                .containsEntry("bootstrap.servers", "broker-1:9092,broker-2:9092")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsKey("sasl.jaas.config")
                .containsEntry("fetch.min.bytes", "1024")
                .containsEntry("schema.registry.url", "http://registry:8081")
                .doesNotContainKey("linger.ms");
        assertThat(config.producerProperties()).containsEntry("linger.ms", "7").doesNotContainKey("fetch.min.bytes");
        assertThat(config.adminProperties()).containsEntry("security.protocol", "SASL_SSL").doesNotContainKey("linger.ms");
        assertThat(config.toString()).contains("sasl.jaas.config").doesNotContain("secret-password");
    }

    @Test
    void rejectsBadPropertiesNamingThem()
    {
        assertInvalid(Map.of(), "Catalog 'kafka': property 'kafka.bootstrap-servers' is required (for example 'localhost:9092')");
        assertInvalid(Map.of("kafka.bootstrap-servers", "h:1", "bootstrap.servers", "h:1"),
                "Catalog 'kafka': unknown property 'bootstrap.servers' (the kafka connector takes kafka.bootstrap-servers, kafka.api-timeout and Kafka client properties prefixed with 'kafka.')");
        assertInvalid(Map.of("kafka.bootstrap.servers", "h:1"), "Catalog 'kafka': use property 'kafka.bootstrap-servers' instead of 'kafka.bootstrap.servers'");
        assertInvalid(Map.of("kafka.bootstrap-servers", "h:1", "kafka.isolation.level", "read_uncommitted"),
                "Catalog 'kafka': property 'kafka.isolation.level' cannot be set: the connector chooses it");
        assertThatThrownBy(() -> KafkaCatalogConfig.parse("kafka", Map.of("kafka.bootstrap-servers", "h:1", "kafka.security.protocol", "CARRIER_PIGEON")))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageStartingWith("Catalog 'kafka': bad Kafka client property (set as 'kafka.NAME'): Invalid value CARRIER_PIGEON for configuration security.protocol: String must be one of");
        assertInvalid(Map.of("kafka.bootstrap-servers", "h:1", "kafka.fetch.min.bytes", "lots"),
                "Catalog 'kafka': bad Kafka client property (set as 'kafka.NAME'): Invalid value lots for configuration fetch.min.bytes: Not a number of type INT");
        assertInvalid(Map.of("kafka.bootstrap-servers", "h:1", "kafka.api-timeout", "soon"),
                "Catalog 'kafka': property 'kafka.api-timeout' must be a positive duration such as '5s' or '500ms', not 'soon'");
    }

    /** Issue 23: client properties that load classes or login modules on the server's host are refused unless the operator allows them. */
    @Test
    void refusesClientPropertiesThatLoadCodeUnlessAllowed()
    {
        String refused = "Catalog 'kafka': property '%s' is refused: it %s on the server's host (an operator may allow it in ontul.security.allowed-client-properties in conf/ontul.properties)";
        String loadsClasses = "loads classes by name or reads files through a provider";
        for (String property : List.of("kafka.sasl.login.callback.handler.class", "kafka.interceptor.classes", "kafka.partitioner.class", "kafka.metric.reporters",
                "kafka.config.providers", "kafka.config.providers.file.class", "kafka.ssl.engine.factory.class")) {
            assertThatThrownBy(() -> KafkaCatalogConfig.checkHostAccess("kafka", Map.of("kafka.bootstrap-servers", "h:1", property, "org.example.Evil"), HostAccessPolicy.DEFAULT))
                    .as(property)
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage(refused.formatted(property, loadsClasses));
        }
        assertThatThrownBy(() -> KafkaCatalogConfig.checkHostAccess("kafka", Map.of("kafka.bootstrap-servers", "h:1",
                        "kafka.sasl.jaas.config", "com.sun.security.auth.module.JndiLoginModule required user.provider.url=\"ldap://x\";"), HostAccessPolicy.DEFAULT))
                .hasMessage(refused.formatted("kafka.sasl.jaas.config",
                        "names login module 'com.sun.security.auth.module.JndiLoginModule', not one of Kafka's PLAIN, SCRAM and OAUTHBEARER modules, and loads it"));
        // through the factory, before any class is loaded
        try (BufferAllocator allocator = new RootAllocator()) {
            assertThatThrownBy(() -> new KafkaConnectorFactory().create("kafka", Map.of("kafka.bootstrap-servers", "h:1", "kafka.interceptor.classes", "org.example.NoSuchClass"),
                    new TestingConnectorContext(allocator, new InMemoryConnectorStore())))
                    .hasMessage(refused.formatted("kafka.interceptor.classes", loadsClasses));
        }
        // Kafka's own login modules pass, and an operator may allow a property by name
        KafkaCatalogConfig.checkHostAccess("kafka", Map.of("kafka.bootstrap-servers", "h:1",
                "kafka.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";"), HostAccessPolicy.DEFAULT);
        HostAccessPolicy allowing = HostAccessPolicy.of(null, null, Optional.empty(), "sasl.login.callback.handler.class");
        KafkaCatalogConfig.checkHostAccess("kafka", Map.of("kafka.bootstrap-servers", "h:1", "kafka.sasl.login.callback.handler.class", "org.example.Handler"), allowing);
    }

    /** TLS stores and file: OAuth endpoints are files the client reads: inside ontul.security.allowed-paths only. */
    @Test
    void refusesKeyAndTrustStoresOutsideTheAllowedDirectories(@TempDir Path allowed)
            throws IOException
    {
        HostAccessPolicy policy = new HostAccessPolicy(HostAccessPolicy.DEFAULT_JDBC_DRIVERS, Optional.of(List.of(allowed)), Set.of());
        for (String property : List.of("kafka.ssl.truststore.location", "kafka.ssl.keystore.location")) {
            assertThatThrownBy(() -> KafkaCatalogConfig.checkHostAccess("kafka", Map.of("kafka.bootstrap-servers", "h:1", property, "/etc/ssl/private/server.p12"), policy))
                    .as(property)
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage("Catalog 'kafka': property '" + property + "' is '/etc/ssl/private/server.p12', which is outside the directories this server lets catalogs use ("
                            + allowed.toRealPath() + "; an operator may change ontul.security.allowed-paths in conf/ontul.properties)");
        }
        assertThatThrownBy(() -> KafkaCatalogConfig.checkHostAccess("kafka", Map.of("kafka.bootstrap-servers", "h:1",
                        "kafka.sasl.oauthbearer.token.endpoint.url", "file:///etc/shadow"), policy))
                .hasMessageContaining("property 'kafka.sasl.oauthbearer.token.endpoint.url' is 'file:///etc/shadow', which is outside the directories");
        // inside the allowed directories, and remote endpoints, pass
        KafkaCatalogConfig.checkHostAccess("kafka", Map.of("kafka.bootstrap-servers", "h:1",
                "kafka.ssl.truststore.location", allowed.resolve("truststore.p12").toString(),
                "kafka.sasl.oauthbearer.token.endpoint.url", "https://login.example.com/oauth2/token"), policy);
    }

    @Test
    void createsTheConnectorWithoutContactingKafka()
            throws IOException
    {
        try (BufferAllocator allocator = new RootAllocator();
                Connector connector = new KafkaConnectorFactory().create("kafka", Map.of("kafka.bootstrap-servers", "127.0.0.1:" + closedPort()),
                        new TestingConnectorContext(allocator, new InMemoryConnectorStore()))) {
            assertThat(connector.metadata().listSchemas()).containsExactly("default");
            assertThat(connector.metadata().listTables("default")).isEmpty();
        }
    }

    @Test
    void anUnreachableBrokerIsAnExternalErrorNamingIt()
            throws IOException
    {
        String bootstrapServers = "127.0.0.1:" + closedPort();
        long started = System.nanoTime();
        try (BufferAllocator allocator = new RootAllocator();
                Connector connector = new KafkaConnectorFactory().create("kafka", Map.of("kafka.bootstrap-servers", bootstrapServers, "kafka.api-timeout", "1s"),
                        new TestingConnectorContext(allocator, new InMemoryConnectorStore()))) {
            Schema columns = new Schema(List.of(new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null)));
            assertThatThrownBy(() -> connector.metadata().createTable("default", "events", columns, Map.of("topic", "events")))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                    .hasMessage("Kafka at " + bootstrapServers + " did not answer within 1s while describing topic 'events': is the broker running and reachable? (catalog property kafka.api-timeout)");
            assertThat(connector.metadata().listTables("default")).isEmpty();
        }
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(8_000);
    }

    private static void assertInvalid(Map<String, String> config, String message)
    {
        assertThatThrownBy(() -> KafkaCatalogConfig.parse("kafka", config))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage(message);
    }

    /** A port nothing listens on (bound, then released). */
    static int closedPort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
