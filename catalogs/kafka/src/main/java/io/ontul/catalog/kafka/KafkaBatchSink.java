package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.spi.BatchSink;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * INSERT into a Kafka table: one record per row, all in one Kafka transaction of a producer of
 * its own (a fresh transactional id per statement), so read_committed readers, Ontul's included,
 * see the rows only after {@link #commit()}, which returns once they are readable; {@link #abort()}
 * aborts the transaction. JSON tables
 * write a JSON object per row, with the {@code key.column} value as the record key; raw tables
 * write the {@code key} and {@code value} columns as UTF-8 bytes.
 */
final class KafkaBatchSink
        implements BatchSink
{
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBatchSink.class);

    private final KafkaTableDefinition table;
    private final String qualifiedName;
    private final KafkaCatalogConfig config;
    private final KafkaTopicAdmin admin;
    private final KafkaProducer<byte[], byte[]> producer;
    /** Per partition written, the offset after the last record written: what must become readable at commit. */
    private final Map<Integer, Long> writtenEnds = new ConcurrentHashMap<>();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final AtomicBoolean finished = new AtomicBoolean();

    KafkaBatchSink(KafkaTableDefinition table, String qualifiedName, KafkaCatalogConfig config, KafkaTopicAdmin admin)
    {
        this.admin = requireNonNull(admin, "admin is null");
        this.table = requireNonNull(table, "table is null");
        this.qualifiedName = requireNonNull(qualifiedName, "qualifiedName is null");
        this.config = requireNonNull(config, "config is null");
        Map<String, Object> properties = config.producerProperties();
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "ontul-" + config.catalogName() + "-" + UUID.randomUUID());
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
        properties.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        KafkaProducer<byte[], byte[]> created = null;
        try {
            created = new KafkaProducer<>(properties);
            created.initTransactions();
            created.beginTransaction();
        }
        catch (KafkaException e) {
            if (created != null) {
                created.close(Duration.ZERO);
            }
            throw failed("starting a transaction", e);
        }
        this.producer = created;
    }

    @Override
    public void append(VectorSchemaRoot batch)
    {
        rethrowFailure();
        int rowCount = batch.getRowCount();
        try {
            KafkaRecordEncoder.encode(table, batch, this::send);
        }
        catch (KafkaException e) {
            throw failed("writing", e);
        }
        rows.addAndGet(rowCount);
    }

    private void send(byte[] key, byte[] value)
    {
        producer.send(new ProducerRecord<>(table.topic(), key, value), (metadata, exception) -> {
            if (exception != null) {
                failure.compareAndSet(null, exception);
            }
            else {
                writtenEnds.merge(metadata.partition(), metadata.offset() + 1, Math::max);
            }
        });
    }

    @Override
    public long commit()
    {
        if (!finished.compareAndSet(false, true)) {
            throw new IllegalStateException("Sink already committed or aborted");
        }
        try {
            producer.flush();
            rethrowFailure();
        }
        catch (KafkaException | OntulException e) {
            abortTransaction();
            throw e instanceof OntulException ontulException ? ontulException : failed("writing", e);
        }
        try {
            producer.commitTransaction();
        }
        catch (org.apache.kafka.common.errors.TimeoutException e) {
            // the commit may or may not have been applied, and the client refuses to abort now:
            // say so rather than invite a retry that could write every row twice
            producer.close(Duration.ZERO);
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format(
                    "Kafka at %s did not confirm the commit to topic '%s' of table '%s' in time: the rows may or may not have been written; check the topic before running the statement again",
                    config.bootstrapServers(), table.topic(), qualifiedName), e);
        }
        catch (KafkaException e) {
            abortTransaction();
            throw failed("committing", e);
        }
        producer.close(Duration.ofSeconds(5));
        awaitReadable();
        return rows.get();
    }

    /**
     * The broker answers a commit before it has written the commit markers into the partitions;
     * until then read_committed readers (a query right after this INSERT) do not see the rows.
     * Wait, up to the API timeout, until every partition's last stable offset is past them.
     */
    private void awaitReadable()
    {
        if (writtenEnds.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> needed = new HashMap<>();
        writtenEnds.forEach((partition, end) -> needed.put(new TopicPartition(table.topic(), partition), end));
        long deadline = System.nanoTime() + config.apiTimeout().toNanos();
        try {
            while (true) {
                Map<TopicPartition, Long> stable = admin.offsets(table.topic(), needed.keySet(), OffsetSpec.latest());
                if (needed.entrySet().stream().allMatch(entry -> stable.getOrDefault(entry.getKey(), -1L) >= entry.getValue())) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    break;
                }
                Thread.sleep(10);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (OntulException e) {
            // committed all the same; only the wait for visibility failed
        }
        LOG.warn("Rows committed to topic '{}' of table {} are not yet readable after {} (an older open transaction may hold them back); they will appear when it ends",
                table.topic(), qualifiedName, KafkaDurations.format(config.apiTimeout()));
    }

    @Override
    public void abort()
    {
        if (finished.compareAndSet(false, true)) {
            abortTransaction();
        }
    }

    private void abortTransaction()
    {
        try {
            producer.abortTransaction();
        }
        catch (RuntimeException e) {
            // KafkaException or the client's IllegalStateException: the broker aborts a
            // transaction that is never committed when it times out
        }
        finally {
            producer.close(Duration.ZERO);
        }
    }

    private void rethrowFailure()
    {
        Exception exception = failure.get();
        if (exception != null) {
            throw failed("writing", exception);
        }
    }

    private OntulException failed(String action, Exception cause)
    {
        return new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed %s topic '%s' of table '%s': %s",
                config.bootstrapServers(), action, table.topic(), qualifiedName, KafkaTopicAdmin.rootMessage(cause)), cause);
    }
}
