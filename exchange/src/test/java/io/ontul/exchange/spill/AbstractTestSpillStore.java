package io.ontul.exchange.spill;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.exchange.arrow.BatchEncoding;
import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The contract every spill store configuration keeps: runs read back exactly as written, in
 * order; a query's files disappear when its space closes; the space limit fails the query that
 * hits it; a new store sweeps what an earlier process left. Subclasses choose the exchange
 * stream settings.
 */
public abstract class AbstractTestSpillStore
{
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("comment", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

    @TempDir
    Path temporary;

    private BufferAllocator allocator;

    protected abstract ExchangeStreamFactory streams(Path keyDirectory)
            throws IOException;

    @BeforeEach
    void createAllocator()
    {
        allocator = new RootAllocator();
    }

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    private SpillStore store(long maxBytes)
            throws IOException
    {
        return SpillStore.open(temporary.resolve("spill"), streams(temporary.resolve("kms")), maxBytes);
    }

    @Test
    public void runsReadBackInOrder()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        try (SpillSpace space = store.forQuery("q1")) {
            SpillRun first = writeRun(space, 0, 3, 5000);
            SpillRun second = writeRun(space, 100_000, 2, 7);
            assertThat(first.rows()).isEqualTo(15_000);
            assertThat(second.rows()).isEqualTo(14);
            assertThat(readIds(first)).isEqualTo(expectedIds(0, 3, 5000));
            assertThat(readIds(second)).isEqualTo(expectedIds(100_000, 2, 7));
            // read twice: runs stay readable until deleted
            assertThat(readIds(first)).hasSize(15_000);
            assertThat(space.files()).isEqualTo(2);
            assertThat(space.spilledRows()).isEqualTo(15_014);
            assertThat(store.usedBytes()).isEqualTo(first.bytes() + second.bytes()).isPositive();

            first.delete();
            assertThat(store.usedBytes()).isEqualTo(second.bytes());
            assertThatThrownBy(() -> first.open(allocator)).hasMessageContaining("deleted");
        }
        assertThat(store.usedBytes()).isZero();
        assertThat(Files.exists(temporary.resolve("spill/q1"))).isFalse();
    }

