package io.ontul.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.VectorAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.operator.scan.ScanOperator;

/** Concatenating batches, appending them to a batch allocated for all their rows, and compacting a sparse one. */
class TestBatches
{
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("k", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown()
    {
        // fails on any buffer left
        allocator.close();
    }

    @Test
    void scansAskForSmallerBatchesUnderASmallMemoryLimit()
    {
        // a BIGINT (8 bytes and a validity byte) and a VARCHAR (offset, 24 bytes counted, validity byte)
        assertThat(Batches.estimatedRowBytes(SCHEMA)).isEqualTo(9 + 29);
        // sources keep their own batch size, smaller than this
        assertThat(ScanOperator.maxBatchRows(2L << 30, SCHEMA)).isEqualTo((int) ((2L << 30) / 64 / 38));
        assertThat(ScanOperator.maxBatchRows(16L << 20, SCHEMA)).isEqualTo((16 << 20) / 64 / 38);
        assertThat(ScanOperator.maxBatchRows(1L << 20, SCHEMA)).isEqualTo(ScanOperator.MIN_BATCH_ROWS);
    }

    @Test
    void concatKeepsEveryRowInOrder()
    {
        List<VectorSchemaRoot> batches = List.of(batch(0, 700), batch(700, 0), batch(700, 1300), batch(2000, 5));
        try (VectorSchemaRoot combined = Batches.concat(SCHEMA, batches, allocator)) {
            assertRows(combined, 0, 2005);
        }
        // the batches are still the caller's, whole
        assertRows(batches.get(2), 700, 1300);
        Batches.closeAll(batches);
    }

    @Test
    void concatReleasingEmptiesTheBatches()
    {
        List<VectorSchemaRoot> batches = List.of(batch(0, 500), batch(500, 600));
        try (VectorSchemaRoot combined = Batches.concatReleasing(SCHEMA, batches, allocator)) {
            assertRows(combined, 0, 1100);
            long held = allocator.getAllocatedMemory();
            assertThat(Batches.allocatedBytes(List.of(combined))).isEqualTo(held);
        }
        Batches.closeAll(batches);
    }

    @Test
    void appendingToABatchAllocatedForAllRowsNeverReallocates()
    {
        List<VectorSchemaRoot> batches = List.of(batch(0, 1000), batch(1000, 3000), batch(4000, 1));
        long[] valueBytes = new long[2];
        batches.forEach(batch -> Batches.addValueBytes(batch, valueBytes));
        assertThat(valueBytes[0]).isZero();
        assertThat(valueBytes[1]).isPositive();
        Optional<VectorSchemaRoot> allocated = Batches.allocateForAppending(SCHEMA, 4001, valueBytes, allocator);
        assertThat(allocated).isPresent();
        try (VectorSchemaRoot whole = allocated.get()) {
            long allocatedBytes = Batches.allocatedBytes(List.of(whole));
            List<Long> capacities = capacities(whole);
            for (VectorSchemaRoot batch : batches) {
                for (int c = 0; c < SCHEMA.getFields().size(); c++) {
                    batch.getVector(c).accept(new VectorAppender(whole.getVector(c)), null);
                }
            }
            whole.setRowCount(4001);
            assertRows(whole, 0, 4001);
            assertThat(capacities(whole)).as("buffer capacities").isEqualTo(capacities);
            assertThat(Batches.allocatedBytes(List.of(whole))).isEqualTo(allocatedBytes);
        }
        Batches.closeAll(batches);
    }

    /** Rows first .. first + count - 1: key i (NULL every 7th), string "row-i" (NULL every 5th, empty every 11th). */
    private VectorSchemaRoot batch(int first, int count)
    {
        BigIntVector keys = new BigIntVector("k", allocator);
        VarCharVector strings = new VarCharVector("s", allocator);
        keys.allocateNew(Math.max(count, 1));
        strings.allocateNew(Math.max(count, 1));
        for (int i = 0; i < count; i++) {
            int row = first + i;
            if (row % 7 == 0) {
                keys.setNull(i);
            }
            else {
                keys.set(i, row);
            }
            if (row % 5 == 0) {
                strings.setNull(i);
            }
            else {
                strings.setSafe(i, (row % 11 == 0 ? "" : "row-" + row).getBytes(StandardCharsets.UTF_8));
            }
        }
        keys.setValueCount(count);
        strings.setValueCount(count);
        return new VectorSchemaRoot(SCHEMA.getFields(), List.<FieldVector>of(keys, strings), count);
    }

    private static void assertRows(VectorSchemaRoot batch, int first, int count)
    {
        assertThat(batch.getRowCount()).isEqualTo(count);
        BigIntVector keys = (BigIntVector) batch.getVector(0);
        VarCharVector strings = (VarCharVector) batch.getVector(1);
        for (int i = 0; i < count; i++) {
            int row = first + i;
            assertThat(keys.isNull(i)).as("key %d null", row).isEqualTo(row % 7 == 0);
            if (row % 7 != 0) {
                assertThat(keys.get(i)).isEqualTo(row);
            }
            assertThat(strings.isNull(i)).as("string %d null", row).isEqualTo(row % 5 == 0);
            if (row % 5 != 0) {
                assertThat(new String(strings.get(i), StandardCharsets.UTF_8)).isEqualTo(row % 11 == 0 ? "" : "row-" + row);
            }
        }
    }

    private static List<Long> capacities(VectorSchemaRoot batch)
    {
        List<Long> capacities = new ArrayList<>();
        for (FieldVector vector : batch.getFieldVectors()) {
            for (var buffer : vector.getFieldBuffers()) {
                capacities.add(buffer.capacity());
            }
        }
        return capacities;
    }
}
