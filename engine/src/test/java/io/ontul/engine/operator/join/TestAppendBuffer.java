package io.ontul.engine.operator.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
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

import io.ontul.engine.operator.Batches;

/** Rows appended to a partition's buffer, written out, and appended again into the same buffers. */
class TestAppendBuffer
{
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("k", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("d", FieldType.nullable(new ArrowType.Decimal(15, 2, 128)), null),
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
    void rowsComeOutInTheOrderAppendedWithTheirNulls()
    {
        // batches with and without NULLs, appended in pieces that start inside a validity byte
        try (VectorSchemaRoot withNulls = batch(0, 3000, true);
                VectorSchemaRoot withoutNulls = batch(3000, 3000, false);
                AppendBuffer buffer = new AppendBuffer(SCHEMA, allocator, 1024)) {
            List<Integer> expected = new ArrayList<>();
            int[] pieces = {3, 13, 1, 250, 7, 64, 9};
            int next = 0;
            int round = 0;
            while (buffer.room() > 0) {
                VectorSchemaRoot source = round % 2 == 0 ? withNulls : withoutNulls;
                int count = Math.min(pieces[round % pieces.length], buffer.room());
                // every third row of the source from a moving start: rows not in order, as a partition gets them
                int[] rows = new int[count];
                for (int i = 0; i < count; i++) {
                    rows[i] = (next + 3 * i) % 3000;
                    expected.add((round % 2 == 0 ? 0 : 3000) + rows[i]);
                }
                buffer.append(source, Batches.hasNulls(source), rows, 0, count);
                next += 7;
                round++;
            }
            assertThat(buffer.rows()).isEqualTo(buffer.capacity());
            assertRows(buffer.batch(), expected, 3000);
            assertThatThrownBy(() -> buffer.append(withNulls, Batches.hasNulls(withNulls), new int[] {0}, 0, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("room for 0");
        }
    }

    @Test
    void clearedBufferIsFilledAgainInTheSameMemory()
    {
        try (VectorSchemaRoot withNulls = batch(0, 2000, true);
                VectorSchemaRoot withoutNulls = batch(2000, 2000, false);
                BufferAllocator memory = allocator.newChildAllocator("buffer", 0, Long.MAX_VALUE);
                AppendBuffer buffer = new AppendBuffer(SCHEMA, memory, 512)) {
            assertThat(buffer.allocatedBytes()).as("nothing allocated before the first rows").isZero();
            assertThat(memory.getAllocatedMemory()).isZero();
            buffer.append(withNulls, Batches.hasNulls(withNulls), sequence(0, 500), 0, 500);
            // Arrow rounds each column's buffers up to a power of two: the buffer takes the rows that fit
            assertThat(buffer.capacity()).isGreaterThanOrEqualTo(512);
            long allocated = buffer.allocatedBytes();
            long accounted = memory.getAllocatedMemory();
            assertThat(allocated).isPositive().isLessThanOrEqualTo(accounted);
            buffer.clear();
            assertThat(buffer.rows()).isZero();
            assertThat(buffer.batch().getRowCount()).isZero();
            // still held, so still counted against the partitioner's budget
            assertThat(buffer.allocatedBytes()).as("allocated bytes of the emptied buffer").isEqualTo(allocated);
            assertThat(memory.getAllocatedMemory()).isEqualTo(accounted);
            // rows without NULLs where rows with NULLs were: every bit and offset written again
            buffer.append(withoutNulls, Batches.hasNulls(withoutNulls), sequence(0, 300), 0, 300);
            buffer.append(withNulls, Batches.hasNulls(withNulls), sequence(1000, 200), 0, 200);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                expected.add(2000 + i);
            }
            for (int i = 0; i < 200; i++) {
                expected.add(1000 + i);
            }
            assertRows(buffer.batch(), expected, 2000);
            assertThat(buffer.allocatedBytes()).as("no column allocated anew").isEqualTo(allocated);
            assertThat(memory.getAllocatedMemory()).isEqualTo(accounted);
        }
    }

    @Test
    void columnsOfOtherKindsAreAllocatedAnewAfterAClear()
    {
        Schema schema = new Schema(List.of(new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
                List.of(new Field("$data$", FieldType.nullable(new ArrowType.Int(64, true)), null)))));
        try (ListVector lists = ListVector.empty("l", allocator);
                AppendBuffer buffer = new AppendBuffer(schema, allocator, 64)) {
            UnionListWriter writer = lists.getWriter();
            for (int i = 0; i < 10; i++) {
                writer.setPosition(i);
                writer.startList();
                for (int j = 0; j <= i; j++) {
                    writer.bigInt().writeBigInt(i * 100L + j);
                }
                writer.endList();
            }
            lists.setValueCount(10);
            VectorSchemaRoot source = new VectorSchemaRoot(List.<FieldVector>of(lists));
            source.setRowCount(10);
            buffer.append(source, new boolean[] {false}, sequence(0, 10), 0, 10);
            buffer.clear();
            assertThat(buffer.allocatedBytes()).isZero();
            // from the middle of the row list: rows 9, 2 and 5
            buffer.append(source, new boolean[] {false}, new int[] {0, 9, 2, 5}, 1, 3);
            ListVector appended = (ListVector) buffer.batch().getVector(0);
            assertThat(buffer.batch().getRowCount()).isEqualTo(3);
            assertThat(List.copyOf(appended.getObject(0))).isEqualTo(List.of(900L, 901L, 902L, 903L, 904L, 905L, 906L, 907L, 908L, 909L));
            assertThat(List.copyOf(appended.getObject(1))).isEqualTo(List.of(200L, 201L, 202L));
            assertThat(List.copyOf(appended.getObject(2))).isEqualTo(List.of(500L, 501L, 502L, 503L, 504L, 505L));
        }
    }

    private static int[] sequence(int first, int count)
    {
        int[] rows = new int[count];
        for (int i = 0; i < count; i++) {
            rows[i] = first + i;
        }
        return rows;
    }

    /**
     * Rows first .. first + count - 1: key i, decimal i / 100, string "row-i"; with NULLs, the key
     * is NULL every 7th row, the decimal every 3rd and the string every 5th.
     */
    private VectorSchemaRoot batch(int first, int count, boolean nulls)
    {
        BigIntVector keys = new BigIntVector("k", allocator);
        DecimalVector decimals = new DecimalVector("d", allocator, 15, 2);
        VarCharVector strings = new VarCharVector("s", allocator);
        keys.allocateNew(count);
        decimals.allocateNew(count);
        strings.allocateNew(count);
        for (int i = 0; i < count; i++) {
            int row = first + i;
            if (nulls && row % 7 == 0) {
                keys.setNull(i);
            }
            else {
                keys.set(i, row);
            }
            if (nulls && row % 3 == 0) {
                decimals.setNull(i);
            }
            else {
                decimals.set(i, row);
            }
            if (nulls && row % 5 == 0) {
                strings.setNull(i);
            }
            else {
                strings.setSafe(i, ("row-" + row).getBytes(StandardCharsets.UTF_8));
            }
        }
        keys.setValueCount(count);
        decimals.setValueCount(count);
        strings.setValueCount(count);
        return new VectorSchemaRoot(SCHEMA.getFields(), List.<FieldVector>of(keys, decimals, strings), count);
    }

    /** The batch holds the rows {@link #batch} makes with the given numbers, in order; those below {@code withoutNulls} were made with NULLs. */
    private static void assertRows(VectorSchemaRoot batch, List<Integer> expected, int withoutNulls)
    {
        assertThat(batch.getRowCount()).isEqualTo(expected.size());
        BigIntVector keys = (BigIntVector) batch.getVector(0);
        DecimalVector decimals = (DecimalVector) batch.getVector(1);
        VarCharVector strings = (VarCharVector) batch.getVector(2);
        for (int i = 0; i < expected.size(); i++) {
            int row = expected.get(i);
            boolean nulls = row < withoutNulls;
            assertThat(keys.isNull(i)).as("key of %d at %d null", row, i).isEqualTo(nulls && row % 7 == 0);
            if (!keys.isNull(i)) {
                assertThat(keys.get(i)).as("key at %d", i).isEqualTo(row);
            }
            assertThat(decimals.isNull(i)).as("decimal of %d at %d null", row, i).isEqualTo(nulls && row % 3 == 0);
            if (!decimals.isNull(i)) {
                assertThat(decimals.getObject(i).unscaledValue().longValue()).as("decimal at %d", i).isEqualTo(row);
            }
            assertThat(strings.isNull(i)).as("string of %d at %d null", row, i).isEqualTo(nulls && row % 5 == 0);
            if (!strings.isNull(i)) {
                assertThat(new String(strings.get(i), StandardCharsets.UTF_8)).as("string at %d", i).isEqualTo("row-" + row);
            }
        }
    }
}
