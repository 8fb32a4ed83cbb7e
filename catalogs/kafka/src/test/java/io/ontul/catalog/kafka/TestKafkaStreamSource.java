package io.ontul.catalog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.spi.InMemoryConnectorStore;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamBatch;
import io.ontul.spi.stream.StreamReader;
import io.ontul.spi.stream.StreamSourceProvider;
import io.ontul.spi.stream.StreamSplit;

/**
 * Kafka as a streaming source through the SPI against a real broker: one split per partition,
 * startup positions, positions after each batch that resume exactly where the batch ended, and
 * malformed records counted and skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestKafkaStreamSource
{
    private static final int EVENTS = 1000;
    private static final int PARTITIONS = 2;

    private EmbeddedKafka kafka;
    private BufferAllocator allocator;
    private KafkaConnector connector;

    @BeforeAll
    void start()
    {
        kafka = EmbeddedKafka.start();
        allocator = new RootAllocator();
        kafka.createTopic("stream", PARTITIONS);
        kafka.produce(KafkaTestData.events("stream", EVENTS, PARTITIONS));
        kafka.produce(List.of(new ProducerRecord<>("stream", 1, null, "{broken")));
        connector = (KafkaConnector) new KafkaConnectorFactory().create("kafka", Map.of("kafka.bootstrap-servers", kafka.bootstrapServers(), "kafka.max.poll.records", "100"),
                new TestingConnectorContext(allocator, new InMemoryConnectorStore()));
    }

    @AfterAll
    void stop()
    {
        if (connector != null) {
            connector.close();
        }
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("memory leaked by the tests").isZero();
            allocator.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void splitsStartAtTheStartupMode()
    {
        StreamSourceProvider provider = connector.streamSourceProvider().orElseThrow();
        TableHandle earliest = connector.metadata().createTable("default", "stream_earliest", KafkaTestData.EVENT_COLUMNS, Map.of("topic", "stream"));
        assertThat(provider.splits(earliest)).extracting(StreamSplit::id).containsExactly("0", "1");
        assertThat(provider.splits(earliest)).allSatisfy(split -> assertThat(KafkaStreamSourceProvider.decode(split.startPosition())).isZero());

        TableHandle latest = connector.metadata().createTable("default", "stream_latest", KafkaTestData.EVENT_COLUMNS,
                Map.of("topic", "stream", "scan.startup.mode", "latest-offset"));
        List<StreamSplit> splits = provider.splits(latest);
        assertThat(KafkaStreamSourceProvider.decode(splits.get(0).startPosition())).isEqualTo(EVENTS / 2);
        assertThat(KafkaStreamSourceProvider.decode(splits.get(1).startPosition())).isEqualTo(EVENTS / 2 + 1);
    }

    @Test
    void resumesExactlyAfterTheLastBatch()
    {
        StreamSourceProvider provider = connector.streamSourceProvider().orElseThrow();
        TableHandle table = connector.metadata().createTable("default", "stream_resume", KafkaTestData.EVENT_COLUMNS, Map.of("topic", "stream"));
        List<String> columns = List.of("event_id");

        List<Long> first = new ArrayList<>();
        Map<String, byte[]> positions = new HashMap<>();
        try (StreamReader reader = provider.open(table, columns, provider.splits(table), allocator)) {
            while (first.isEmpty()) {
                positions.putAll(poll(reader, first));
            }
        }
        List<StreamSplit> resumed = new ArrayList<>();
        for (StreamSplit split : provider.splits(table)) {
            resumed.add(new StreamSplit(split.id(), positions.getOrDefault(split.id(), split.startPosition())));
        }
        List<Long> rest = new ArrayList<>();
        try (StreamReader reader = provider.open(table, columns, resumed, allocator)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (first.size() + rest.size() < EVENTS && System.nanoTime() < deadline) {
                positions.putAll(poll(reader, rest));
            }
            // the broken record may come in a later poll than the last good one
            while (reader.rejectedRecords() == 0 && System.nanoTime() < deadline) {
                positions.putAll(poll(reader, rest));
            }
            assertThat(reader.rejectedRecords()).isEqualTo(1);
        }
        assertThat(first).hasSizeLessThanOrEqualTo(100);
        assertThat(rest).isNotEmpty();
        List<Long> all = new ArrayList<>(first);
        all.addAll(rest);
        all.sort(null);
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < EVENTS; i++) {
            expected.add(i);
        }
        assertThat(all).isEqualTo(expected);
        assertThat(KafkaStreamSourceProvider.decode(positions.get("0"))).isEqualTo(EVENTS / 2);
        assertThat(KafkaStreamSourceProvider.decode(positions.get("1"))).isEqualTo(EVENTS / 2 + 1);
    }

    private static Map<String, byte[]> poll(StreamReader reader, List<Long> ids)
    {
        StreamBatch polled = reader.poll(Duration.ofMillis(200));
        if (polled.batch() != null) {
            try (VectorSchemaRoot batch = polled.batch()) {
                BigIntVector vector = (BigIntVector) batch.getVector(0);
                for (int row = 0; row < batch.getRowCount(); row++) {
                    ids.add(vector.get(row));
                }
            }
        }
        return polled.positions();
    }
}
