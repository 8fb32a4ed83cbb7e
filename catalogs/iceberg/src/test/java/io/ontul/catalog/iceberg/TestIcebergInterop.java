package io.ontul.catalog.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.iceberg.read.IcebergParquetBatchSource;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * Tables written with Iceberg's own Java API (as other engines write them) read through the
 * connector: partitioned tables of several files, file pruning and row-group skipping, delete
 * files, schema evolution, and types Ontul shows differently or not at all.
 */
class TestIcebergInterop
{
    private static final Schema EVENTS = new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "category", Types.StringType.get()),
            Types.NestedField.optional(3, "ts", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(4, "amount", Types.DecimalType.of(10, 2)));

    @TempDir
    Path warehouse;

    private BufferAllocator allocator;
    private HadoopCatalog catalog;
    private Connector connector;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
        catalog = IcebergTesting.hadoopCatalog(warehouse);
        catalog.createNamespace(Namespace.of("db"));
        connector = IcebergTesting.hadoopConnector("lake", warehouse, allocator);
    }

    @AfterEach
    void tearDown()
    {
        connector.close();
        allocator.close();
    }

    @Test
    void readsPartitionedTableWrittenByIceberg()
    {
        Table table = catalog.createTable(TableIdentifier.of("db", "events"), EVENTS, PartitionSpec.builderFor(EVENTS).day("ts").identity("category").build());
        List<List<Record>> files = new ArrayList<>();
        for (int day = 1; day <= 3; day++) {
            for (String category : List.of("a", "b")) {
                List<Record> records = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    long id = day * 1000L + (category.equals("a") ? 0 : 500) + i;
                    records.add(event(id, category, LocalDateTime.of(2026, 1, day, i % 24, i % 60, 1, 250_000), i % 7 == 0 ? null : new BigDecimal(id).movePointLeft(2)));
                }
                files.add(records);
            }
        }
        new IcebergApiWriter(table).append(files);
        new IcebergApiWriter(table).append(List.of(List.of(event(9999, null, null, null))));

        TableHandle handle = connector.metadata().getTable("db", "events").orElseThrow();
        assertThat(handle.statistics().rowCount()).isEqualTo(601);
        List<String> columns = List.of("id", "category", "ts", "amount");
        ScanSpec all = new ScanSpec(columns, List.of());
        assertThat(sorted(IcebergTesting.read(connector, handle, all, allocator))).isEqualTo(sorted(IcebergTesting.icebergRows(table, columns)));
        assertThat(connector.splits(handle, all, 1)).hasSize(7);

        // partition pruning: one day and one category
        ScanSpec oneDay = new ScanSpec(columns, List.of(
                new ColumnPredicate("ts", Operator.GREATER_THAN_OR_EQUAL, List.of(LocalDateTime.of(2026, 1, 2, 0, 0))),
                new ColumnPredicate("ts", Operator.LESS_THAN, List.of(LocalDateTime.of(2026, 1, 3, 0, 0))),
                new ColumnPredicate("category", Operator.EQUAL, List.of("b"))));
        assertThat(connector.splits(handle, oneDay, 1)).hasSize(1);
        List<List<Object>> rows = IcebergTesting.read(connector, handle, oneDay, allocator);
        assertThat(rows).hasSize(100).allSatisfy(row -> assertThat(row.get(1)).isEqualTo("b"));

        // file pruning by column metrics (id is not a partition column), IN and OR
        assertThat(connector.splits(handle, new ScanSpec(columns, List.of(new ColumnPredicate("id", Operator.LESS_THAN, List.of(1_100L)))), 1)).hasSize(1);
        assertThat(connector.splits(handle, new ScanSpec(columns, List.of(new ColumnPredicate("id", Operator.IN, List.of(1_010L, 3_510L)))), 1)).hasSize(2);
        assertThat(connector.splits(handle, new ScanSpec(columns, List.of(), List.of(List.of(
                new ColumnPredicate("id", Operator.EQUAL, List.of(2_001L)),
                new ColumnPredicate("category", Operator.IS_NULL, List.of()))), OptionalLong.empty()), 1)).hasSize(2);
        assertThat(connector.splits(handle, new ScanSpec(columns, List.of(new ColumnPredicate("id", Operator.GREATER_THAN, List.of(100_000L)))), 1)).isEmpty();
    }

    @Test
    void skipsRowGroupsByStatistics()
    {
        Table table = catalog.createTable(TableIdentifier.of("db", "many_groups"), EVENTS, PartitionSpec.unpartitioned(), Map.of(
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "1",
                TableProperties.PARQUET_ROW_GROUP_CHECK_MIN_RECORD_COUNT, "100",
                TableProperties.PARQUET_ROW_GROUP_CHECK_MAX_RECORD_COUNT, "100"));
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            records.add(event(i, "c" + (i / 100), LocalDateTime.of(2026, 1, 1, 0, 0).plusMinutes(i), BigDecimal.valueOf(i, 2)));
        }
        new IcebergApiWriter(table).append(List.of(records));
        TableHandle handle = connector.metadata().getTable("db", "many_groups").orElseThrow();

        ScanSpec scan = new ScanSpec(List.of("id", "category"), List.of(new ColumnPredicate("id", Operator.EQUAL, List.of(1_234L))));
        List<Split> splits = connector.splits(handle, scan, 1);
        assertThat(splits).hasSize(1);
        List<List<Object>> rows = new ArrayList<>();
        try (BatchSource source = connector.createSource(splits.get(0), scan, allocator)) {
            var batch = source.next();
            while (batch != null) {
                rows.addAll(IcebergTesting.rows(batch));
                batch.close();
                batch = source.next();
            }
            assertThat(((IcebergParquetBatchSource) source).skippedRowGroups()).isGreaterThan(10);
        }
        // only the row group holding 1234 was read
        assertThat(rows).contains(List.of(1_234L, "c12")).hasSizeLessThanOrEqualTo(100);

        // LIKE 'c1%' prunes by prefix: c1, c10..c19 hold 1,100 of the rows
        ScanSpec like = new ScanSpec(List.of("id"), List.of(new ColumnPredicate("category", Operator.LIKE, List.of("c1%"))));
        assertThat(IcebergTesting.read(connector, handle, like, allocator)).hasSize(1_100);
    }

    @Test
    void decodesManyPagesNullsAndDictionaryFallback()
    {
        // tiny pages and dictionaries: chunks of many pages, dictionary pages followed by plain ones
        Table table = catalog.createTable(TableIdentifier.of("db", "pages"), EVENTS, PartitionSpec.unpartitioned(), Map.of(
                TableProperties.PARQUET_PAGE_SIZE_BYTES, "2048",
                TableProperties.PARQUET_DICT_SIZE_BYTES, "4096",
                TableProperties.PARQUET_PAGE_ROW_LIMIT, "1000"));
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            String category = i % 7 == 0 ? null : i < 50_000 ? "c" + (i % 10) : "unique-" + i;
            LocalDateTime ts = i % 11 == 0 ? null : LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(i * 37L);
            records.add(event(i, category, ts, i % 13 == 0 ? null : BigDecimal.valueOf(i % 1000 - 500, 2)));
        }
        new IcebergApiWriter(table).append(List.of(records));
        TableHandle handle = connector.metadata().getTable("db", "pages").orElseThrow();
        List<String> columns = List.of("id", "category", "ts", "amount");
        assertThat(sorted(IcebergTesting.read(connector, handle, new ScanSpec(columns, List.of()), allocator)))
                .isEqualTo(sorted(IcebergTesting.icebergRows(table, columns)));
    }

    @Test
    void honoursPositionDeletesAndRefusesEqualityDeletes()
    {
        Table table = catalog.createTable(TableIdentifier.of("db", "deleted"), EVENTS, PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, "2"));
        IcebergApiWriter writer = new IcebergApiWriter(table);
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            records.add(event(i, "x", null, null));
        }
        DataFile file = writer.dataFile(records);
        table.newAppend().appendFile(file).commit();
        table.newRowDelta().addDeletes(writer.positionDeletes(file, 0, 7, 40_000, 49_999)).commit();

        TableHandle handle = connector.metadata().getTable("db", "deleted").orElseThrow();
        List<List<Object>> rows = IcebergTesting.read(connector, handle, new ScanSpec(List.of("id"), List.of()), allocator);
        assertThat(rows).hasSize(49_996).doesNotContain(List.of(0L), List.of(7L), List.of(40_000L), List.of(49_999L)).contains(List.of(1L), List.of(49_998L));
        assertThat(sorted(rows)).isEqualTo(sorted(IcebergTesting.icebergRows(table, List.of("id"))));
        // count(*) reads no column but still leaves deleted rows out
        assertThat(IcebergTesting.read(connector, handle, new ScanSpec(List.of(), List.of()), allocator)).hasSize(49_996);

        Schema idOnly = EVENTS.select("id");
        table.newRowDelta().addDeletes(writer.equalityDeletes(idOnly, List.of(GenericRecord.create(idOnly).copy(Map.of("id", 5L))))).commit();
        TableHandle withEqualityDeletes = connector.metadata().getTable("db", "deleted").orElseThrow();
        assertThatThrownBy(() -> connector.splits(withEqualityDeletes, new ScanSpec(List.of("id"), List.of()), 1))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("Table 'lake.db.deleted' has equality delete files");
    }

    @Test
    void readsFilesWrittenBeforeSchemaChanges()
    {
        Table table = catalog.createTable(TableIdentifier.of("db", "evolving"), EVENTS, PartitionSpec.builderFor(EVENTS).identity("category").build());
        new IcebergApiWriter(table).append(List.of(List.of(event(1, "a", null, BigDecimal.ONE.setScale(2)))));
        table.updateSchema()
                .renameColumn("amount", "price")
                .addColumn("note", Types.StringType.get())
                .updateColumn("amount", Types.DecimalType.of(12, 2))
                .commit();
        Record late = GenericRecord.create(table.schema()).copy(Map.of("id", 2L, "category", "b", "price", new BigDecimal("2.50"), "note", "new"));
        new IcebergApiWriter(table).append(List.of(List.of(late)));

        TableHandle handle = connector.metadata().getTable("db", "evolving").orElseThrow();
        assertThat(handle.columns().getFields()).extracting(Field::getName).containsExactly("id", "category", "ts", "price", "note");
        List<List<Object>> rows = sorted(IcebergTesting.read(connector, handle, new ScanSpec(List.of("id", "price", "note", "category"), List.of()), allocator));
        assertThat(rows).containsExactly(
                Arrays.asList(1L, new BigDecimal("1.00"), null, "a"),
                Arrays.asList(2L, new BigDecimal("2.50"), "new", "b"));
    }

    @Test
    void readsUuidsAndBinaryAndLeavesOutTypesWithoutAnOntulType()
    {
        Schema schema = new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "u", Types.UUIDType.get()),
                Types.NestedField.optional(3, "payload", Types.BinaryType.get()),
                Types.NestedField.optional(4, "tags", Types.ListType.ofOptional(5, Types.StringType.get())),
                Types.NestedField.optional(6, "t", Types.TimeType.get()),
                Types.NestedField.optional(7, "tstz", Types.TimestampType.withZone()),
                Types.NestedField.optional(8, "digest", Types.FixedType.ofLength(4)),
                Types.NestedField.optional(9, "attrs", Types.MapType.ofOptional(10, 11, Types.StringType.get(), Types.StringType.get())),
                Types.NestedField.optional(12, "points", Types.ListType.ofOptional(13, Types.StructType.of(Types.NestedField.optional(14, "x", Types.IntegerType.get())))));
        Table table = catalog.createTable(TableIdentifier.of("db", "odd"), schema);
        UUID uuid = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        Record record = GenericRecord.create(schema).copy(Map.of(
                "id", 1L,
                "u", uuid,
                "payload", ByteBuffer.wrap(new byte[] {1, 2}),
                "tags", List.of("x"),
                "t", java.time.LocalTime.of(12, 30, 15, 123_456_000),
                "tstz", java.time.OffsetDateTime.parse("2026-03-01T10:00:00.000001+02:00"),
                "digest", new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef},
                "attrs", Map.of("k", "v")));
        new IcebergApiWriter(table).append(List.of(List.of(record)));

        TableHandle handle = connector.metadata().getTable("db", "odd").orElseThrow();
        // uuid is Ontul's UUID (canonical text), binary and fixed are VARBINARY, a list of strings an ARRAY; a map and a list of structs have no Ontul type
        assertThat(handle.columns().getFields()).extracting(Field::getName).containsExactly("id", "u", "payload", "tags", "t", "tstz", "digest");
        assertThat(handle.columns().findField("tags").getType()).isEqualTo(ArrowType.List.INSTANCE);
        assertThat(IcebergTesting.read(connector, handle, new ScanSpec(List.of("tags"), List.of()), allocator)).containsExactly(List.of(List.of("x")));
        assertThat(TableHandle.isUuid(handle.columns().findField("u"))).isTrue();
        assertThat(handle.columns().findField("payload").getType()).isEqualTo(ArrowType.Binary.INSTANCE);
        assertThat(handle.columns().findField("digest").getType()).isEqualTo(ArrowType.Binary.INSTANCE);
        assertThat(IcebergTesting.read(connector, handle, new ScanSpec(List.of("u", "payload", "t", "tstz", "digest"), List.of()), allocator))
                .containsExactly(List.of(uuid.toString(), ByteBuffer.wrap(new byte[] {1, 2}), java.time.LocalTime.of(12, 30, 15, 123_000_000),
                        java.time.Instant.parse("2026-03-01T08:00:00.000001Z"), ByteBuffer.wrap(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef})));
        // timestamptz is TIMESTAMP WITH TIME ZONE, filtered (and files pruned) by instants
        assertThat(handle.columns().findField("tstz").getType()).isEqualTo(new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, "UTC"));
        java.time.Instant written = java.time.Instant.parse("2026-03-01T08:00:00.000001Z");
        ScanSpec byInstant = new ScanSpec(List.of("id"), List.of(new ColumnPredicate("tstz", Operator.EQUAL, List.of(written))));
        assertThat(IcebergTesting.read(connector, handle, byInstant, allocator)).containsExactly(List.of(1L));
        ScanSpec later = new ScanSpec(List.of("id"), List.of(new ColumnPredicate("tstz", Operator.GREATER_THAN, List.of(written))));
        assertThat(connector.splits(handle, later, 1)).isEmpty();
        ScanSpec byUuid = new ScanSpec(List.of("id"), List.of(new ColumnPredicate("u", Operator.EQUAL, List.of(uuid.toString()))));
        assertThat(IcebergTesting.read(connector, handle, byUuid, allocator)).containsExactly(List.of(1L));
        ScanSpec otherUuid = new ScanSpec(List.of("id"), List.of(new ColumnPredicate("u", Operator.EQUAL, List.of(UUID.randomUUID().toString()))));
        assertThat(connector.splits(handle, otherUuid, 1)).isEmpty();
    }

    @Test
    void readsListsAsArrays()
    {
        Schema schema = new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "ints", Types.ListType.ofOptional(10, Types.IntegerType.get())),
                Types.NestedField.optional(3, "names", Types.ListType.ofOptional(11, Types.StringType.get())),
                Types.NestedField.required(4, "longs", Types.ListType.ofRequired(12, Types.LongType.get())),
                Types.NestedField.optional(5, "amounts", Types.ListType.ofOptional(13, Types.DecimalType.of(10, 2))),
                Types.NestedField.optional(6, "days", Types.ListType.ofOptional(14, Types.DateType.get())),
                Types.NestedField.optional(7, "times", Types.ListType.ofRequired(15, Types.TimestampType.withoutZone())),
                Types.NestedField.optional(8, "flags", Types.ListType.ofOptional(16, Types.BooleanType.get())));
        // small row groups and pages: lists cross page and row-group boundaries
        Table table = catalog.createTable(TableIdentifier.of("db", "lists"), schema, PartitionSpec.unpartitioned(), Map.of(
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "1",
                TableProperties.PARQUET_ROW_GROUP_CHECK_MIN_RECORD_COUNT, "700",
                TableProperties.PARQUET_ROW_GROUP_CHECK_MAX_RECORD_COUNT, "700",
                TableProperties.PARQUET_PAGE_SIZE_BYTES, "512"));
        List<Record> records = new ArrayList<>();
        for (int row = 0; row < 3_000; row++) {
            int i = row;
            Record record = GenericRecord.create(schema);
            record.setField("id", (long) i);
            // NULL lists, empty lists, NULL elements, lists of up to 40 elements
            record.setField("ints", i % 11 == 0 ? null : i % 7 == 0 ? List.of() : numbers(i % 41, n -> n % 5 == 3 ? null : i * 100 + n));
            record.setField("names", i % 13 == 0 ? null : numbers(i % 4, n -> n == 1 ? null : "n" + i + "é" + "x".repeat(n)));
            record.setField("longs", numbers(i % 3, n -> Long.MIN_VALUE + i + n));
            record.setField("amounts", i % 5 == 0 ? null : numbers(i % 6, n -> n == 2 ? null : BigDecimal.valueOf(i * 7L - n * 1000, 2)));
            record.setField("days", numbers(i % 2 + 1, n -> java.time.LocalDate.of(2026, 1, 1).plusDays(i + n)));
            record.setField("times", i % 3 == 0 ? null : List.of(LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(i * 61L)));
            record.setField("flags", numbers(i % 3, n -> n == 0 ? null : (i + n) % 2 == 0));
            records.add(record);
        }
        IcebergApiWriter writer = new IcebergApiWriter(table);
        DataFile file = writer.dataFile(records);
        table.newAppend().appendFile(file).commit();
        TableHandle handle = connector.metadata().getTable("db", "lists").orElseThrow();
        assertThat(handle.columns().findField("ints").getChildren().get(0).getType()).isEqualTo(new ArrowType.Int(32, true));
        assertThat(handle.columns().findField("longs").isNullable()).isFalse();
        assertThat(handle.columns().findField("longs").getChildren().get(0).isNullable()).isFalse();

        List<String> columns = List.of("id", "ints", "names", "longs", "amounts", "days", "times", "flags");
        List<List<Object>> expected = sorted(IcebergTesting.icebergRows(table, columns));
        assertThat(expected.get(11).get(1)).isNull();
        assertThat(expected.get(7).get(1)).isEqualTo(List.of());
        assertThat(sorted(IcebergTesting.read(connector, handle, new ScanSpec(columns, List.of()), allocator))).isEqualTo(expected);
        // one list alone, a list and a scalar in another order
        assertThat(sorted(IcebergTesting.read(connector, handle, new ScanSpec(List.of("id", "names"), List.of()), allocator)))
                .isEqualTo(expected.stream().map(row -> Arrays.asList(row.get(0), row.get(2))).toList());

        // rows deleted by position: the lists of the rows kept stay whole
        long[] deleted = {0, 1, 2, 699, 700, 1_500, 2_999};
        table.newRowDelta().addDeletes(writer.positionDeletes(file, deleted)).commit();
        TableHandle afterDeletes = connector.metadata().getTable("db", "lists").orElseThrow();
        List<List<Object>> kept = expected.stream().filter(row -> Arrays.stream(deleted).noneMatch(id -> id == (Long) row.get(0))).toList();
        assertThat(sorted(IcebergTesting.read(connector, afterDeletes, new ScanSpec(columns, List.of()), allocator))).hasSize(2_993).isEqualTo(kept);
        assertThat(sorted(IcebergTesting.icebergRows(table, columns))).isEqualTo(kept);
    }

    private static <T> List<T> numbers(int count, java.util.function.IntFunction<T> element)
    {
        List<T> values = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            values.add(element.apply(n));
        }
        return values;
    }

    private static Record event(long id, String category, LocalDateTime ts, BigDecimal amount)
    {
        Record record = GenericRecord.create(EVENTS);
        record.setField("id", id);
        record.setField("category", category);
        record.setField("ts", ts);
        record.setField("amount", amount);
        return record;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        return rows.stream().sorted(Comparator.comparing(row -> (Long) row.get(0))).toList();
    }
}
