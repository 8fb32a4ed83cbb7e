package io.ontul.catalog.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.stream.StreamSink;

/**
 * A streaming job's two-phase sink into a Kafka table, exactly once without Kafka's prepared
 * transactions (KIP-939, not in the client): rows a writer task writes between two barriers are
 * held (in memory, then as its committable, which names the writer); {@link #commit} sends each
 * writer's rows and a marker record (the checkpoint id, keyed by job, table and writer) to the
 * sink's own marker topic {@code ontul_stream_commits-<job>-<table hash>} in ONE Kafka transaction
 * per writer, from a producer whose transactional id is the job's, the table's and the writer's
 * ({@code ontul-stream-<job>-<table>-<writer>}, writers named as the job's tasks, such as
 * {@code window-2}). Before its first commit a sink starts the producer of every writer of the
 * checkpoint, which fences that writer's producer of an earlier run of the job and lets the broker
 * finish (commit or abort) what that one left open; then, once no transaction is open on the
 * marker topic (only these producers write it), it reads the markers: a writer whose part of a
 * checkpoint is already in does not send it again, so a commit that died between two writers'
 * transactions is completed by the replay without duplicates. The marker topic is compacted and
 * created on first use; DROP STREAMING JOB leaves it. Committables written before writers were
 * named (one transaction for all) read as the writer "" with the id and marker key of that time.
 * <p>
 * Memory: one checkpoint interval of rows, as encoded records, is held until the checkpoint
 * completes: until the barrier in Arrow buffers of the job's allocator (counted against the job's
 * memory budget), then as the checkpoint's committable; keep the interval short for high-volume
 * jobs.
 */
