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
 * {@code (job, table) -> checkpoint id} to the topic {@value #MARKER_TOPIC} in ONE Kafka
 * transaction, from a producer whose transactional id is the job's and the table's, so starting
 * it fences a producer of an earlier run of the job and aborts what that one left open. Before its
 * first commit a sink reads the markers (read_committed): a checkpoint already in is not sent
 * again. The marker topic is compacted and created on first use.
 * <p>
 * Memory: one checkpoint interval of rows, as encoded records, is held until the checkpoint
 * completes; keep the interval short for high-volume jobs.
 */
final class KafkaStreamSink
        implements StreamSink
{
    static final String MARKER_TOPIC = "ontul_stream_commits";

    private final KafkaTableDefinition table;
    private final String qualifiedName;
    private final String jobId;
    private final KafkaCatalogConfig config;
    private final KafkaTopicAdmin admin;
    private ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private DataOutputStream pendingRecords = new DataOutputStream(pending);
    private KafkaProducer<byte[], byte[]> producer;
    private long committedCheckpoint = -1;

    KafkaStreamSink(KafkaTableDefinition table, String qualifiedName, String jobId, KafkaCatalogConfig config, KafkaTopicAdmin admin)
    {
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
            try {
                writeBytes(pendingRecords, key);
                writeBytes(pendingRecords, value);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
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
        byte[] committable = pending.toByteArray();
        pending = new ByteArrayOutputStream();
        pendingRecords = new DataOutputStream(pending);
        return committable;
    }

    @Override
    public void commit(long checkpointId, List<byte[]> committables)
    {
        if (committedCheckpoint < 0) {
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
            transactional.send(new ProducerRecord<>(MARKER_TOPIC, markerKey(), ByteBuffer.allocate(Long.BYTES).putLong(checkpointId).array()));
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

    /** The greatest checkpoint the markers say this job committed into this table, or 0. */
    private long lastCommittedCheckpoint()
    {
        admin.ensureTopic(MARKER_TOPIC, 1, Map.of("cleanup.policy", "compact"));
        Map<String, Object> properties = config.consumerProperties();
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "ontul-stream-markers-" + config.catalogName());
        byte[] key = markerKey();
        long last = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties)) {
            List<TopicPartition> partitions = new ArrayList<>(admin.partitions(MARKER_TOPIC));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, config.apiTimeout());
            long deadline = System.nanoTime() + config.apiTimeout().toNanos() * 4;
            while (partitions.stream().anyMatch(partition -> consumer.position(partition, config.apiTimeout()) < ends.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s: reading the commit markers in topic '%s' took too long", config.bootstrapServers(), MARKER_TOPIC));
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
                    config.bootstrapServers(), MARKER_TOPIC, KafkaTopicAdmin.rootMessage(e)), e);
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
        pending = new ByteArrayOutputStream();
        pendingRecords = new DataOutputStream(pending);
    }

    @Override
    public void close()
    {
        abort();
        closeProducer();
    }
}
