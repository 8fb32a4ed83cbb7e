package io.ontul.catalog.memory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.InMemoryConnectorStore;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

class TestMemoryConnector
{
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("name", new FieldType(true, ArrowType.Utf8.INSTANCE, null, Map.of("ontul.type", "VARCHAR(20)")), null),
            new Field("price", FieldType.nullable(new ArrowType.Decimal(15, 2, 128)), null),
            new Field("day", FieldType.nullable(new ArrowType.Date(DateUnit.DAY)), null)));

    private RootAllocator root;
    private BufferAllocator catalogAllocator;
    private BufferAllocator queryAllocator;
    private Connector connector;

    @BeforeEach
    void setUp()
    {
        root = new RootAllocator();
        catalogAllocator = root.newChildAllocator("catalog-memory", 0, Long.MAX_VALUE);
        queryAllocator = root.newChildAllocator("query", 0, Long.MAX_VALUE);
        connector = new MemoryConnectorFactory().create("memory", Map.of(), new TestingConnectorContext(catalogAllocator, 4));
    }

    @AfterEach
    void tearDown()
    {
        connector.close();
        // each close throws if memory leaked
        queryAllocator.close();
        catalogAllocator.close();
        root.close();
    }

    @Test
    void testSchemasAndTables()
    {
        assertThat(connector.metadata().listSchemas()).containsExactly("default");
        assertThat(connector.metadata().listTables("default")).isEmpty();
        TableHandle created = connector.metadata().createTable("default", "t", SCHEMA);
        connector.metadata().createTable("default", "a", SCHEMA);
        assertThat(created.qualifiedName()).isEqualTo("memory.default.t");
        assertThat(created.columns()).isEqualTo(SCHEMA);
        assertThat(created.statistics().rowCount()).isZero();
        assertThat(connector.metadata().listTables("default")).containsExactly("a", "t");
        assertThat(connector.metadata().listTables("x")).isEmpty();
        assertThat(connector.metadata().getTable("default", "t")).isPresent();
        assertThat(connector.metadata().getTable("default", "nope")).isEmpty();
        assertThat(connector.metadata().getTable("x", "t")).isEmpty();
        assertThat(readAll(created, "id")).isEmpty();

        assertUserError(() -> connector.metadata().createTable("default", "t", SCHEMA), ErrorCode.ALREADY_EXISTS, "Table 'memory.default.t' already exists");
        assertUserError(() -> connector.metadata().createTable("x", "t", SCHEMA), ErrorCode.NOT_FOUND, "Schema 'memory.x' does not exist");
        Schema duplicate = new Schema(List.of(SCHEMA.getFields().get(0), SCHEMA.getFields().get(0)));
        assertUserError(() -> connector.metadata().createTable("default", "d", duplicate), ErrorCode.INVALID_ARGUMENT, "Column 'id' specified more than once in table 'memory.default.d'");

        connector.metadata().dropTable("default", "t");
        assertThat(connector.metadata().listTables("default")).containsExactly("a");
        assertUserError(() -> connector.metadata().dropTable("default", "t"), ErrorCode.NOT_FOUND, "Table 'memory.default.t' does not exist");
        assertUserError(() -> connector.metadata().dropTable("x", "t"), ErrorCode.NOT_FOUND, "Table 'memory.x.t' does not exist");
    }

    @Test
    void testFactoryRejectsProperties()
    {
        assertUserError(() -> new MemoryConnectorFactory().create("mem", Map.of("foo", "1"), new TestingConnectorContext(catalogAllocator, 1)),
                ErrorCode.INVALID_ARGUMENT, "Catalog 'mem': unknown property 'foo' (the memory connector takes no properties)");
    }

    @Test
    void testAppendFromTwoThreadsThenScan()
            throws Exception
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        BatchSink sink = connector.createSink(table);
        int batchesPerThread = 10;
        int rowsPerBatch = 10_000;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int thread = 0; thread < 2; thread++) {
                int first = thread * batchesPerThread * rowsPerBatch;
                futures.add(executor.submit(() -> {
                    BufferAllocator writer = root.newChildAllocator("writer-" + first, 0, Long.MAX_VALUE);
                    try (writer) {
                        start.await();
                        for (int batch = 0; batch < batchesPerThread; batch++) {
                            try (VectorSchemaRoot rows = batch(writer, first + (long) batch * rowsPerBatch, rowsPerBatch)) {
                                sink.append(rows);
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(readAll(table, "id")).isEmpty();
        assertThat(sink.commit()).isEqualTo(200_000);

        TableHandle committed = connector.metadata().getTable("default", "t").orElseThrow();
        assertThat(committed.statistics().rowCount()).isEqualTo(200_000);
        assertThat(catalogAllocator.getAllocatedMemory()).isPositive();

        ScanSpec scan = new ScanSpec(List.of("name", "id"), List.of());
        List<Split> splits = connector.splits(committed, scan, 4);
        assertThat(splits).hasSize(4);
        List<List<Object>> rows = new ArrayList<>();
        for (Split split : splits) {
            rows.addAll(read(split, scan));
        }
        assertThat(rows).hasSize(200_000);
        rows.sort((left, right) -> Long.compare((Long) left.get(1), (Long) right.get(1)));
        for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i)).isEqualTo(Arrays.asList(expectedName(i), (long) i));
        }
        assertThat(queryAllocator.getAllocatedMemory()).isZero();
    }

    @Test
    void testAllColumnsRoundTrip()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        insert(table, 0, 100);
        List<List<Object>> rows = readAll(table, "id", "name", "price", "day");
        assertThat(rows).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(rows.get(i)).isEqualTo(Arrays.asList((long) i, expectedName(i), BigDecimal.valueOf(i * 101L, 2), i % 5 == 0 ? null : 19_000 + i));
        }
        // reading twice gives the same rows: closing what a scan returned leaves the table intact
        assertThat(readAll(table, "id", "name", "price", "day")).isEqualTo(rows);
        assertThat(readAll(table, "day", "day")).hasSize(100);
    }

    @Test
    void testManySmallAppendsInOneCommit()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        BatchSink sink = connector.createSink(table);
        for (int i = 0; i < 50; i++) {
            try (VectorSchemaRoot batch = batch(queryAllocator, i * 100L, 100)) {
                sink.append(batch);
            }
        }
        assertThat(sink.commit()).isEqualTo(5_000);
        List<Split> splits = connector.splits(table, new ScanSpec(List.of("id"), List.of()), 4);
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).describe()).isEqualTo("memory default.t part 1/1 (1 batches)");
        for (int read = 0; read < 2; read++) {
            List<List<Object>> rows = readAll(table, "id", "name", "price", "day");
            assertThat(rows).hasSize(5_000);
            for (int i = 0; i < 5_000; i++) {
                assertThat(rows.get(i)).isEqualTo(Arrays.asList((long) i, expectedName(i), BigDecimal.valueOf(i * 101L, 2), i % 5 == 0 ? null : 19_000 + i));
            }
        }
    }

    @Test
    void testNoColumns()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        insert(table, 0, 30_000);
        ScanSpec scan = new ScanSpec(List.of(), List.of());
        long rows = 0;
        for (Split split : connector.splits(table, scan, 4)) {
            rows += read(split, scan).size();
        }
        assertThat(rows).isEqualTo(30_000);
    }

    @Test
    void testCallerReusesAppendedBatch()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(queryAllocator, 0, 10)) {
            sink.append(batch);
            BigIntVector ids = (BigIntVector) batch.getVector("id");
            for (int i = 0; i < 10; i++) {
                ids.set(i, -1);
            }
            ((VarCharVector) batch.getVector("name")).setSafe(1, "changed".getBytes(UTF_8));
        }
        sink.commit();
        List<List<Object>> rows = readAll(table, "id", "name");
        assertThat(rows).extracting(row -> row.get(0)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(rows.get(1).get(1)).isEqualTo("name-1");
    }

    @Test
    void testAbortLeavesTableEmpty()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        insert(table, 0, 5);
        long before = catalogAllocator.getAllocatedMemory();
        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(queryAllocator, 5, 20_000)) {
            sink.append(batch);
        }
        assertThat(catalogAllocator.getAllocatedMemory()).isGreaterThan(before);
        sink.abort();
        sink.abort();
        assertThat(catalogAllocator.getAllocatedMemory()).isEqualTo(before);
        assertThat(readAll(table, "id")).hasSize(5);
        assertThat(connector.metadata().getTable("default", "t").orElseThrow().statistics().rowCount()).isEqualTo(5);
        try (VectorSchemaRoot batch = batch(queryAllocator, 0, 1)) {
            assertThatThrownBy(() -> sink.append(batch))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR));
        }
        assertThat(catalogAllocator.getAllocatedMemory()).isEqualTo(before);
    }

    @Test
    void testDropFreesMemory()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        insert(table, 0, 50_000);
        insert(table, 50_000, 3);
        assertThat(catalogAllocator.getAllocatedMemory()).isPositive();
        connector.metadata().dropTable("default", "t");
        assertThat(catalogAllocator.getAllocatedMemory()).isZero();
        assertThat(connector.metadata().getTable("default", "t")).isEmpty();
        // a handle from before the drop does not resurrect the table
        assertUserError(() -> connector.splits(table, new ScanSpec(List.of("id"), List.of()), 1), ErrorCode.NOT_FOUND, "Table 'memory.default.t' does not exist");
        assertUserError(() -> connector.createSink(table), ErrorCode.NOT_FOUND, "Table 'memory.default.t' does not exist");
    }

    @Test
    void testCommitAfterDrop()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(queryAllocator, 0, 100)) {
            sink.append(batch);
        }
        connector.metadata().dropTable("default", "t");
        connector.metadata().createTable("default", "t", SCHEMA);
        assertUserError(sink::commit, ErrorCode.NOT_FOUND, "Table 'memory.default.t' does not exist");
        assertThat(catalogAllocator.getAllocatedMemory()).isZero();
        assertThat(readAll(connector.metadata().getTable("default", "t").orElseThrow(), "id")).isEmpty();
    }

    @Test
    void testDropWhileScanning()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        for (int i = 0; i < 3; i++) {
            insert(table, i * 10_000L, 10_000);
        }
        ScanSpec scan = new ScanSpec(List.of("id", "name"), List.of());
        List<Split> splits = connector.splits(table, scan, 1);
        assertThat(splits).hasSize(1);
        BatchSource source = connector.createSource(splits.get(0), scan, queryAllocator);
        VectorSchemaRoot first = source.next();

        connector.metadata().dropTable("default", "t");
        // the source still holds the two batches it has not returned yet
        assertThat(catalogAllocator.getAllocatedMemory()).isPositive();

        List<VectorSchemaRoot> rest = new ArrayList<>();
        for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
            rest.add(batch);
        }
        source.close();
        assertThat(catalogAllocator.getAllocatedMemory()).isZero();
        assertThat(rest).hasSize(2);

        // what was returned stays readable after the table is gone
        assertThat(((BigIntVector) first.getVector(0)).get(9_999)).isEqualTo(9_999);
        assertThat(first.getVector(1).getObject(4)).hasToString("name-4");
        assertThat(first.getVector(1).isNull(3)).isTrue();
        assertThat(((BigIntVector) rest.get(1).getVector(0)).get(0)).isEqualTo(20_000);
        first.close();
        rest.forEach(VectorSchemaRoot::close);

        // a split planned before the drop but opened after it
        TableHandle again = connector.metadata().createTable("default", "u", SCHEMA);
        insert(again, 0, 10);
        Split planned = connector.splits(again, scan, 1).get(0);
        connector.metadata().dropTable("default", "u");
        assertUserError(() -> connector.createSource(planned, scan, queryAllocator), ErrorCode.NOT_FOUND, "Table 'memory.default.u' was dropped while the query was reading it");
    }

    @Test
    void testReadersKeepTheirSnapshot()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        insert(table, 0, 3);
        ScanSpec scan = new ScanSpec(List.of("id"), List.of());
        List<Split> before = connector.splits(table, scan, 4);
        insert(table, 3, 4);
        assertThat(before.stream().flatMap(split -> read(split, scan).stream()).toList()).hasSize(3);
        assertThat(readAll(table, "id")).hasSize(7);
    }

    @Test
    void testSmallInsertsAreMergedWhenRead()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        for (int i = 0; i < 100; i++) {
            insert(table, i, 1);
        }
        insert(table, 100, 20_000);
        for (int i = 20_100; i < 20_110; i++) {
            insert(table, i, 1);
        }
        ScanSpec scan = new ScanSpec(List.of("id", "name"), List.of());
        List<Split> splits = connector.splits(table, scan, 1);
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).describe()).isEqualTo("memory default.t part 1/1 (111 batches)");
        List<Integer> batchSizes = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        try (BatchSource source = connector.createSource(splits.get(0), scan, queryAllocator)) {
            for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                try (VectorSchemaRoot closed = batch) {
                    batchSizes.add(batch.getRowCount());
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        long id = ((BigIntVector) batch.getVector(0)).get(row);
                        ids.add(id);
                        Object name = batch.getVector(1).getObject(row);
                        assertThat(name == null ? null : name.toString()).isEqualTo(expectedName(id));
                    }
                }
            }
        }
        assertThat(batchSizes).containsExactly(100, 20_000, 10);
        assertThat(ids).isEqualTo(LongStream.range(0, 20_110).boxed().toList());

        // splits get about equal row counts
        List<Split> four = connector.splits(table, scan, 4);
        assertThat(four).hasSizeBetween(2, 4);
        assertThat(four.stream().mapToLong(split -> read(split, scan).size()).sum()).isEqualTo(20_110);
        ScanSpec noColumns = new ScanSpec(List.of(), List.of());
        assertThat(connector.splits(table, noColumns, 3).stream().mapToLong(split -> read(split, noColumns).size()).sum()).isEqualTo(20_110);
    }

    @Test
    void testNullInNotNullColumn()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(queryAllocator, 0, 3)) {
            ((BigIntVector) batch.getVector("id")).setNull(1);
            assertUserError(() -> sink.append(batch), ErrorCode.INVALID_ARGUMENT, "NULL value not allowed for NOT NULL column 'id' of table 'memory.default.t'");
        }
        sink.abort();
    }

    @Test
    void testUnknownColumn()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        insert(table, 0, 1);
        Split split = connector.splits(table, new ScanSpec(List.of(), List.of()), 1).get(0);
        assertUserError(() -> connector.createSource(split, new ScanSpec(List.of("nope"), List.of()), queryAllocator),
                ErrorCode.NOT_FOUND, "Column 'nope' does not exist in table 'memory.default.t'");
    }

    @Test
    void testCloseFreesEverything()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        insert(table, 0, 1_000);
        connector.close();
        assertThat(catalogAllocator.getAllocatedMemory()).isZero();
    }

    /**
     * Column statistics follow the committed rows: distinct counts (HLL, within 3% here), NULL
     * shares and ranges match what the rows hold, computed by hand from {@link #batch}; a second
     * commit adds to them; an overwriting commit (DELETE, UPDATE) replaces them.
     */
    @Test
    void testColumnStatisticsFollowCommits()
    {
        TableHandle table = connector.metadata().createTable("default", "t", SCHEMA);
        assertThat(table.statistics().columns()).isEmpty();
        insert(table, 0, 10_000);
        TableHandle after = connector.metadata().getTable("default", "t").orElseThrow();
        // ids 0..9999: all distinct; names NULL where id % 7 == 3 (1,429 rows), the others distinct;
        // prices id * 1.01; days NULL where id % 5 == 0 (2,000 rows), else 19000 + id
        assertStatistics(after.statistics().column("id"), 10_000, 0, 0, 9_999);
        assertStatistics(after.statistics().column("name"), 10_000 - 1_429, 1_429 / 10_000.0, Double.NaN, Double.NaN);
        assertStatistics(after.statistics().column("price"), 10_000, 0, 0, 9_999 * 1.01);
        assertStatistics(after.statistics().column("day"), 8_000, 0.2, 19_001, 19_000 + 9_999);

        insert(table, 10_000, 10_000);
        after = connector.metadata().getTable("default", "t").orElseThrow();
        assertStatistics(after.statistics().column("id"), 20_000, 0, 0, 19_999);
        assertStatistics(after.statistics().column("day"), 16_000, 0.2, 19_001, 19_000 + 19_999);

        // an overwriting commit of 100 rows: the statistics of those rows only
        BatchSink overwrite = connector.createOverwriteSink(after);
        try (VectorSchemaRoot batch = batch(queryAllocator, 500, 100)) {
            overwrite.append(batch);
        }
        overwrite.commit();
        after = connector.metadata().getTable("default", "t").orElseThrow();
        assertStatistics(after.statistics().column("id"), 100, 0, 500, 599);
        assertStatistics(after.statistics().column("day"), 80, 0.2, 19_501, 19_599);
    }

    private static void assertStatistics(io.ontul.spi.ColumnStatistics column, double distinct, double nullFraction, double min, double max)
    {
        assertThat(column.distinctCount()).isCloseTo(distinct, org.assertj.core.data.Percentage.withPercentage(3));
        assertThat(column.nullFraction()).isCloseTo(nullFraction, org.assertj.core.data.Offset.offset(1e-9));
        if (Double.isNaN(min)) {
            assertThat(column.hasRange()).isFalse();
        }
        else {
            assertThat(column.min()).isCloseTo(min, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(column.max()).isCloseTo(max, org.assertj.core.data.Offset.offset(1e-6));
        }
    }

    private void insert(TableHandle table, long firstId, int rowCount)
    {
        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(queryAllocator, firstId, rowCount)) {
            sink.append(batch);
        }
        assertThat(sink.commit()).isEqualTo(rowCount);
    }

    private List<List<Object>> readAll(TableHandle table, String... columns)
    {
        ScanSpec scan = new ScanSpec(List.of(columns), List.of());
        List<List<Object>> rows = new ArrayList<>();
        for (Split split : connector.splits(table, scan, 3)) {
            rows.addAll(read(split, scan));
        }
        return rows;
    }

    private List<List<Object>> read(Split split, ScanSpec scan)
    {
        List<List<Object>> rows = new ArrayList<>();
        try (BatchSource source = connector.createSource(split, scan, queryAllocator)) {
            for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                try (VectorSchemaRoot closed = batch) {
                    assertThat(batch.getSchema().getFields()).extracting(Field::getName).containsExactlyElementsOf(scan.columns());
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        List<Object> values = new ArrayList<>();
                        for (FieldVector vector : batch.getFieldVectors()) {
                            Object value = vector.getObject(row);
                            values.add(value instanceof Text text ? text.toString() : value);
                        }
                        rows.add(values);
                    }
                }
            }
        }
        return rows;
    }

    private static String expectedName(long id)
    {
        return id % 7 == 3 ? null : "name-" + id;
    }

    private static VectorSchemaRoot batch(BufferAllocator allocator, long firstId, int rowCount)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator);
        BigIntVector ids = (BigIntVector) batch.getVector("id");
        VarCharVector names = (VarCharVector) batch.getVector("name");
        DecimalVector prices = (DecimalVector) batch.getVector("price");
        DateDayVector days = (DateDayVector) batch.getVector("day");
        batch.allocateNew();
        for (int i = 0; i < rowCount; i++) {
            long id = firstId + i;
            ids.setSafe(i, id);
            String name = expectedName(id);
            if (name == null) {
                names.setNull(i);
            }
            else {
                names.setSafe(i, name.getBytes(UTF_8));
            }
            prices.setSafe(i, id * 101);
            if (id % 5 == 0) {
                days.setNull(i);
            }
            else {
                days.setSafe(i, 19_000 + (int) id);
            }
        }
        batch.setRowCount(rowCount);
        return batch;
    }

    private static void assertUserError(Runnable action, ErrorCode code, String message)
    {
        assertThatThrownBy(action::run)
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(code))
                .hasMessage(message);
    }

    private record TestingConnectorContext(BufferAllocator allocator, int parallelism, ConnectorStore store)
            implements ConnectorContext
    {
        TestingConnectorContext(BufferAllocator allocator, int parallelism)
        {
            this(allocator, parallelism, new InMemoryConnectorStore());
        }
    }
}
