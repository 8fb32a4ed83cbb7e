package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.kafka.decoder.KafkaBatchBuilder;
import io.ontul.catalog.kafka.decoder.MalformedRecordException;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.stream.RejectedRecord;
import io.ontul.spi.stream.StreamBatch;
import io.ontul.spi.stream.StreamReader;
import io.ontul.spi.stream.StreamSplit;

/**
 * Reads assigned partitions of a topic for a streaming job with one consumer: assign + seek (no
 * group membership, no rebalancing), read_committed. Every record of a poll goes into the batch
 * that poll returns, so the consumer's position after the poll is the position after the batch.
 * Malformed records are skipped and counted, whatever the table's {@code json.ignore-parse-errors}:
 * a job must keep running.
 */
final class KafkaStreamReader
        implements StreamReader
{
    private static final Logger LOG = LoggerFactory.getLogger(KafkaStreamReader.class);
    private static final AtomicLong CLIENT_IDS = new AtomicLong();
    private static final Duration LAG_CHECK_INTERVAL = Duration.ofSeconds(2);

    private final KafkaTableDefinition table;
    private final String qualifiedName;
    private final KafkaCatalogConfig config;
    private final KafkaBatchBuilder builder;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, TopicPartition> partitions = new HashMap<>();
    private final AtomicLong rejected = new AtomicLong();
    /** Position of the event-time column among the reader's columns, or -1 when the table has none or it was not asked for. */
    private final int eventTimeColumn;
    private int[] rowPartitions = new int[1024];
    private long nextLagCheck = System.nanoTime();
    private volatile long lag = -1;
    private volatile Map<String, Long> splitLags = Map.of();

    KafkaStreamReader(KafkaTableDefinition table, String qualifiedName, List<String> columns, List<StreamSplit> splits, KafkaCatalogConfig config, BufferAllocator allocator)
    {
        this.table = requireNonNull(table, "table is null");
        this.qualifiedName = requireNonNull(qualifiedName, "qualifiedName is null");
        this.config = requireNonNull(config, "config is null");
        Map<String, Object> properties = config.consumerProperties();
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        table.groupId().ifPresent(group -> properties.put(ConsumerConfig.GROUP_ID_CONFIG, group));
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "ontul-stream-" + config.catalogName() + "-" + table.topic() + "-" + CLIENT_IDS.incrementAndGet());
        try {
            this.consumer = new KafkaConsumer<>(properties);
        }
        catch (KafkaException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Cannot create a Kafka consumer for %s (catalog '%s'): %s",
                    config.bootstrapServers(), config.catalogName(), KafkaTopicAdmin.rootMessage(e)), e);
        }
        this.builder = new KafkaBatchBuilder(table, qualifiedName, columns, allocator);
        this.eventTimeColumn = table.watermarkColumn().map(columns::indexOf).orElse(-1);
        try {
            for (StreamSplit split : splits) {
                partitions.put(split.id(), new TopicPartition(table.topic(), Integer.parseInt(split.id())));
            }
            consumer.assign(partitions.values());
            for (StreamSplit split : splits) {
                consumer.seek(partitions.get(split.id()), KafkaStreamSourceProvider.decode(split.startPosition()));
            }
        }
        catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public StreamBatch poll(Duration timeout)
    {
        ConsumerRecords<byte[], byte[]> records;
        List<RejectedRecord> rejectedRecords = new ArrayList<>();
        try {
            records = consumer.poll(timeout);
            for (ConsumerRecord<byte[], byte[]> record : records) {
                try {
                    builder.add(record);
                    // the builder counts rows from 0 again once it starts a batch, so read its count after the add
                    int row = builder.rowCount() - 1;
                    if (row == rowPartitions.length) {
                        rowPartitions = Arrays.copyOf(rowPartitions, row * 2);
                    }
                    rowPartitions[row] = record.partition();
                }
                catch (MalformedRecordException e) {
                    rejectedRecords.add(new RejectedRecord("topic " + record.topic() + " partition " + record.partition() + " offset " + record.offset(),
                            record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8), e.reason()));
                    if (rejected.getAndIncrement() == 0) {
                        LOG.warn("Skipping malformed record of topic '{}' partition {} offset {} (table {}): {}; later ones are counted only",
                                table.topic(), record.partition(), record.offset(), qualifiedName, e.reason());
                    }
                }
            }
            Map<String, byte[]> positions = new HashMap<>();
            for (Map.Entry<String, TopicPartition> entry : partitions.entrySet()) {
                positions.put(entry.getKey(), KafkaStreamSourceProvider.encode(consumer.position(entry.getValue())));
            }
            if (System.nanoTime() >= nextLagCheck) {
                checkLag();
            }
            VectorSchemaRoot batch = builder.rowCount() == 0 ? null : builder.build();
            return new StreamBatch(batch, positions, batch == null ? Map.of() : maxEventTimes(batch), rejectedRecords);
        }
        catch (WakeupException e) {
            return new StreamBatch(null, Map.of());
        }
        catch (KafkaException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed while streaming topic '%s' of table '%s': %s",
                    config.bootstrapServers(), table.topic(), qualifiedName, KafkaTopicAdmin.rootMessage(e)), e);
        }
    }

    /**
     * Asks the broker for the partitions' end offsets: the lag for monitoring, and the check that
     * the broker still answers (a consumer's poll waits silently while it is down).
     */
    private void checkLag()
    {
        Map<TopicPartition, Long> ends;
        try {
            ends = consumer.endOffsets(partitions.values(), config.apiTimeout());
        }
        catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s does not answer: no end offsets of topic '%s' (table %s) within %s ms (%s)",
                    config.bootstrapServers(), table.topic(), qualifiedName, config.apiTimeout().toMillis(), KafkaCatalogConfig.API_TIMEOUT), e);
        }
        long behind = 0;
        Map<String, Long> perPartition = new java.util.TreeMap<>();
        for (Map.Entry<String, TopicPartition> partition : partitions.entrySet()) {
            long partitionBehind = Math.max(0, ends.getOrDefault(partition.getValue(), 0L) - consumer.position(partition.getValue()));
            perPartition.put(partition.getKey(), partitionBehind);
            behind += partitionBehind;
        }
        splitLags = java.util.Collections.unmodifiableMap(perPartition);
        lag = behind;
        nextLagCheck = System.nanoTime() + LAG_CHECK_INTERVAL.toNanos();
    }

    @Override
    public Map<String, Long> splitLags()
    {
        return splitLags;
    }

    @Override
    public OptionalLong lag()
    {
        long known = lag;
        return known < 0 ? OptionalLong.empty() : OptionalLong.of(known);
    }

    /** Per partition, the greatest event time of the batch's rows, in epoch microseconds. */
    private Map<String, Long> maxEventTimes(VectorSchemaRoot batch)
    {
        if (eventTimeColumn < 0) {
            return Map.of();
        }
        TimeStampVector times = (TimeStampVector) batch.getVector(eventTimeColumn);
        long toMicros = times instanceof TimeStampMilliVector ? 1000 : 1;
        // per partition number, without boxing per row
        int partitionCount = 0;
        for (TopicPartition partition : partitions.values()) {
            partitionCount = Math.max(partitionCount, partition.partition() + 1);
        }
        long[] maxima = new long[partitionCount];
        Arrays.fill(maxima, Long.MIN_VALUE);
        for (int row = 0; row < batch.getRowCount(); row++) {
            if (!times.isNull(row)) {
                int partition = rowPartitions[row];
                maxima[partition] = Math.max(maxima[partition], times.get(row) * toMicros);
            }
        }
        Map<String, Long> result = new HashMap<>();
        for (int partition = 0; partition < maxima.length; partition++) {
            if (maxima[partition] != Long.MIN_VALUE) {
                result.put(String.valueOf(partition), maxima[partition]);
            }
        }
        return result;
    }

    @Override
    public long rejectedRecords()
    {
        return rejected.get();
    }

    @Override
    public void reportProgress(Map<String, byte[]> positions)
    {
        if (table.groupId().isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((split, position) -> {
            TopicPartition partition = partitions.get(split);
            if (partition != null) {
                offsets.put(partition, new OffsetAndMetadata(KafkaStreamSourceProvider.decode(position)));
            }
        });
        try {
            consumer.commitSync(offsets, config.apiTimeout());
        }
        catch (KafkaException e) {
            LOG.warn("Cannot commit the offsets of consumer group '{}' for lag monitoring (table {}): {}", table.groupId().get(), qualifiedName, KafkaTopicAdmin.rootMessage(e));
        }
    }

    @Override
    public void wakeup()
    {
        consumer.wakeup();
    }

    @Override
    public void close()
    {
        try {
            consumer.close(CloseOptions.timeout(Duration.ZERO));
        }
        catch (KafkaException e) {
            // nothing to commit: a failed close only leaks a socket until the broker drops it
        }
        builder.close();
    }
}