    @Test
    public void nullsAndEmptyBatchesRoundTrip()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        try (SpillSpace space = store.forQuery("q2")) {
            SpillRun run;
            try (SpillRunWriter writer = space.newRun(SCHEMA)) {
                try (VectorSchemaRoot empty = batch(0, 0)) {
                    writer.write(empty);
                }
                try (VectorSchemaRoot withNulls = VectorSchemaRoot.create(SCHEMA, allocator)) {
                    withNulls.allocateNew();
                    ((BigIntVector) withNulls.getVector(0)).setNull(0);
                    ((VarCharVector) withNulls.getVector(1)).setSafe(0, "x".getBytes(UTF_8));
                    ((BigIntVector) withNulls.getVector(0)).set(1, 42);
                    ((VarCharVector) withNulls.getVector(1)).setNull(1);
                    withNulls.setRowCount(2);
                    writer.write(withNulls);
                }
                run = writer.finish();
            }
            try (SpillRunReader reader = run.open(allocator)) {
                List<String> rows = new ArrayList<>();
                for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
                    try (VectorSchemaRoot batch = next) {
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            rows.add(batch.getVector(0).getObject(row) + "|" + batch.getVector(1).getObject(row));
                        }
                    }
                }
                assertThat(rows).containsExactly("null|x", "42|null");
            }
        }
    }

    @Test
    public void flatRunsArePackedAndNestedOnesWrittenAsArrowIpc()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        try (SpillSpace space = store.forQuery("q-nested")) {
            SpillRun flat = writeRun(space, 0, 2, 100);
            assertThat(flat.encoding()).isEqualTo(BatchEncoding.PACKED);
            assertThat(readIds(flat)).isEqualTo(expectedIds(0, 2, 100));

            Field items = new Field("items", FieldType.nullable(ArrowType.List.INSTANCE), List.of(new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), null)));
            Schema nested = new Schema(List.of(SCHEMA.getFields().get(0), items));
            SpillRun run;
            try (SpillRunWriter writer = space.newRun(nested);
                    VectorSchemaRoot batch = VectorSchemaRoot.create(nested, allocator)) {
                BigIntVector id = (BigIntVector) batch.getVector(0);
                UnionListWriter list = ((ListVector) batch.getVector(1)).getWriter();
                for (int row = 0; row < 3; row++) {
                    id.setSafe(row, row);
                    list.setPosition(row);
                    list.startList();
                    for (int item = 0; item < row; item++) {
                        list.bigInt().writeBigInt(10L * row + item);
                    }
                    list.endList();
                }
                batch.setRowCount(3);
                writer.write(batch);
                run = writer.finish();
            }
            assertThat(run.encoding()).isEqualTo(BatchEncoding.ARROW_IPC);
            List<String> rows = new ArrayList<>();
            try (SpillRunReader reader = run.open(allocator)) {
                for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
                    try (VectorSchemaRoot batch = next) {
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            rows.add(batch.getVector(0).getObject(row) + "|" + batch.getVector(1).getObject(row));
                        }
                    }
                }
            }
            assertThat(rows).containsExactly("0|[]", "1|[10]", "2|[20,21]");
        }
    }

    @Test
    public void spaceLimitFailsTheQueryThatHitsIt()
            throws IOException
    {
        SpillStore store = store(64 * 1024);
        try (SpillSpace space = store.forQuery("q3")) {
            SpillRunWriter writer = space.newRun(SCHEMA);
            assertThatThrownBy(() -> {
                for (int i = 0; i < 100; i++) {
                    try (VectorSchemaRoot batch = batch(i * 10_000L, 10_000)) {
                        writer.write(batch);
                    }
                }
                writer.finish();
            })
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_SPILL_LIMIT))
                    .hasMessageContaining("q3")
                    .hasMessageContaining(SpillStore.MAX_BYTES);
            writer.close();
            assertThat(store.usedBytes()).isZero();
            try (Stream<Path> files = Files.list(space.directory())) {
                assertThat(files).isEmpty();
            }
            // the store still serves other queries
            try (SpillSpace other = store.forQuery("q4")) {
                assertThat(readIds(writeRun(other, 0, 1, 10))).hasSize(10);
            }
        }
        assertThat(store.usedBytes()).isZero();
    }

    @Test
    public void unfinishedRunsAreDeletedWithTheirSpace()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        SpillSpace space = store.forQuery("q5");
        SpillRunWriter writer = space.newRun(SCHEMA);
        try (VectorSchemaRoot batch = batch(0, 1000)) {
            writer.write(batch);
        }
        writeRun(space, 0, 1, 100);
        space.close();
        assertThat(Files.exists(space.directory())).isFalse();
        assertThat(store.usedBytes()).isZero();
        assertThatThrownBy(() -> space.newRun(SCHEMA)).hasMessageContaining("closed");
    }

    @Test
    public void runsDroppedAfterTheirSpaceClosedRefundNothingTwice()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        SpillSpace space = store.forQuery("q6");
        SpillRun run = writeRun(space, 0, 1, 100);
        SpillRunWriter unfinished = space.newRun(SCHEMA);
        try (VectorSchemaRoot batch = batch(0, 100)) {
            unfinished.write(batch);
        }
        try (SpillSpace other = store.forQuery("q7")) {
            SpillRun kept = writeRun(other, 0, 1, 100);
            space.close();
            run.delete();
            run.delete();
            unfinished.close();
            assertThat(store.usedBytes()).isEqualTo(kept.bytes());
        }
        assertThat(store.usedBytes()).isZero();
    }

    @Test
    public void runsShareAFileAndItGoesWithTheLastOfThem()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        try (SpillSpace space = store.forQuery("q8")) {
            SpillRun first;
            SpillRun empty;
            SpillRun third;
            try (SpillRunFile file = space.newRunFile()) {
                first = writeRun(file, 0, 2, 3000);
                empty = writeRun(file, 0, 0, 0);
                third = writeRun(file, 50_000, 3, 11);
            }
            assertThat(space.files()).isEqualTo(1);
            assertThat(filesIn(space)).hasSize(1);
            assertThat(store.usedBytes()).isEqualTo(first.bytes() + empty.bytes() + third.bytes());
            // each run reads on its own, in any order, any number of times
            assertThat(readIds(third)).isEqualTo(expectedIds(50_000, 3, 11));
            assertThat(readIds(empty)).isEmpty();
            assertThat(readIds(first)).isEqualTo(expectedIds(0, 2, 3000));
            assertThat(readIds(third)).hasSize(33);

            empty.delete();
            first.delete();
            assertThat(filesIn(space)).hasSize(1);
            assertThat(readIds(third)).hasSize(33);
            // their bytes are still on disk, in the file, until its last run goes
            assertThat(store.usedBytes()).isEqualTo(first.bytes() + empty.bytes() + third.bytes());
            third.delete();
            assertThat(filesIn(space)).isEmpty();
            assertThat(store.usedBytes()).isZero();
        }
    }

    @Test
    public void damageToOneRunOfASharedFileNamesItsPlace()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        try (SpillSpace space = store.forQuery("q9")) {
            SpillRun first;
            SpillRun second;
            try (SpillRunFile file = space.newRunFile()) {
                first = writeRun(file, 0, 1, 500);
                second = writeRun(file, 1000, 1, 500);
            }
            Path path = filesIn(space).get(0);
            byte[] bytes = Files.readAllBytes(path);
            int inSecond = (int) (first.bytes() + second.bytes() / 2);
            bytes[inSecond] ^= 0x5A;
            Files.write(path, bytes);
            assertThat(readIds(first)).hasSize(500);
            assertThatThrownBy(() -> readIds(second)).hasMessageContaining(path + "@" + first.bytes());
        }
    }

    @Test
    public void aFailedRunEndsItsFileAndKeepsTheRunsBefore()
            throws IOException
    {
        SpillStore store = store(64 * 1024);
        try (SpillSpace space = store.forQuery("q10")) {
            SpillRunFile file = space.newRunFile();
            SpillRun kept = writeRun(file, 0, 1, 10);
            SpillRunWriter failing = file.newRun(SCHEMA);
            assertThatThrownBy(() -> {
                for (int i = 0; i < 100; i++) {
                    try (VectorSchemaRoot batch = batch(i * 10_000L, 10_000)) {
                        failing.write(batch);
                    }
                }
            }).isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_SPILL_LIMIT));
            failing.close();
            assertThatThrownBy(() -> file.newRun(SCHEMA)).hasMessageContaining("broken by a failed run");
            file.close();
            // the failed run's bytes stay on disk, in the file, until its kept run goes
            assertThat(store.usedBytes()).isGreaterThan(kept.bytes());
            assertThat(readIds(kept)).isEqualTo(expectedIds(0, 1, 10));
            kept.delete();
            assertThat(filesIn(space)).isEmpty();
            assertThat(store.usedBytes()).isZero();
        }
    }

    private static List<Path> filesIn(SpillSpace space)
            throws IOException
    {
        if (!Files.exists(space.directory())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(space.directory())) {
            return files.toList();
        }
    }

    @Test
    public void openingSweepsFilesOfAKilledProcess()
            throws IOException
    {
        Path left = temporary.resolve("spill/20261130_000000_00001/run-1.arrow");
        Files.createDirectories(left.getParent());
        Files.writeString(left, "left by a killed process");
        SpillStore store = store(1L << 30);
        assertThat(Files.exists(left.getParent())).isFalse();
        assertThat(Files.isDirectory(store.directory())).isTrue();
    }

    @Test
    public void queryIdsMustBeFileNames()
            throws IOException
    {
        SpillStore store = store(1L << 30);
        assertThatThrownBy(() -> store.forQuery("../etc")).hasMessageContaining("not a file name");
    }

    protected SpillRun writeRun(SpillSpace space, long firstId, int batches, int rowsPerBatch)
    {
        return writeRun(space.newRun(SCHEMA), firstId, batches, rowsPerBatch);
    }

    protected SpillRun writeRun(SpillRunFile file, long firstId, int batches, int rowsPerBatch)
    {
        return writeRun(file.newRun(SCHEMA), firstId, batches, rowsPerBatch);
    }

    private SpillRun writeRun(SpillRunWriter runWriter, long firstId, int batches, int rowsPerBatch)
    {
        try (SpillRunWriter writer = runWriter) {
            for (int b = 0; b < batches; b++) {
                try (VectorSchemaRoot batch = batch(firstId + (long) b * rowsPerBatch, rowsPerBatch)) {
                    writer.write(batch);
                }
            }
            return writer.finish();
        }
    }

    protected static String commentOf(long id)
    {
        return "comment-" + id + "-plaintext-marker";
    }

    protected List<Long> readIds(SpillRun run)
    {
        List<Long> ids = new ArrayList<>();
        try (SpillRunReader reader = run.open(allocator)) {
            for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
                try (VectorSchemaRoot batch = next) {
                    BigIntVector id = (BigIntVector) batch.getVector(0);
                    VarCharVector comment = (VarCharVector) batch.getVector(1);
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        assertThat(comment.getObject(row).toString()).isEqualTo(commentOf(id.get(row)));
                        ids.add(id.get(row));
                    }
                }
            }
        }
        return ids;
    }

    private static List<Long> expectedIds(long first, int batches, int rowsPerBatch)
    {
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < (long) batches * rowsPerBatch; i++) {
            ids.add(first + i);
        }
        return ids;
    }

    protected VectorSchemaRoot batch(long firstId, int rows)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        root.allocateNew();
        BigIntVector id = (BigIntVector) root.getVector(0);
        VarCharVector comment = (VarCharVector) root.getVector(1);
        for (int row = 0; row < rows; row++) {
            id.setSafe(row, firstId + row);
            comment.setSafe(row, commentOf(firstId + row).getBytes(UTF_8));
        }
        root.setRowCount(rows);
        return root;
    }

    protected Path temporary()
    {
        return temporary;
    }
}
