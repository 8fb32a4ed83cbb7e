package io.ontul.catalog.kafka.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
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
    /** Attempts of {@link #produce}: the first, and retries of what timed out. */
    public static final int PRODUCE_ATTEMPTS = 4;

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
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000),
                new StringSerializer(), new StringSerializer());
    }

    /**
     * Sends the records and waits until every one is acknowledged. If some time out and every
     * record names its partition, a new producer sends again, per partition, the records after
     * those the partition gained once its end offset has stopped moving (the producer is
     * idempotent, so what a partition holds of one attempt is a prefix of what was sent to it);
     * up to {@link #PRODUCE_ATTEMPTS} attempts in all. Afterwards each partition must have gained
     * exactly its records, or this fails rather than leave duplicates behind. Once, on a loaded
     * CI machine, one partition of a new topic took none of its records for two minutes while
     * the others did.
     */
    public void produce(List<ProducerRecord<String, String>> records)
    {
        Map<TopicPartition, Long> start = records.stream().allMatch(record -> record.partition() != null) ? endOffsets(records) : null;
        List<ProducerRecord<String, String>> pending = records;
        for (int attempt = 1; ; attempt++) {
            try {
                send(pending);
                if (attempt > 1) {
                    checkWrittenOnce(records, start);
                }
                return;
            }
            catch (ExecutionException e) {
                if (!(e.getCause() instanceof TimeoutException) || start == null || attempt == PRODUCE_ATTEMPTS) {
                    throw new IllegalStateException("Producing failed (attempt " + attempt + ")", e.getCause());
                }
                pending = unwritten(records, start);
                System.err.printf("EmbeddedKafka: %s; sending the %d records not written again%n", e.getCause().getMessage(), pending.size());
            }
        }
    }

    /** Fails if a partition gained other than exactly the records sent to it (a retry wrote some twice). */
    private void checkWrittenOnce(List<ProducerRecord<String, String>> records, Map<TopicPartition, Long> start)
    {
        Map<TopicPartition, Long> sent = new HashMap<>();
        for (ProducerRecord<String, String> record : records) {
            sent.merge(new TopicPartition(record.topic(), record.partition()), 1L, Long::sum);
        }
        endOffsets(records).forEach((partition, end) -> {
            long gained = end - start.get(partition);
            if (gained != sent.get(partition)) {
                throw new IllegalStateException("Partition " + partition + " gained " + gained + " records after a retry, but " + sent.get(partition) + " were sent to it");
            }
        });
    }

    private void send(List<ProducerRecord<String, String>> records)
            throws ExecutionException
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
    }

    /**
     * The records, in order, without the first ones of each partition that it gained since
     * {@code start}, counted once the end offsets stop moving (a request that timed out on the
     * client may still be appended by a slow broker).
     */
    private List<ProducerRecord<String, String>> unwritten(List<ProducerRecord<String, String>> records, Map<TopicPartition, Long> start)
    {
        Map<TopicPartition, Long> end = stableEndOffsets(records);
        Map<TopicPartition, Long> toSkip = new HashMap<>();
        end.forEach((partition, offset) -> toSkip.put(partition, offset - start.get(partition)));
        List<ProducerRecord<String, String>> unwritten = new ArrayList<>();
        for (ProducerRecord<String, String> record : records) {
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            long skip = toSkip.get(partition);
            if (skip > 0) {
                toSkip.put(partition, skip - 1);
            }
            else {
                unwritten.add(record);
            }
        }
        return unwritten;
    }

    /** End offsets read until two reads a second apart agree, for up to 30 s. */
    private Map<TopicPartition, Long> stableEndOffsets(List<ProducerRecord<String, String>> records)
    {
        Map<TopicPartition, Long> previous = endOffsets(records);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(1000);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Map<TopicPartition, Long> current = endOffsets(records);
            if (current.equals(previous)) {
                return current;
            }
            previous = current;
        }
        return previous;
    }

    private Map<TopicPartition, Long> endOffsets(List<ProducerRecord<String, String>> records)
    {
        Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
        for (ProducerRecord<String, String> record : records) {
            partitions.put(new TopicPartition(record.topic(), record.partition()), OffsetSpec.latest());
        }
        try {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            admin.listOffsets(partitions).all().get(30, TimeUnit.SECONDS).forEach((partition, info) -> offsets.put(partition, info.offset()));
            return offsets;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Listing the end offsets of " + partitions.keySet() + " failed", e);
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
