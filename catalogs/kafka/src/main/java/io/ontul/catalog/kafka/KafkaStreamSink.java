package io.ontul.catalog.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
 * transactions (KIP-939, not in the client): rows written between two barriers are held (in
 * memory, then as the checkpoint's committable); {@link #commit} sends them and a marker record
 * (the checkpoint id) to the sink's own marker topic {@code ontul_stream_commits-<job>-<table
 * hash>} in ONE Kafka transaction, from a producer whose transactional id is the job's and the
 * table's. Before its first commit a sink starts that producer, which fences a producer of an
 * earlier run of the job and lets the broker finish (commit or abort) what that one left open;
 * then, once no transaction is open on the marker topic (only this producer writes it), it reads
 * the markers: a checkpoint already in is not sent again. The marker topic is compacted and
 * created on first use; DROP STREAMING JOB leaves it.
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

    private final KafkaTableDefinition table;
    private final String qualifiedName;
    private final String jobId;
    private final KafkaCatalogConfig config;
    private final KafkaTopicAdmin admin;
    /** Records written since the last barrier: keys and values, NULL for none. */
    private final VarBinaryVector pendingKeys;
    private final VarBinaryVector pendingValues;
    private int pendingCount;
    private KafkaProducer<byte[], byte[]> producer;
    private long committedCheckpoint = -1;

    KafkaStreamSink(KafkaTableDefinition table, String qualifiedName, String jobId, KafkaCatalogConfig config, KafkaTopicAdmin admin, BufferAllocator allocator)
    {
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
        if (committedCheckpoint < 0) {
            // fence the previous run first: its last transaction is then committed or aborted
            producer();
            committedCheckpoint = lastCommittedCheckpoint();
        }
        if (checkpointId <= committedCheckpoint) {
            return;
        }
        KafkaProducer<byte[], byte[]> transactional = producer();
        try {
            transactional.beginTransaction();
            for (byte[] committable : committables) {
                DataInputStream records = new DataInputStream(new java.io.ByteArrayInputStream(committable));
                while (records.available() > 0) {
                    byte[] key = readBytes(records);
                    byte[] value = readBytes(records);
                    transactional.send(new ProducerRecord<>(table.topic(), key, value));
                }
            }
            transactional.send(new ProducerRecord<>(markerTopic(), markerKey(), ByteBuffer.allocate(Long.BYTES).putLong(checkpointId).array()));
            transactional.commitTransaction();
            committedCheckpoint = checkpointId;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (KafkaException e) {
            closeProducer();
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed committing checkpoint %d of streaming job %s into topic '%s' of table '%s': %s",
                    config.bootstrapServers(), checkpointId, jobId, table.topic(), qualifiedName, KafkaTopicAdmin.rootMessage(e)), e);
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

    private byte[] markerKey()
    {
        return (jobId + "/" + qualifiedName).getBytes(UTF_8);
    }

    /** Written by this sink's producer only, so no other transaction can hold its markers back. */
    private String markerTopic()
    {
        return MARKER_TOPIC_PREFIX + jobId.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + Integer.toHexString(qualifiedName.hashCode());
    }

    /** The greatest checkpoint the markers say this job committed into this table, or 0. */
    private long lastCommittedCheckpoint()
    {
        String markerTopic = markerTopic();
        admin.ensureTopic(markerTopic, 1, Map.of("cleanup.policy", "compact"));
        Map<String, Object> properties = config.consumerProperties();
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "ontul-stream-markers-" + config.catalogName());
        byte[] key = markerKey();
        long last = 0;
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
                    if (java.util.Arrays.equals(record.key(), key) && record.value() != null && record.value().length == Long.BYTES) {
                        last = Math.max(last, ByteBuffer.wrap(record.value()).getLong());
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

    private KafkaProducer<byte[], byte[]> producer()
    {
        if (producer == null) {
            Map<String, Object> properties = config.producerProperties();
            properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            // the same id for every run of the job: initTransactions fences the previous one
            properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "ontul-stream-" + jobId + "-" + qualifiedName);
            properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
            properties.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
            KafkaProducer<byte[], byte[]> created = new KafkaProducer<>(properties);
            try {
                created.initTransactions();
            }
            catch (KafkaException e) {
                created.close(Duration.ZERO);
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed starting the transactional producer of streaming job %s for table '%s': %s",
                        config.bootstrapServers(), jobId, qualifiedName, KafkaTopicAdmin.rootMessage(e)), e);
            }
            producer = created;
        }
        return producer;
    }

    private void closeProducer()
    {
        if (producer != null) {
            try {
                producer.close(Duration.ZERO);
            }
            catch (KafkaException e) {
                // gone anyway
            }
            producer = null;
        }
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
        closeProducer();
    }
}
