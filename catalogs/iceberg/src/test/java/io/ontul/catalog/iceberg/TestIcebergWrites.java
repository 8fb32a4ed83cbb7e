package io.ontul.catalog.iceberg;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.spi.BatchSink;
import io.ontul.spi.SinkWriter;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.TableHandle;

/**
 * Writes through the connector's sink, checked with Iceberg's own reader and on disk: every
 * supported type, partitioned tables, parallel appends, one snapshot per commit, and failed or
 * aborted writes that leave neither a snapshot nor a file behind.
 */
class TestIcebergWrites
{
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
        connector = IcebergTesting.hadoopConnector("lake", warehouse, allocator);
        connector.metadata().createSchema("db", Map.of());
    }

    @AfterEach
    void tearDown()
    {
        connector.close();
        allocator.close();
    }

    @Test
    void roundTripsEveryType()
    {
        org.apache.arrow.vector.types.pojo.Schema columns = new org.apache.arrow.vector.types.pojo.Schema(List.of(
                field("id", new ArrowType.Int(64, true), false),
                field("flag", ArrowType.Bool.INSTANCE, true),
                field("tiny", new ArrowType.Int(8, true), true),
                field("small", new ArrowType.Int(16, true), true),
                field("i", new ArrowType.Int(32, true), true),
                field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), true),
                field("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), true),
                field("price", new ArrowType.Decimal(10, 2, 128), true),
                field("big", new ArrowType.Decimal(38, 10, 128), true),
                field("s", ArrowType.Utf8.INSTANCE, true),
                field("day", new ArrowType.Date(DateUnit.DAY), true),
                field("t", new ArrowType.Time(TimeUnit.MILLISECOND, 32), true),
                field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), true),
                field("ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null), true),
                field("tstz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"), true)));
        TableHandle created = connector.metadata().createTable("db", "types", columns, Map.of());
        Table table = catalog.loadTable(TableIdentifier.of("db", "types"));
        assertThat(table.schema().asStruct()).isEqualTo(new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
                Types.NestedField.optional(3, "tiny", Types.IntegerType.get()),
                Types.NestedField.optional(4, "small", Types.IntegerType.get()),
                Types.NestedField.optional(5, "i", Types.IntegerType.get()),
                Types.NestedField.optional(6, "f", Types.FloatType.get()),
                Types.NestedField.optional(7, "d", Types.DoubleType.get()),
                Types.NestedField.optional(8, "price", Types.DecimalType.of(10, 2)),
                Types.NestedField.optional(9, "big", Types.DecimalType.of(38, 10)),
                Types.NestedField.optional(10, "s", Types.StringType.get()),
                Types.NestedField.optional(11, "day", Types.DateType.get()),
                Types.NestedField.optional(12, "t", Types.TimeType.get()),
                Types.NestedField.optional(13, "ts", Types.TimestampType.withoutZone()),
                Types.NestedField.optional(14, "ts_ms", Types.TimestampType.withoutZone()),
                Types.NestedField.optional(15, "tstz", Types.TimestampType.withZone())).asStruct());
        assertThat(formatVersion(table)).isEqualTo(2);
        assertThat(table.properties()).containsEntry("commit.retry.num-retries", "20");

        // the engine writes batches with the columns it created the table with
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(columns, allocator)) {
            batch.allocateNew();
            ((BigIntVector) batch.getVector("id")).setSafe(0, Long.MIN_VALUE);
            ((BitVector) batch.getVector("flag")).setSafe(0, 1);
            ((TinyIntVector) batch.getVector("tiny")).setSafe(0, -128);
            ((SmallIntVector) batch.getVector("small")).setSafe(0, 32_767);
            ((IntVector) batch.getVector("i")).setSafe(0, Integer.MIN_VALUE);
            ((Float4Vector) batch.getVector("f")).setSafe(0, 1.5f);
            ((Float8Vector) batch.getVector("d")).setSafe(0, -0.1);
            ((DecimalVector) batch.getVector("price")).setSafe(0, new BigDecimal("-12345678.90"));
            ((DecimalVector) batch.getVector("big")).setSafe(0, new BigDecimal("1234567890123456789012345678.0123456789"));
            ((VarCharVector) batch.getVector("s")).setSafe(0, "zwölf 😀".getBytes(UTF_8));
            ((DateDayVector) batch.getVector("day")).setSafe(0, (int) LocalDate.of(1969, 12, 31).toEpochDay());
            ((TimeMilliVector) batch.getVector("t")).setSafe(0, 86_399_999);
            ((TimeStampMicroVector) batch.getVector("ts")).setSafe(0, -1L);
            ((TimeStampMilliVector) batch.getVector("ts_ms")).setSafe(0, 1_767_225_600_123L);
            ((TimeStampMicroTZVector) batch.getVector("tstz")).setSafe(0, 1_767_225_600_123_456L);
            ((BigIntVector) batch.getVector("id")).setSafe(1, 2);
            for (int column = 1; column < columns.getFields().size(); column++) {
                batch.getVector(column).setNull(1);
            }
            batch.setRowCount(2);
            BatchSink sink = connector.createSink(created);
            sink.append(batch);
            assertThat(sink.commit()).isEqualTo(2);
        }

        List<Object> expected = List.of(Long.MIN_VALUE, true, -128L, 32_767L, (long) Integer.MIN_VALUE, 1.5, -0.1, new BigDecimal("-12345678.90"),
                new BigDecimal("1234567890123456789012345678.0123456789"), "zwölf 😀", LocalDate.of(1969, 12, 31), LocalTime.of(23, 59, 59, 999_000_000),
                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000), LocalDateTime.of(2026, 1, 1, 0, 0, 0, 123_000_000), java.time.Instant.parse("2026-01-01T00:00:00.123456Z"));
        List<Object> nulls = new ArrayList<>(Arrays.asList(new Object[15]));
        nulls.set(0, 2L);
        List<String> names = columns.getFields().stream().map(Field::getName).toList();

        TableHandle handle = connector.metadata().getTable("db", "types").orElseThrow();
        assertThat(handle.columns().getFields().get(2).getType()).isEqualTo(new ArrowType.Int(32, true));
        // timestamptz reads back as TIMESTAMP WITH TIME ZONE: the instant, held as UTC
        assertThat(handle.columns().getFields().get(14).getType()).isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
        List<List<Object>> read = IcebergTesting.read(connector, handle, new ScanSpec(names, List.of()), allocator);
        assertThat(sorted(read)).containsExactly(expected, nulls);
        List<List<Object>> readByIceberg = IcebergTesting.icebergRows(table, names);
        assertThat(sorted(readByIceberg)).containsExactly(expected, nulls);
    }

    @Test
    void writesPartitionedTablesFromSeveralThreadsInOneSnapshot()
            throws Exception
    {
        org.apache.arrow.vector.types.pojo.Schema columns = new org.apache.arrow.vector.types.pojo.Schema(List.of(
                field("id", new ArrowType.Int(64, true), false),
                field("name", ArrowType.Utf8.INSTANCE, true),
                field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), true),
                field("day", new ArrowType.Date(DateUnit.DAY), true)));
        TableHandle handle = connector.metadata().createTable("db", "parts", columns, Map.of(
                "partitioning", List.of("day(ts)", "bucket(3, id)", "truncate(2, name)", "year(day)"),
                "format-version", 1L,
                "write.parquet.compression-codec", "snappy"));
        Table table = catalog.loadTable(TableIdentifier.of("db", "parts"));
        assertThat(table.spec().fields()).extracting(field -> field.transform().toString()).containsExactly("day", "bucket[3]", "truncate[2]", "year");
        assertThat(formatVersion(table)).isEqualTo(1);
        assertThat(table.properties()).containsEntry("write.parquet.compression-codec", "snappy");

        int threads = 4;
        int rowsPerThread = 2_000;
        BatchSink sink = connector.createSink(handle);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<CompletableFuture<Void>> appends = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int first = thread * rowsPerThread;
                appends.add(CompletableFuture.runAsync(() -> {
                    for (int start = first; start < first + rowsPerThread; start += 500) {
                        try (VectorSchemaRoot batch = batch(columns, start, 500)) {
                            sink.append(batch);
                        }
                    }
                }, executor));
            }
            CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new)).get();
        }
        finally {
            executor.shutdown();
        }
        assertThat(sink.commit()).isEqualTo(threads * rowsPerThread);

        table.refresh();
        assertThat(table.snapshots()).hasSize(1);
        List<List<Object>> rows = IcebergTesting.icebergRows(table, List.of("id", "name", "ts", "day"));
        assertThat(sorted(rows)).isEqualTo(expectedRows(0, threads * rowsPerThread));
        try (CloseableIterable<FileScanTask> files = table.newScan().includeColumnStats().planFiles()) {
            for (FileScanTask file : files) {
                // each file is one partition: its bounds agree with its partition values
                assertThat(file.file().partition().size()).isEqualTo(4);
                assertThat(file.file().lowerBounds()).isNotEmpty();
                assertThat(file.file().valueCounts()).isNotEmpty();
            }
        }
        assertThat(sorted(IcebergTesting.read(connector, connector.metadata().getTable("db", "parts").orElseThrow(), new ScanSpec(List.of("id", "name", "ts", "day"), List.of()), allocator)))
                .isEqualTo(expectedRows(0, threads * rowsPerThread));
    }

    @Test
    void aVersionNamesTheSnapshotAnotherNodeReads()
    {
        TableHandle empty = createSimpleTable("versions", Map.of());
        assertThat(connector.version(empty)).contains(IcebergMetadata.NO_SNAPSHOT);
        assertThat(connector.readableOnEveryNode(empty)).isTrue();
        append(empty, 0, 100);
        TableHandle first = connector.metadata().getTable("db", "versions").orElseThrow();
        String version = connector.version(first).orElseThrow();
        assertThat(version).isEqualTo(Long.toString(catalog.loadTable(TableIdentifier.of("db", "versions")).currentSnapshot().snapshotId()));
        append(first, 100, 50);

        ScanSpec scan = new ScanSpec(List.of("id", "name", "ts", "day"), List.of());
        assertThat(IcebergTesting.read(connector, connector.metadata().getTable("db", "versions").orElseThrow(), scan, allocator)).hasSize(150);
        TableHandle pinned = connector.metadata().getTable("db", "versions", version).orElseThrow();
        assertThat(sorted(IcebergTesting.read(connector, pinned, scan, allocator))).isEqualTo(expectedRows(0, 100));
        assertThat(connector.version(pinned)).contains(version);
        assertThat(IcebergTesting.read(connector, connector.metadata().getTable("db", "versions", IcebergMetadata.NO_SNAPSHOT).orElseThrow(), scan, allocator)).isEmpty();
        assertThatThrownBy(() -> connector.metadata().getTable("db", "versions", "12345"))
                .hasMessage("Snapshot 12345 of table 'lake.db.versions', which the query reads, no longer exists (expired while the query ran?)");
        // metadata tables are read where they are planned
        assertThat(connector.readableOnEveryNode(connector.metadata().getTable("db", "versions$snapshots").orElseThrow())).isFalse();
    }

    @Test
    void remoteWritersCommitInTheSinksOneSnapshotAndAFailedWriteDeletesTheirFiles()
            throws IOException
    {
        TableHandle handle = createSimpleTable("remote", Map.of("write.target-file-size-bytes", 1L));
        Path location = IcebergTesting.localPath(catalog.loadTable(TableIdentifier.of("db", "remote")).location());
        BatchSink sink = connector.createSink(handle);
        byte[] remote = sink.remoteWriterHandle().orElseThrow();
        SinkWriter first = connector.openSinkWriter(remote, 1);
        SinkWriter second = connector.openSinkWriter(remote, 2);
        try (VectorSchemaRoot batch = batch(handle.columns(), 0, 3_000)) {
            sink.append(batch);
        }
        try (VectorSchemaRoot batch = batch(handle.columns(), 3_000, 3_000)) {
            first.append(batch);
        }
        try (VectorSchemaRoot batch = batch(handle.columns(), 6_000, 3_000)) {
            second.append(batch);
        }
        sink.addRemoteWrite(first.finish());
        sink.addRemoteWrite(second.finish());
        assertThat(sink.commit()).isEqualTo(9_000);
        Table table = catalog.loadTable(TableIdentifier.of("db", "remote"));
        assertThat(table.snapshots()).hasSize(1);
        assertThat(sorted(IcebergTesting.read(connector, connector.metadata().getTable("db", "remote").orElseThrow(), new ScanSpec(List.of("id", "name", "ts", "day"), List.of()), allocator)))
                .isEqualTo(expectedRows(0, 9_000));
        List<Path> committed = allFiles(location);

        // a failed write: one writer finished, one never did (its process died), one aborted
        BatchSink failing = connector.createSink(connector.metadata().getTable("db", "remote").orElseThrow());
        byte[] failingHandle = failing.remoteWriterHandle().orElseThrow();
        SinkWriter finished = connector.openSinkWriter(failingHandle, 1);
        SinkWriter died = connector.openSinkWriter(failingHandle, 2);
        SinkWriter aborted = connector.openSinkWriter(failingHandle, 3);
        for (SinkWriter writer : List.of(finished, died, aborted)) {
            try (VectorSchemaRoot batch = batch(handle.columns(), 10_000, 3_000)) {
                writer.append(batch);
            }
        }
        failing.addRemoteWrite(finished.finish());
        died.finish(); // files complete on disk, never reported
        aborted.abort();
        assertThat(allFiles(location)).hasSizeGreaterThan(committed.size());
        failing.abort();
        assertThat(allFiles(location)).isEqualTo(committed);
        assertThat(catalog.loadTable(TableIdentifier.of("db", "remote")).snapshots()).hasSize(1);
    }

    private void append(TableHandle handle, int first, int count)
    {
        BatchSink sink = connector.createSink(handle);
        try (VectorSchemaRoot batch = batch(handle.columns(), first, count)) {
            sink.append(batch);
        }
        sink.commit();
    }

    @Test
    void abortLeavesNoSnapshotAndNoFile()
            throws IOException
    {
        // files roll every 1,000 rows, so some are complete on disk before the abort
        TableHandle handle = createSimpleTable("aborted", Map.of("write.target-file-size-bytes", 1L));
        Path location = IcebergTesting.localPath(catalog.loadTable(TableIdentifier.of("db", "aborted")).location());
        List<Path> before = allFiles(location);
        BatchSink sink = connector.createSink(handle);
        try (VectorSchemaRoot batch = batch(handle.columns(), 0, 10_000)) {
            sink.append(batch);
        }
        try (VectorSchemaRoot batch = batch(handle.columns(), 10_000, 10_000)) {
            sink.append(batch);
        }
        // the writer threads complete files in the background
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (IcebergTesting.dataFiles(location).isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(IcebergTesting.dataFiles(location)).isNotEmpty();
        sink.abort();
        assertThat(allFiles(location)).isEqualTo(before);
        assertThat(catalog.loadTable(TableIdentifier.of("db", "aborted")).snapshots()).isEmpty();
    }

    @Test
    void failedCommitLeavesNoSnapshotAndNoFile()
            throws IOException
    {
        TableHandle handle = createSimpleTable("failing");
        Table table = catalog.loadTable(TableIdentifier.of("db", "failing"));
        Path location = IcebergTesting.localPath(table.location());
        List<Path> before = allFiles(location);
        BatchSink sink = connector.createSink(handle);
        try (VectorSchemaRoot batch = batch(handle.columns(), 0, 1_000)) {
            sink.append(batch);
        }
        // another writer left a broken next metadata version: the commit cannot succeed
        Path broken = location.resolve("metadata/v2.metadata.json");
        Files.writeString(broken, "{ not json");
        assertThatThrownBy(sink::commit)
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                .hasMessageContaining("Iceberg table 'lake.db.failing'");
        Files.delete(broken);
        assertThat(allFiles(location)).isEqualTo(before);
        table.refresh();
        assertThat(table.snapshots()).isEmpty();
        sink.abort();
    }

    @Test
    void concurrentStatementsBothCommit()
            throws Exception
    {
        TableHandle handle = createSimpleTable("contended");
        List<BatchSink> sinks = List.of(connector.createSink(handle), connector.createSink(connector.metadata().getTable("db", "contended").orElseThrow()));
        for (int i = 0; i < sinks.size(); i++) {
            try (VectorSchemaRoot batch = batch(handle.columns(), i * 100, 100)) {
                sinks.get(i).append(batch);
            }
        }
        List<CompletableFuture<Long>> commits = sinks.stream().map(sink -> CompletableFuture.supplyAsync(sink::commit)).toList();
        for (CompletableFuture<Long> commit : commits) {
            assertThat(commit.get()).isEqualTo(100);
        }
        Table table = catalog.loadTable(TableIdentifier.of("db", "contended"));
        assertThat(table.snapshots()).hasSize(2);
        assertThat(sorted(IcebergTesting.icebergRows(table, List.of("id", "name", "ts", "day")))).isEqualTo(expectedRows(0, 200));
    }

    @Test
    void writesUuidAndBinaryColumnsAndTablesWithColumnsOntulCannotRead()
    {
        Schema schema = new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "u", Types.UUIDType.get()),
                Types.NestedField.optional(3, "payload", Types.BinaryType.get()),
                Types.NestedField.optional(4, "code", Types.FixedType.ofLength(2)),
                Types.NestedField.optional(5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())));
        catalog.createTable(TableIdentifier.of("db", "uuids"), schema);
        TableHandle handle = connector.metadata().getTable("db", "uuids").orElseThrow();
        UUID uuid = UUID.randomUUID();
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(handle.columns(), allocator)) {
            ((BigIntVector) batch.getVector("id")).setSafe(0, 1);
            ((VarCharVector) batch.getVector("u")).setSafe(0, uuid.toString().getBytes(UTF_8));
            ((VarBinaryVector) batch.getVector("payload")).setSafe(0, new byte[] {0, (byte) 0xff});
            ((VarBinaryVector) batch.getVector("code")).setSafe(0, new byte[] {7, 8});
            batch.setRowCount(1);
            BatchSink sink = connector.createSink(handle);
            sink.append(batch);
            sink.commit();
        }
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(handle.columns(), allocator)) {
            ((BigIntVector) batch.getVector("id")).setSafe(0, 2);
            ((VarCharVector) batch.getVector("u")).setSafe(0, "not a uuid".getBytes(UTF_8));
            batch.setRowCount(1);
            BatchSink failing = connector.createSink(handle);
            // values are converted by the writer threads: the error comes with the append or the commit
            assertThatThrownBy(() -> {
                failing.append(batch);
                failing.commit();
            })
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_CAST))
                    .hasMessageContaining("Value 'not a uuid' for uuid column 'u' of table 'lake.db.uuids' is not a UUID");
            failing.abort();
        }
        Table table = catalog.loadTable(TableIdentifier.of("db", "uuids"));
        assertThat(IcebergTesting.icebergRows(table, List.of("id", "u", "payload", "code", "tags")))
                .containsExactly(Arrays.asList(1L, uuid.toString(), ByteBuffer.wrap(new byte[] {0, (byte) 0xff}), ByteBuffer.wrap(new byte[] {7, 8}), null));
        assertThat(table.snapshots()).hasSize(1);

        // a fixed[n] column takes values of n bytes only
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(handle.columns(), allocator)) {
            ((BigIntVector) batch.getVector("id")).setSafe(0, 3);
            ((VarBinaryVector) batch.getVector("code")).setSafe(0, new byte[] {1, 2, 3});
            batch.setRowCount(1);
            BatchSink failing = connector.createSink(handle);
            assertThatThrownBy(() -> {
                failing.append(batch);
                failing.commit();
            })
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageContaining("Value of 3 bytes for column 'code' of table 'lake.db.uuids', which is fixed[2]");
            failing.abort();
        }
        assertThat(catalog.loadTable(TableIdentifier.of("db", "uuids")).snapshots()).hasSize(1);

        // CREATE TABLE by Ontul: VARBINARY is binary, UUID is uuid
        org.apache.arrow.vector.types.pojo.Schema columns = new org.apache.arrow.vector.types.pojo.Schema(List.of(
                field("b", ArrowType.Binary.INSTANCE, true),
                new Field("u", new org.apache.arrow.vector.types.pojo.FieldType(true, ArrowType.Utf8.INSTANCE, null,
                        Map.of(TableHandle.TYPE_METADATA, TableHandle.UUID_TYPE)), null)));
        connector.metadata().createTable("db", "bytes", columns, Map.of());
        assertThat(catalog.loadTable(TableIdentifier.of("db", "bytes")).schema().asStruct()).isEqualTo(new Schema(
                Types.NestedField.optional(1, "b", Types.BinaryType.get()),
                Types.NestedField.optional(2, "u", Types.UUIDType.get())).asStruct());
    }

    @Test
    void rejectsBadTableDefinitions()
    {
        org.apache.arrow.vector.types.pojo.Schema columns = new org.apache.arrow.vector.types.pojo.Schema(List.of(field("x", new ArrowType.Int(64, true), true)));
        assertThatThrownBy(() -> connector.metadata().createTable("db", "t", columns, Map.of("partitioning", List.of("bucket(0, x)"))))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Invalid partitioning 'bucket(0, x)' for table 'lake.db.t': the width must be positive");
        assertThatThrownBy(() -> connector.metadata().createTable("db", "t", columns, Map.of("partitioning", List.of("day(nope)"))))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageStartingWith("Invalid partitioning 'day(nope)' for table 'lake.db.t': Cannot find source column: nope");
        assertThatThrownBy(() -> connector.metadata().createTable("db", "t", columns, Map.of("partitioning", List.of("frobnicate(x)"))))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("use a column name, year(c), month(c), day(c), hour(c), bucket(n, c) or truncate(n, c)");
        assertThatThrownBy(() -> connector.metadata().createTable("db", "t", columns, Map.of("format-version", 9L)))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Table 'lake.db.t': property 'format-version' is '9'; use 1, 2 or 3");
        assertThatThrownBy(() -> connector.metadata().createTable("db", "t", columns, Map.of("sorted_by", List.of("x"))))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("unknown property 'sorted_by'");
        assertThatThrownBy(() -> connector.metadata().createTable("db", "t$files", columns, Map.of()))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThatThrownBy(() -> connector.metadata().createTable("nope", "t", columns, Map.of()))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessage("Schema 'lake.nope' does not exist");
        assertThatThrownBy(() -> connector.metadata().dropTable("db", "nope"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessage("Table 'lake.db.nope' does not exist");
        assertThatThrownBy(() -> connector.metadata().createSchema("db", Map.of()))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS));
        assertThatThrownBy(() -> connector.metadata().dropSchema("nope"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThat(connector.metadata().getTable("nope", "t")).isEmpty();
        assertThat(connector.metadata().listTables("nope")).isEmpty();
        assertThat(connector.metadata().listTables("db")).isEmpty();
    }

    private TableHandle createSimpleTable(String name)
    {
        return createSimpleTable(name, Map.of());
    }

    private TableHandle createSimpleTable(String name, Map<String, Object> properties)
    {
        org.apache.arrow.vector.types.pojo.Schema columns = new org.apache.arrow.vector.types.pojo.Schema(List.of(
                field("id", new ArrowType.Int(64, true), false),
                field("name", ArrowType.Utf8.INSTANCE, true),
                field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), true),
                field("day", new ArrowType.Date(DateUnit.DAY), true)));
        return connector.metadata().createTable("db", name, columns, properties);
    }

    /** Rows {@code first .. first + count - 1} of the id/name/ts/day tables. */
    private VectorSchemaRoot batch(org.apache.arrow.vector.types.pojo.Schema columns, int first, int count)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(columns, allocator);
        for (int row = 0; row < count; row++) {
            List<Object> values = expectedRow(first + row);
            ((BigIntVector) batch.getVector(0)).setSafe(row, (Long) values.get(0));
            ((VarCharVector) batch.getVector(1)).setSafe(row, ((String) values.get(1)).getBytes(UTF_8));
            ((TimeStampMicroVector) batch.getVector(2)).setSafe(row, micros((LocalDateTime) values.get(2)));
            ((DateDayVector) batch.getVector(3)).setSafe(row, (int) ((LocalDate) values.get(3)).toEpochDay());
        }
        batch.setRowCount(count);
        return batch;
    }

    private static List<Object> expectedRow(int i)
    {
        return List.of((long) i, "name-" + (i % 13), LocalDateTime.of(2026, 1, 1, 0, 0).plusMinutes(i * 7L), LocalDate.of(2020, 1, 1).plusDays(i % 900));
    }

    private static List<List<Object>> expectedRows(int first, int count)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            rows.add(expectedRow(i));
        }
        return rows;
    }

    private static long micros(LocalDateTime timestamp)
    {
        return timestamp.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + timestamp.getNano() / 1_000;
    }

    private static Field field(String name, ArrowType type, boolean nullable)
    {
        return new Field(name, new FieldType(nullable, type, null), null);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        return rows.stream().sorted(Comparator.comparing(row -> (Long) row.get(0))).toList();
    }

    private static List<Path> allFiles(Path location)
            throws IOException
    {
        try (Stream<Path> files = Files.walk(location)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static int formatVersion(Table table)
    {
        return ((HasTableOperations) table).operations().current().formatVersion();
    }
}
