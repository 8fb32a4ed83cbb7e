package io.ontul.catalog.kafka;

import static io.ontul.catalog.kafka.KafkaTestData.BASE_MILLIS;
import static io.ontul.catalog.kafka.KafkaTestData.BASE_TIME;
import static io.ontul.catalog.kafka.KafkaTestData.EVENT_COLUMNS;
import static io.ontul.catalog.kafka.KafkaTestData.amount;
import static io.ontul.catalog.kafka.KafkaTestData.category;
import static io.ontul.catalog.kafka.KafkaTestData.eventTime;
import static io.ontul.catalog.kafka.KafkaTestData.recordTimestamp;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TimeZone;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.InMemoryConnectorStore;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * The connector through its SPI against a real broker: DDL, snapshot reads, startup modes,
 * malformed records, hidden columns, pushdown, cancellation and transactional writes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestKafkaConnector
{
    private static final int EVENTS = 2000;
    private static final int PARTITIONS = 4;
    private static final List<String> ALL_COLUMNS = List.of("event_id", "category", "amount", "event_time", "_partition", "_offset", "_timestamp");

    private EmbeddedKafka kafka;
    private BufferAllocator allocator;

    @BeforeAll
    void startKafka()
    {
        kafka = EmbeddedKafka.start();
        allocator = new RootAllocator();
        kafka.createTopic("events", PARTITIONS);
        kafka.produce(KafkaTestData.events("events", EVENTS, PARTITIONS));
    }

    @AfterAll
    void stopKafka()
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("memory leaked by the tests").isZero();
            allocator.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void readsASnapshotOfEveryPartitionWithHiddenColumns()
    {
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events"));
            assertThat(table.columns().getFields()).hasSize(7);
            assertThat(connector.splits(table, scan(List.of("event_id")), 8)).hasSize(PARTITIONS);

            List<List<Object>> rows = read(connector, table, scan(ALL_COLUMNS));
            assertThat(rows).hasSize(EVENTS);
            for (List<Object> row : rows) {
                long i = (Long) row.get(0);
                assertThat(row).as("event %d", i).containsExactly(i, category(i), amount(i), eventTime(i), (int) (i % PARTITIONS), i / PARTITIONS,
                        LocalDateTime.ofEpochSecond(recordTimestamp(i) / 1000, 0, ZoneOffset.UTC));
            }
            assertThat(rows.stream().map(row -> row.get(0)).distinct().count()).isEqualTo(EVENTS);

            // columns in any order, a hidden column alone, and no column at all (count(*))
            assertThat(read(connector, table, scan(List.of("_offset", "category"))).stream().filter(row -> row.get(1).equals("c3")).count()).isEqualTo(EVENTS / 5);
            assertThat(read(connector, table, scan(List.of()))).hasSize(EVENTS);
        }
    }

    @Test
    void timestampsDoNotDependOnTheJvmZone()
    {
        TimeZone original = TimeZone.getDefault();
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events"));
            for (String zone : List.of("Pacific/Chatham", "America/St_Johns")) {
                TimeZone.setDefault(TimeZone.getTimeZone(zone));
                List<List<Object>> rows = read(connector, table, scan(List.of("event_id", "event_time")));
                assertThat(rows).allSatisfy(row -> assertThat(row.get(1)).isEqualTo(eventTime((Long) row.get(0))));
                assertThat(rawMillis(connector, table, "event_time")).contains(BASE_MILLIS + 1, BASE_MILLIS + 1000 + 2);
            }
        }
        finally {
            TimeZone.setDefault(original);
        }
    }

    @Test
    void definitionsPersistInTheStoreAndDropLeavesTheTopic()
            throws Exception
    {
        ConnectorStore store = new InMemoryConnectorStore();
        TableHandle created;
        try (KafkaConnector connector = connector(store)) {
            created = createEventsTable(connector, "events", Map.of("topic", "events", "watermark.column", "event_time", "watermark.delay", "5s"));
            connector.metadata().createSchema("analytics", Map.of());
            connector.metadata().createTable("analytics", "raw_events", new Schema(List.of()), Map.of("topic", "events", "format", "raw"));
            assertThatThrownBy(() -> createEventsTable(connector, "events", Map.of("topic", "events")))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS))
                    .hasMessage("Table 'kafka.default.events' already exists");
            assertThatThrownBy(() -> connector.metadata().createTable("nowhere", "events", EVENT_COLUMNS, Map.of("topic", "events")))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                    .hasMessage("Schema 'kafka.nowhere' does not exist");
        }
        assertThat(store.entries(KafkaMetadata.TABLE_KIND)).containsOnlyKeys("default.events", "analytics.raw_events");
        assertThat(store.entries(KafkaMetadata.SCHEMA_KIND)).containsOnlyKeys("analytics");

        try (KafkaConnector connector = connector(store)) {
            assertThat(connector.metadata().listSchemas()).containsExactly("analytics", "default");
            assertThat(connector.metadata().listTables("default")).containsExactly("events");
            assertThat(connector.metadata().listTables("analytics")).containsExactly("raw_events");
            TableHandle reopened = connector.metadata().getTable("default", "events").orElseThrow();
            assertThat(reopened.columns()).isEqualTo(created.columns());
            assertThat(connector.metadata().definition("default", "events").orElseThrow().watermarkDelay()).hasValue(Duration.ofSeconds(5));
            assertThat(read(connector, reopened, scan(List.of("event_id")))).hasSize(EVENTS);

            assertThatThrownBy(() -> connector.metadata().dropSchema("analytics"))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage("Schema 'kafka.analytics' is not empty: drop its tables first");
            connector.metadata().dropTable("analytics", "raw_events");
            connector.metadata().dropSchema("analytics");
            connector.metadata().dropTable("default", "events");
            assertThat(connector.metadata().getTable("default", "events")).isEmpty();
            assertThatThrownBy(() -> connector.metadata().dropTable("default", "events"))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                    .hasMessage("Table 'kafka.default.events' does not exist");
        }
        assertThat(store.entries(KafkaMetadata.TABLE_KIND)).isEmpty();
        assertThat(kafka.admin().listTopics().names().get()).contains("events");
    }

    @Test
    void latestOffsetReadsNothingThatWasThereAtQueryStart()
    {
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events", "scan.startup.mode", "latest-offset"));
            assertThat(connector.splits(table, scan(List.of("event_id")), 4)).isEmpty();
            assertThat(read(connector, table, scan(ALL_COLUMNS))).isEmpty();
        }
    }

    @Test
    void timestampModeStartsAtTheFirstRecordAtOrAfterIt()
    {
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events", "scan.startup.mode", "timestamp",
                    "scan.startup.timestamp-millis", recordTimestamp(1500)));
            List<List<Object>> rows = read(connector, table, scan(List.of("event_id")));
            assertThat(rows).hasSize(EVENTS - 1500);
            assertThat(rows).allSatisfy(row -> assertThat((Long) row.get(0)).isGreaterThanOrEqualTo(1500));
        }
    }

    @Test
    void groupOffsetsStartWhereTheGroupCommitted()
    {
        Map<String, Object> properties = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "dashboard",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = List.of(new TopicPartition("events", 0), new TopicPartition("events", 1), new TopicPartition("events", 3));
            consumer.assign(partitions);
            consumer.commitSync(Map.of(partitions.get(0), new OffsetAndMetadata(100), partitions.get(1), new OffsetAndMetadata(500), partitions.get(2), new OffsetAndMetadata(250)));
        }
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events", "scan.startup.mode", "group-offsets", "properties.group.id", "dashboard"));
            List<List<Object>> rows = read(connector, table, scan(List.of("_partition", "_offset")));
            Map<Object, Long> perPartition = new HashMap<>();
            rows.forEach(row -> perPartition.merge(row.get(0), 1L, Long::sum));
            // partition 2 has no committed offset: it starts at the earliest
            assertThat(perPartition).containsExactlyInAnyOrderEntriesOf(Map.of(0, 400L, 2, 500L, 3, 250L));
            assertThat(rows).filteredOn(row -> row.get(0).equals(0)).allSatisfy(row -> assertThat((Long) row.get(1)).isGreaterThanOrEqualTo(100));
        }
    }

    @Test
    void malformedRecordsAreSkippedAndCountedOrFailTheQuery()
    {
        kafka.createTopic("dirty", 2);
        try (KafkaProducer<byte[], byte[]> producer = byteProducer()) {
            List<ProducerRecord<byte[], byte[]>> records = List.of(
                    record("dirty", 0, "{\"event_id\": 1, \"category\": \"a\"}"),
                    record("dirty", 0, "not json at all"),
                    record("dirty", 0, "{\"event_id\": 2, \"amount\": \"2.5\"}"),
                    record("dirty", 0, "{\"event_id\": \"three\"}"),
                    record("dirty", 1, "[1, 2]"),
                    record("dirty", 1, "{\"event_id\": 4, \"event_time\": \"2026-01-01 00:00:05\"}"),
                    new ProducerRecord<>("dirty", 1, "tombstone".getBytes(UTF_8), null),
                    record("dirty", 1, "{\"EVENT_ID\": 5, \"event_time\": \"Monday\"}"),
                    record("dirty", 1, "{\"event_id\": 6}"));
            records.forEach(producer::send);
            producer.flush();
        }
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle lenient = createEventsTable(connector, "lenient", Map.of("topic", "dirty"));
            List<List<Object>> rows = read(connector, lenient, scan(List.of("event_id", "amount", "event_time")));
            assertThat(rows).containsExactlyInAnyOrder(
                    Arrays.asList(1L, null, null),
                    Arrays.asList(2L, 2.5, null),
                    Arrays.asList(4L, null, LocalDateTime.of(2026, 1, 1, 0, 0, 5)),
                    Arrays.asList(6L, null, null));
            assertThat(connector.skippedMalformedRecords()).isEqualTo(5);
            // the same records are malformed whatever columns a query reads
            assertThat(read(connector, lenient, scan(List.of()))).hasSize(4);
            assertThat(connector.skippedMalformedRecords()).isEqualTo(10);

            TableHandle strict = createEventsTable(connector, "strict", Map.of("topic", "dirty", "json.ignore-parse-errors", "false"));
            assertThatThrownBy(() -> read(connector, strict, scan(List.of("event_id"))))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageStartingWith("Malformed record in topic 'dirty' partition 0 offset 1 (table 'kafka.default.strict'): invalid JSON: Unrecognized token 'not'")
                    .hasMessageEndingWith("Set 'json.ignore-parse-errors' = 'true' on the table to skip such records");
        }
    }

    @Test
    void rawTablesExposeKeyAndValueAsText()
    {
        kafka.createTopic("raw", 1);
        try (KafkaProducer<byte[], byte[]> producer = byteProducer()) {
            producer.send(new ProducerRecord<>("raw", 0, "a".getBytes(UTF_8), "héllo".getBytes(UTF_8)));
            producer.send(new ProducerRecord<>("raw", 0, null, new byte[] {'x', (byte) 0xFF, 'y'}));
            producer.send(new ProducerRecord<>("raw", 0, "c".getBytes(UTF_8), null));
            producer.flush();
        }
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = connector.metadata().createTable("default", "raw", new Schema(List.of()), Map.of("topic", "raw", "format", "raw"));
            assertThat(read(connector, table, scan(List.of("key", "value", "_offset")))).containsExactly(
                    Arrays.asList("a", "héllo", 0L),
                    Arrays.asList(null, "x\uFFFDy", 1L),
                    Arrays.asList("c", null, 2L));
        }
    }

    @Test
    void unknownTopicsAreClearErrors()
            throws Exception
    {
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            assertThatThrownBy(() -> createEventsTable(connector, "events", Map.of("topic", "nope")))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                    .hasMessage("Topic 'nope' does not exist on " + kafka.bootstrapServers());
            assertThat(connector.metadata().listTables("default")).isEmpty();

            kafka.createTopic("doomed", 2);
            TableHandle table = createEventsTable(connector, "doomed", Map.of("topic", "doomed"));
            kafka.deleteTopic("doomed");
            assertThatThrownBy(() -> read(connector, table, scan(List.of("event_id"))))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                    .hasMessage("Topic 'doomed' does not exist on " + kafka.bootstrapServers() + ": table 'kafka.default.doomed' reads it (recreate the topic or drop the table)");
        }
    }

    @Test
    void filtersOnHiddenColumnsPrunePartitionsAndOffsets()
    {
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events"));

            ScanSpec onePartition = new ScanSpec(List.of("event_id"), List.of(new ColumnPredicate("_partition", Operator.EQUAL, List.of(2L))));
            List<Split> splits = connector.splits(table, onePartition, 4);
            assertThat(splits).extracting(split -> ((KafkaSplit) split).partition()).containsOnly(2);
            assertThat(read(connector, table, onePartition)).hasSize(EVENTS / PARTITIONS);

            ScanSpec orOfPartitions = new ScanSpec(List.of("event_id"), List.of(), List.of(List.of(
                    new ColumnPredicate("_partition", Operator.EQUAL, List.of(0L)), new ColumnPredicate("_partition", Operator.GREATER_THAN, List.of(2L)))), OptionalLong.empty());
            assertThat(connector.splits(table, orOfPartitions, 4)).extracting(split -> ((KafkaSplit) split).partition()).containsExactlyInAnyOrder(0, 3);

            ScanSpec offsets = new ScanSpec(List.of("_offset"), List.of(
                    new ColumnPredicate("_offset", Operator.GREATER_THAN_OR_EQUAL, List.of(10L)),
                    new ColumnPredicate("_offset", Operator.LESS_THAN, List.of(20L))));
            assertThat(connector.splits(table, offsets, 4)).allSatisfy(split -> {
                assertThat(((KafkaSplit) split).startOffset()).isEqualTo(10);
                assertThat(((KafkaSplit) split).endOffset()).isEqualTo(20);
            });
            assertThat(read(connector, table, offsets)).hasSize(40);

            LocalDateTime from = BASE_TIME.plusSeconds(1000);
            ScanSpec recent = new ScanSpec(List.of("event_id"), List.of(new ColumnPredicate("_timestamp", Operator.GREATER_THAN_OR_EQUAL, List.of(from))));
            assertThat(connector.splits(table, recent, 4).stream().mapToLong(split -> ((KafkaSplit) split).endOffset() - ((KafkaSplit) split).startOffset()).sum())
                    .isEqualTo(EVENTS - 1000);
            assertThat(read(connector, table, recent)).allSatisfy(row -> assertThat((Long) row.get(0)).isGreaterThanOrEqualTo(1000));
        }
    }

    @Test
    void largePartitionsAreReadAsSeveralOffsetRanges()
    {
        int count = 250_000;
        kafka.createTopic("long", 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024, ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>("long", 0, null, ("{\"event_id\": " + i + "}").getBytes(UTF_8)));
            }
        }
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "long", Map.of("topic", "long"));
            ScanSpec scan = scan(List.of("event_id", "_offset"));
            List<Split> splits = connector.splits(table, scan, 8);
            assertThat(splits).extracting(split -> ((KafkaSplit) split).startOffset() + "-" + ((KafkaSplit) split).endOffset())
                    .containsExactly("0-83333", "83333-166666", "166666-250000");
            List<List<Object>> rows = read(connector, table, scan);
            assertThat(rows).hasSize(count);
            assertThat(rows).allSatisfy(row -> assertThat(row.get(0)).isEqualTo(row.get(1)));
            assertThat(rows.stream().mapToLong(row -> (Long) row.get(0)).sum()).isEqualTo((long) count * (count - 1) / 2);
        }
    }

    @Test
    void closeStopsAReaderWaitingForRecords()
            throws Exception
    {
        try (KafkaConnector connector = connector(new InMemoryConnectorStore());
                BufferAllocator queryAllocator = allocator.newChildAllocator("query", 0, Long.MAX_VALUE)) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events"));
            // a split whose end lies far beyond the partition: the reader keeps polling
            KafkaSplit endless = new KafkaSplit((KafkaTableDefinition) table.connectorHandle(), table.qualifiedName(), 0, 0, 1_000_000,
                    new KafkaMalformedRecords(table.qualifiedName(), "events", 1, new AtomicLong()));
            BatchSource source = connector.createSource(endless, scan(List.of("event_id", "category")), queryAllocator);
            CompletableFuture<VectorSchemaRoot> reading = CompletableFuture.supplyAsync(source::next);
            Thread.sleep(1500);
            assertThat(reading).isNotDone();
            long closing = System.nanoTime();
            source.close();
            assertThat(reading.get(2, TimeUnit.SECONDS)).isNull();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing)).isLessThan(1000);
            assertThat(queryAllocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aReaderThatGetsNoRecordsFailsAfterTheTimeout()
    {
        try (KafkaConnector connector = connector(new InMemoryConnectorStore(), "1s")) {
            TableHandle table = createEventsTable(connector, "events", Map.of("topic", "events"));
            KafkaSplit endless = new KafkaSplit((KafkaTableDefinition) table.connectorHandle(), table.qualifiedName(), 1, 0, 1_000_000,
                    new KafkaMalformedRecords(table.qualifiedName(), "events", 1, new AtomicLong()));
            try (BatchSource source = connector.createSource(endless, scan(List.of("event_id")), allocator)) {
                assertThatThrownBy(source::next)
                        .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                        .hasMessageStartingWith("Kafka at " + kafka.bootstrapServers() + " returned nothing for 1s while reading topic events partition 1 offsets [0, 1000000) of table 'kafka.default.events' (stopped at offset ");
            }
        }
    }

    @Test
    void insertsBecomeVisibleAtCommitOnly()
    {
        kafka.createTopic("written", 2);
        try (KafkaConnector connector = connector(new InMemoryConnectorStore())) {
            TableHandle table = createEventsTable(connector, "written", Map.of("topic", "written", "key.column", "category"));

            BatchSink sink = connector.createSink(table);
            try (VectorSchemaRoot batch = eventBatch(0, 100)) {
                sink.append(batch);
            }
            assertThat(read(connector, table, scan(List.of("event_id")))).isEmpty();
            assertThat(sink.commit()).isEqualTo(100);

            BatchSink aborted = connector.createSink(table);
            try (VectorSchemaRoot batch = eventBatch(100, 50)) {
                aborted.append(batch);
            }
            aborted.abort();

            List<List<Object>> rows = read(connector, table, scan(List.of("event_id", "category", "amount", "event_time")));
            assertThat(rows).hasSize(100);
            assertThat(rows).allSatisfy(row -> {
                long i = (Long) row.get(0);
                assertThat(row).containsExactly(i, category(i), amount(i), eventTime(i));
            });
        }
    }

    private VectorSchemaRoot eventBatch(int first, int count)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(EVENT_COLUMNS, allocator);
        batch.allocateNew();
        for (int row = 0; row < count; row++) {
            long i = first + row;
            ((BigIntVector) batch.getVector("event_id")).setSafe(row, i);
            ((VarCharVector) batch.getVector("category")).setSafe(row, category(i).getBytes(UTF_8));
            ((Float8Vector) batch.getVector("amount")).setSafe(row, amount(i));
            LocalDateTime time = eventTime(i);
            ((TimeStampMilliVector) batch.getVector("event_time")).setSafe(row, time.toEpochSecond(ZoneOffset.UTC) * 1000 + time.getNano() / 1_000_000);
        }
        batch.setRowCount(count);
        return batch;
    }

    private KafkaConnector connector(ConnectorStore store)
    {
        return connector(store, "3s");
    }

    private KafkaConnector connector(ConnectorStore store, String apiTimeout)
    {
        return (KafkaConnector) new KafkaConnectorFactory().create("kafka",
                Map.of("kafka.bootstrap-servers", kafka.bootstrapServers(), "kafka.api-timeout", apiTimeout),
                new TestingConnectorContext(allocator, store));
    }

    private static TableHandle createEventsTable(KafkaConnector connector, String name, Map<String, Object> options)
    {
        return connector.metadata().createTable("default", name, EVENT_COLUMNS, options);
    }

    private static ScanSpec scan(List<String> columns)
    {
        return new ScanSpec(columns, List.of());
    }

    /** Every row of every split, read one split after the other. */
    private List<List<Object>> read(KafkaConnector connector, TableHandle table, ScanSpec scan)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (Split split : connector.splits(table, scan, 4)) {
            try (BatchSource source = connector.createSource(split, scan, allocator)) {
                for (VectorSchemaRoot next = source.next(); next != null; next = source.next()) {
                    try (VectorSchemaRoot batch = next) {
                        assertThat(batch.getSchema().getFields()).extracting(Field::getName).containsExactlyElementsOf(scan.columns());
                        if (scan.columns().isEmpty()) {
                            for (int row = 0; row < batch.getRowCount(); row++) {
                                rows.add(List.of());
                            }
                        }
                        else {
                            rows.addAll(KafkaTestData.rows(batch));
                        }
                    }
                }
            }
        }
        return rows;
    }

    private List<Long> rawMillis(KafkaConnector connector, TableHandle table, String column)
    {
        List<Long> values = new ArrayList<>();
        ScanSpec scan = scan(List.of(column));
        for (Split split : connector.splits(table, scan, 4)) {
            try (BatchSource source = connector.createSource(split, scan, allocator)) {
                for (VectorSchemaRoot next = source.next(); next != null; next = source.next()) {
                    try (VectorSchemaRoot batch = next) {
                        TimeStampMilliVector vector = (TimeStampMilliVector) batch.getVector(0);
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            values.add(vector.get(row));
                        }
                    }
                }
            }
        }
        return values;
    }

    private KafkaProducer<byte[], byte[]> byteProducer()
    {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, int partition, String value)
    {
        return new ProducerRecord<>(topic, partition, null, value.getBytes(UTF_8));
    }
}
