package io.ontul.catalog.kafka.broker;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;

/**
 * A single-node Kafka broker (KRaft: broker and controller in one process) running in this JVM,
 * listening on 127.0.0.1 only: for tests, benchmarks and {@code ontul start --with-kafka}. Its
 * log directory is formatted on first use and kept, so topics survive a restart on the same
 * directory. Replication factors are 1, topics are never created implicitly.
 * <p>
 * Needs the broker's jars ({@code org.apache.kafka:kafka_2.13} and {@code kafka-server}), which
 * the Kafka connector does not bring along by itself (optional dependencies).
 */
public final class SingleNodeKafkaBroker
        implements AutoCloseable
{
    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private SingleNodeKafkaBroker(KafkaRaftServer server, String bootstrapServers)
    {
        this.server = requireNonNull(server, "server is null");
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
    }

    /**
     * Starts the broker and returns once it serves clients.
     *
     * @param directory where the broker keeps its log and configuration (created if missing)
     * @param brokerPort the clients' port on 127.0.0.1
     * @param controllerPort the KRaft controller's port on 127.0.0.1
     */
    public static SingleNodeKafkaBroker start(Path directory, int brokerPort, int controllerPort)
    {
        Properties properties = new Properties();
        properties.setProperty("process.roles", "broker,controller");
        properties.setProperty("node.id", "1");
        properties.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        properties.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        properties.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        properties.setProperty("controller.listener.names", "CONTROLLER");
        properties.setProperty("inter.broker.listener.name", "PLAINTEXT");
        properties.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        properties.setProperty("log.dirs", directory.resolve("logs").toString());
        properties.setProperty("num.partitions", "1");
        properties.setProperty("auto.create.topics.enable", "false");
        properties.setProperty("offsets.topic.replication.factor", "1");
        properties.setProperty("offsets.topic.num.partitions", "1");
        properties.setProperty("transaction.state.log.replication.factor", "1");
        properties.setProperty("transaction.state.log.min.isr", "1");
        properties.setProperty("transaction.state.log.num.partitions", "1");
        properties.setProperty("share.coordinator.state.topic.replication.factor", "1");
        properties.setProperty("share.coordinator.state.topic.min.isr", "1");
        properties.setProperty("group.initial.rebalance.delay.ms", "0");
        try {
            Files.createDirectories(directory);
            if (!Files.exists(directory.resolve("logs").resolve("meta.properties"))) {
                Path configFile = directory.resolve("server.properties");
                try (Writer writer = Files.newBufferedWriter(configFile, StandardCharsets.UTF_8)) {
                    properties.store(writer, "single-node Kafka broker of Ontul");
                }
                ByteArrayOutputStream formatOutput = new ByteArrayOutputStream();
                int exitCode = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString()}, new PrintStream(formatOutput, true, StandardCharsets.UTF_8));
                if (exitCode != 0) {
                    throw new IllegalStateException("Formatting the Kafka log directory " + directory + " failed: " + formatOutput.toString(StandardCharsets.UTF_8));
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(properties, false), Time.SYSTEM);
        server.startup();
        return new SingleNodeKafkaBroker(server, "127.0.0.1:" + brokerPort);
    }

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers()
    {
        return bootstrapServers;
    }

    /** Stops the broker and waits until it has. */
    @Override
    public void close()
    {
        server.shutdown();
        server.awaitShutdown();
    }
}
