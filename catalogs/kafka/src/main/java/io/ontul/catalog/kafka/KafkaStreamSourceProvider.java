package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamReader;
import io.ontul.spi.stream.StreamSourceProvider;
import io.ontul.spi.stream.StreamSplit;
import io.ontul.spi.stream.WatermarkDeclaration;

/**
 * Kafka topics as streams: one split per partition, named by the partition number; a position is
 * the next offset to read, as 8 big-endian bytes. Start positions follow the table's
 * {@code scan.startup.mode}.
 */
final class KafkaStreamSourceProvider
        implements StreamSourceProvider
{
    /** How long a partition may be silent before it stops holding the watermark back, unless the table says. */
    static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaCatalogConfig config;
    private final KafkaTopicAdmin admin;
    private final KafkaSplitPlanner splitPlanner;

    KafkaStreamSourceProvider(KafkaCatalogConfig config, KafkaTopicAdmin admin, KafkaSplitPlanner splitPlanner)
    {
        this.config = requireNonNull(config, "config is null");
        this.admin = requireNonNull(admin, "admin is null");
        this.splitPlanner = requireNonNull(splitPlanner, "splitPlanner is null");
    }

    @Override
    public List<StreamSplit> splits(TableHandle table)
    {
        KafkaTableDefinition definition = (KafkaTableDefinition) table.connectorHandle();
        List<TopicPartition> partitions = admin.partitions(definition.topic());
        Map<TopicPartition, Long> ends = admin.offsets(definition.topic(), partitions, OffsetSpec.latest());
        Map<TopicPartition, Long> starts = splitPlanner.startOffsets(definition, partitions, ends);
        List<StreamSplit> splits = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            splits.add(new StreamSplit(String.valueOf(partition.partition()), encode(starts.get(partition))));
        }
        return splits;
    }

    @Override
    public StreamReader open(TableHandle table, List<String> columns, List<StreamSplit> splits, BufferAllocator allocator)
    {
        return new KafkaStreamReader((KafkaTableDefinition) table.connectorHandle(), table.qualifiedName(), columns, splits, config, allocator);
    }

    @Override
    public Optional<WatermarkDeclaration> watermark(TableHandle table)
    {
        KafkaTableDefinition definition = (KafkaTableDefinition) table.connectorHandle();
        return definition.watermarkColumn().map(column -> new WatermarkDeclaration(
                column,
                definition.watermarkDelay().orElse(Duration.ZERO),
                Optional.of(definition.watermarkIdleTimeout().orElse(DEFAULT_IDLE_TIMEOUT))));
    }

    static byte[] encode(long offset)
    {
        return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
    }

    static long decode(byte[] position)
    {
        return ByteBuffer.wrap(position).getLong();
    }
}
