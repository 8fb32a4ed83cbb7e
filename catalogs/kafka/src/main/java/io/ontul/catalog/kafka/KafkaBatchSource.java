package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.ontul.catalog.kafka.decoder.KafkaBatchBuilder;
import io.ontul.catalog.kafka.decoder.MalformedRecordException;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Reads one {@link KafkaSplit} with a consumer of its own: assign + seek (no consumer group, no
 * rebalancing, no offset commits), read_committed, polling until the consumer's position reaches
 * the split's end offset. Position rather than the last record's offset decides the end, because
 * transaction markers and compacted-away records leave offsets without records.
 * <p>
 * {@link #close()} may come from another thread while {@link #next()} waits in a poll (cancel):
 * it wakes the consumer up, and the reading thread closes it on its way out.
 */
final class KafkaBatchSource
        implements BatchSource
{
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    private static final AtomicLong CLIENT_IDS = new AtomicLong();

    private final KafkaSplit split;
    private final KafkaCatalogConfig config;
    private final KafkaTopicAdmin admin;
    private final TopicPartition partition;
    private final KafkaBatchBuilder builder;
    private final Object lock = new Object();

    private KafkaConsumer<byte[], byte[]> consumer;
    private Iterator<ConsumerRecord<byte[], byte[]>> pending;
    private long position;
    private long lastProgressNanos;
    private boolean done;
    // written holding lock
    private boolean reading;
    private volatile boolean closed;

    KafkaBatchSource(KafkaSplit split, List<String> columns, KafkaCatalogConfig config, KafkaTopicAdmin admin, BufferAllocator allocator)
    {
        this.split = requireNonNull(split, "split is null");
        this.config = requireNonNull(config, "config is null");
        this.admin = requireNonNull(admin, "admin is null");
        this.partition = new TopicPartition(split.table().topic(), split.partition());
        this.builder = new KafkaBatchBuilder(split.table(), split.qualifiedName(), columns, allocator);
        this.position = split.startOffset();
    }

    @Override
    public VectorSchemaRoot next()
    {
        synchronized (lock) {
            if (closed || done) {
                return null;
            }
            reading = true;
        }
        try {
            if (consumer == null) {
                open();
            }
            while (!builder.isFull() && !done) {
                if (closed) {
                    return null;
                }
                readSome();
            }
            if (done) {
                finish();
                if (builder.rowCount() == 0) {
                    return null;
                }
            }
            return builder.build();
        }
        catch (WakeupException e) {
            return null;
        }
        catch (KafkaException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed while reading %s of table '%s': %s",
                    config.bootstrapServers(), split.describe(), split.qualifiedName(), KafkaTopicAdmin.rootMessage(e)), e);
        }
        finally {
            synchronized (lock) {
                reading = false;
                if (closed) {
                    release();
                }
            }
        }
    }

    /** Decodes the next polled record, or polls. */
    private void readSome()
    {
        if (pending != null && pending.hasNext()) {
            ConsumerRecord<byte[], byte[]> record = pending.next();
            if (record.offset() >= split.endOffset()) {
                pending = null;
                done = true;
                return;
            }
            decode(record);
            position = record.offset() + 1;
            return;
        }
        pending = null;
        long consumerPosition = consumer.position(partition);
        if (consumerPosition > position) {
            position = consumerPosition;
            lastProgressNanos = System.nanoTime();
        }
        if (position >= split.endOffset()) {
            done = true;
            return;
        }
        List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(POLL_TIMEOUT).records(partition);
        if (!records.isEmpty()) {
            pending = records.iterator();
            lastProgressNanos = System.nanoTime();
        }
        else if (System.nanoTime() - lastProgressNanos > config.apiTimeout().toNanos()) {
            throw stalled();
        }
    }

    private void decode(ConsumerRecord<byte[], byte[]> record)
    {
        try {
            builder.add(record);
        }
        catch (MalformedRecordException e) {
            if (!split.table().ignoreParseErrors()) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                        "Malformed record in topic '%s' partition %d offset %d (table '%s'): %s. Set 'json.ignore-parse-errors' = 'true' on the table to skip such records",
                        partition.topic(), record.partition(), record.offset(), split.qualifiedName(), e.reason());
            }
            split.malformedRecords().skipped(record.partition(), record.offset(), e.reason());
        }
    }

    private OntulException stalled()
    {
        // a topic deleted after planning leaves the consumer waiting for metadata: say so
        admin.partitions(partition.topic());
        return new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s returned nothing for %s while reading %s of table '%s' (stopped at offset %d)",
                config.bootstrapServers(), KafkaDurations.format(config.apiTimeout()), split.describe(), split.qualifiedName(), position));
    }

    private void open()
    {
        Map<String, Object> properties = config.consumerProperties();
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // records removed by retention after planning are simply gone from the snapshot
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        properties.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, properties.getOrDefault(ConsumerConfig.CLIENT_ID_CONFIG, "ontul-" + config.catalogName())
                + "-" + partition.topic() + "-" + partition.partition() + "-" + CLIENT_IDS.incrementAndGet());
        try {
            KafkaConsumer<byte[], byte[]> created = new KafkaConsumer<>(properties);
            synchronized (lock) {
                consumer = created;
            }
            created.assign(List.of(partition));
            created.seek(partition, split.startOffset());
        }
        catch (KafkaException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Cannot create a Kafka consumer for %s (catalog '%s'): %s",
                    config.bootstrapServers(), config.catalogName(), KafkaTopicAdmin.rootMessage(e)), e);
        }
        lastProgressNanos = System.nanoTime();
    }

    private void finish()
    {
        done = true;
        split.malformedRecords().splitFinished();
        synchronized (lock) {
            closeConsumer();
        }
    }

    /** Wakes a poll in progress; the reading thread then ends the split and notices the cancellation. */
    @Override
    public void cancel()
    {
        synchronized (lock) {
            if (reading && consumer != null) {
                consumer.wakeup();
            }
        }
    }

    @Override
    public void close()
    {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            if (reading) {
                if (consumer != null) {
                    consumer.wakeup();
                }
                return;
            }
            release();
        }
    }

    /** Holding the lock, with no thread in next(). */
    private void release()
    {
        closeConsumer();
        builder.close();
    }

    private void closeConsumer()
    {
        if (consumer != null) {
            try {
                consumer.close(CloseOptions.timeout(Duration.ZERO));
            }
            catch (KafkaException e) {
                // nothing to commit, nothing to lose: a failed close only leaks a socket until the broker drops it
            }
            consumer = null;
        }
    }
}
