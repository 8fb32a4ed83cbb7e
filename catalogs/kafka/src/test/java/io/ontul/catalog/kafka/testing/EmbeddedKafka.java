package io.ontul.catalog.kafka.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringSerializer;

import io.ontul.catalog.kafka.broker.SingleNodeKafkaBroker;


/**
 * A single-node Kafka broker (KRaft, broker and controller in one) running in this JVM, listening
 * on 127.0.0.1 only, on free ports, with its logs in a temporary directory deleted by
 * {@link #close()}. Start one per test class: it takes a few seconds.
 * <pre>
 * try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
 *     kafka.createTopic("events", 4);
 *     ... kafka.bootstrapServers() ...
 * }
 * </pre>
 */
public final class EmbeddedKafka
        implements AutoCloseable
{
    private final Path directory;
    private final SingleNodeKafkaBroker server;
    private final String bootstrapServers;
    private final Admin admin;

    private EmbeddedKafka(Path directory, SingleNodeKafkaBroker server, String bootstrapServers)
    {
        this.directory = requireNonNull(directory, "directory is null");
        this.server = requireNonNull(server, "server is null");
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    public static EmbeddedKafka start()
    {
        Path directory;
        try {
            directory = Files.createTempDirectory("ontul-kafka-");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            int[] ports = freePorts(2);
            SingleNodeKafkaBroker server = SingleNodeKafkaBroker.start(directory, ports[0], ports[1]);
            return new EmbeddedKafka(directory, server, server.bootstrapServers());
        }
        catch (IOException | RuntimeException e) {
            deleteRecursively(directory);
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers()
    {
        return bootstrapServers;
    }

    /** Creates a topic and waits until the broker serves it (has a leader for every partition). */
    public void createTopic(String name, int partitions)
    {
        try {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
            // the controller acknowledges before the broker's metadata cache knows the topic
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!isServed(name, partitions)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Topic " + name + " was created but is not served after 30 s");
                }
                Thread.sleep(20);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        catch (ExecutionException e) {
            throw new IllegalStateException("Creating topic " + name + " failed", e.getCause());
        }
    }

    private boolean isServed(String name, int partitions)
            throws InterruptedException
    {
        TopicDescription description = describe(name);
        return description != null && description.partitions().size() == partitions && description.partitions().stream().allMatch(partition -> partition.leader() != null);
    }

    private boolean isKnown(String name)
            throws InterruptedException
    {
        return describe(name) != null;
    }

    /** The topic's description, or null if the broker does not know it. */
    private TopicDescription describe(String name)
            throws InterruptedException
    {
        try {
            return admin.describeTopics(List.of(name)).topicNameValues().get(name).get();
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw new IllegalStateException("Describing topic " + name + " failed", e.getCause());
        }
    }

    /** Deletes a topic and waits until it is gone. */
    public void deleteTopic(String name)
    {
        try {
            admin.deleteTopics(List.of(name)).all().get();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (isKnown(name)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Topic " + name + " was deleted but is still served after 30 s");
                }
                Thread.sleep(20);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        catch (ExecutionException e) {
            throw new IllegalStateException("Deleting topic " + name + " failed", e.getCause());
        }
    }

    /** An admin client of this broker; owned by this object, do not close it. */
    public Admin admin()
    {
        return admin;
    }

    /** A producer of string keys and values; the caller closes it. */
    public KafkaProducer<String, String> createProducer()
    {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer());
    }

    /** Sends the records and waits until every one is acknowledged. */
    public void produce(List<ProducerRecord<String, String>> records)
    {
        try (KafkaProducer<String, String> producer = createProducer()) {
            List<Future<?>> sent = records.stream().<Future<?>>map(producer::send).toList();
            producer.flush();
            for (Future<?> future : sent) {
                future.get();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        catch (ExecutionException e) {
            throw new IllegalStateException("Producing failed", e.getCause());
        }
    }

    @Override
    public void close()
    {
        try {
            admin.close(Duration.ofSeconds(2));
            server.close();
        }
        finally {
            deleteRecursively(directory);
        }
    }

    /** Distinct ports free on 127.0.0.1 now: held open together, so the system cannot hand out one twice. */
    private static int[] freePorts(int count)
            throws IOException
    {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        }
        finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    private static void deleteRecursively(Path directory)
    {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