final class KafkaStreamSink
        implements StreamSink
{
    static final String MARKER_TOPIC_PREFIX = "ontul_stream_commits-";
    /** First int of a committable that names its writer; a record's length is never below -1. */
    private static final int NAMED_WRITER = -0x4f4e54;

    private final KafkaTableDefinition table;
    private final String qualifiedName;
    private final String jobId;
    private final KafkaCatalogConfig config;
    private final KafkaTopicAdmin admin;
    /** Records written since the last barrier: keys and values, NULL for none. */
    private final VarBinaryVector pendingKeys;
    private final VarBinaryVector pendingValues;
    private int pendingCount;
    /** The task writing through this sink (see {@link io.ontul.spi.stream.StreamSinkProvider}). */
    private final String writer;
    /** One transactional producer per writer whose rows this sink committed, by writer. */
    private final Map<String, KafkaProducer<byte[], byte[]>> producers = new TreeMap<>();
    /** The last checkpoint each writer committed, by writer, read from the markers at the first commit; null before. */
    private Map<String, Long> committedCheckpoints;

    KafkaStreamSink(KafkaTableDefinition table, String qualifiedName, String jobId, String writer, KafkaCatalogConfig config, KafkaTopicAdmin admin, BufferAllocator allocator)
    {
        this.writer = requireNonNull(writer, "writer is null");
        this.pendingKeys = new VarBinaryVector("key", allocator);
        this.pendingValues = new VarBinaryVector("value", allocator);
        this.table = requireNonNull(table, "table is null");
        this.qualifiedName = requireNonNull(qualifiedName, "qualifiedName is null");
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.config = requireNonNull(config, "config is null");
        this.admin = requireNonNull(admin, "admin is null");
    }

    @Override
    public void write(VectorSchemaRoot batch)
    {
        KafkaRecordEncoder.encode(table, batch, (key, value) -> {
            set(pendingKeys, pendingCount, key);
            set(pendingValues, pendingCount, value);
            pendingCount++;
        });
    }

    private static void set(VarBinaryVector vector, int index, byte[] bytes)
    {
        if (bytes == null) {
            vector.setNull(index);
        }
        else {
            vector.setSafe(index, bytes);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes)
            throws IOException
    {
        out.writeInt(bytes == null ? -1 : bytes.length);
        if (bytes != null) {
            out.write(bytes);
        }
    }

    @Override
    public byte[] prepareCommit(long checkpointId)
    {
        ByteArrayOutputStream committable = new ByteArrayOutputStream();
        try (DataOutputStream records = new DataOutputStream(committable)) {
            records.writeInt(NAMED_WRITER);
            records.writeUTF(writer);
            for (int i = 0; i < pendingCount; i++) {
                writeBytes(records, pendingKeys.isNull(i) ? null : pendingKeys.get(i));
                writeBytes(records, pendingValues.isNull(i) ? null : pendingValues.get(i));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        abort();
        return committable.toByteArray();
    }

    @Override
    public void commit(long checkpointId, List<byte[]> committables)
    {
        Map<String, List<DataInputStream>> byWriter = new TreeMap<>();
        for (byte[] committable : committables) {
            DataInputStream records = new DataInputStream(new ByteArrayInputStream(committable));
            byWriter.computeIfAbsent(writerOf(records, committable), name -> new ArrayList<>()).add(records);
        }
        try {
            if (committedCheckpoints == null) {
                // fence each writer's producer of the previous run first: its last transaction is then committed or aborted
                byWriter.keySet().forEach(this::producer);
                committedCheckpoints = lastCommittedCheckpoints();
            }
            List<String> open = new ArrayList<>();
            for (Map.Entry<String, List<DataInputStream>> entry : byWriter.entrySet()) {
                String name = entry.getKey();
                boolean empty = entry.getValue().stream().allMatch(records -> available(records) == 0);
                if (empty || checkpointId <= committedCheckpoints.getOrDefault(name, 0L)) {
                    continue;
                }
                KafkaProducer<byte[], byte[]> transactional = producer(name);
                transactional.beginTransaction();
                open.add(name);
                for (DataInputStream records : entry.getValue()) {
                    while (records.available() > 0) {
                        byte[] key = readBytes(records);
                        byte[] value = readBytes(records);
                        transactional.send(new ProducerRecord<>(table.topic(), key, value));
                    }
                }
                transactional.send(new ProducerRecord<>(markerTopic(), markerKey(name), ByteBuffer.allocate(Long.BYTES).putLong(checkpointId).array()));
            }
            // every writer's records are on their way before the first commit waits for its own
            for (String name : open) {
                producers.get(name).commitTransaction();
                committedCheckpoints.put(name, checkpointId);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (KafkaException e) {
            // the next commit starts new producers, which abort what these left open
            closeProducers();
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed committing checkpoint %d of streaming job %s into topic '%s' of table '%s': %s",
                    config.bootstrapServers(), checkpointId, jobId, table.topic(), qualifiedName, KafkaTopicAdmin.rootMessage(e)), e);
        }
    }

    /** Reads the writer's name that starts a committable ("" for one written before writers were named, left unread). */
    private static String writerOf(DataInputStream records, byte[] committable)
    {
        try {
            if (committable.length >= Integer.BYTES && ByteBuffer.wrap(committable).getInt() == NAMED_WRITER) {
                records.readInt();
                return records.readUTF();
            }
            return "";
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int available(DataInputStream records)
    {
        try {
            return records.available();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readBytes(DataInputStream in)
            throws IOException
    {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    /** job/table@writer; job/table alone for the writer "" (committables from before writers were named). */
    private byte[] markerKey(String name)
    {
        return (jobId + "/" + qualifiedName + (name.isEmpty() ? "" : "@" + name)).getBytes(UTF_8);
    }

    /** The writer a marker's key names, or null when it is not a marker of this job and table. */
    private String writerOfMarker(byte[] key)
    {
        String text = key == null ? "" : new String(key, UTF_8);
        String prefix = jobId + "/" + qualifiedName;
        if (text.equals(prefix)) {
            return "";
        }
        return text.startsWith(prefix + "@") ? text.substring(prefix.length() + 1) : null;
    }

    /** Written by this sink's producers only, so no other transaction can hold its markers back. */
    private String markerTopic()
    {
        return MARKER_TOPIC_PREFIX + jobId.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + Integer.toHexString(qualifiedName.hashCode());
    }

    /** The greatest checkpoint the markers say each writer of this job committed into this table, by writer. */
    private Map<String, Long> lastCommittedCheckpoints()
    {
        String markerTopic = markerTopic();
        admin.ensureTopic(markerTopic, 1, Map.of("cleanup.policy", "compact"));
        Map<String, Object> properties = config.consumerProperties();
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "ontul-stream-markers-" + config.catalogName());
        Map<String, Long> last = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties)) {
            List<TopicPartition> partitions = new ArrayList<>(admin.partitions(markerTopic));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + config.apiTimeout().toNanos() * 4;
            // the broker writes a finished transaction's markers a moment after it answered
            Map<TopicPartition, Long> ends = admin.highWatermarks(markerTopic, partitions);
            while (!consumer.endOffsets(partitions, config.apiTimeout()).equals(ends)) {
                if (System.nanoTime() > deadline) {
                    throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s: a transaction on topic '%s' stays open; cannot tell which checkpoints are in", config.bootstrapServers(), markerTopic));
                }
                Thread.sleep(50);
            }
            while (partitions.stream().anyMatch(partition -> consumer.position(partition, config.apiTimeout()) < ends.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s: reading the commit markers in topic '%s' took too long", config.bootstrapServers(), markerTopic));
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String name = writerOfMarker(record.key());
                    if (name != null && record.value() != null && record.value().length == Long.BYTES) {
                        last.merge(name, ByteBuffer.wrap(record.value()).getLong(), Math::max);
                    }
                }
            }
        }
        catch (KafkaException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed reading the commit markers in topic '%s': %s",
                    config.bootstrapServers(), markerTopic, KafkaTopicAdmin.rootMessage(e)), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Interrupted while reading the commit markers in topic '" + markerTopic + "'", e);
        }
        return last;
    }

    /** The transactional producer of writer {@code name}, started (and an earlier run's fenced) on first use. */
    private KafkaProducer<byte[], byte[]> producer(String name)
    {
        KafkaProducer<byte[], byte[]> producer = producers.get(name);
        if (producer == null) {
            Map<String, Object> properties = config.producerProperties();
            properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            // the same id for every run of the job: initTransactions fences the previous one
            properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(jobId, qualifiedName, name));
            properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
            properties.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
            producer = new KafkaProducer<>(properties);
            try {
                producer.initTransactions();
            }
            catch (KafkaException e) {
                producer.close(Duration.ZERO);
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed starting the transactional producer of writer '%s' of streaming job %s for table '%s': %s",
                        config.bootstrapServers(), name, jobId, qualifiedName, KafkaTopicAdmin.rootMessage(e)), e);
            }
            producers.put(name, producer);
        }
        return producer;
    }

    /** ontul-stream-JOB-TABLE-WRITER; without the writer for committables from before writers were named. */
    static String transactionalId(String jobId, String qualifiedName, String writer)
    {
        return "ontul-stream-" + jobId + "-" + qualifiedName + (writer.isEmpty() ? "" : "-" + writer);
    }

    private void closeProducers()
    {
        producers.values().forEach(producer -> {
            try {
                producer.close(Duration.ZERO);
            }
            catch (KafkaException e) {
                // gone anyway
            }
        });
        producers.clear();
    }

    @Override
    public void abort()
    {
        // release the buffers: an interval's records can be many
        pendingKeys.clear();
        pendingValues.clear();
        pendingCount = 0;
    }

    @Override
    public void close()
    {
        pendingKeys.close();
        pendingValues.close();
        closeProducers();
    }
}
