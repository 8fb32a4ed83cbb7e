package io.ontul.engine.operator.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.IntConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Columns;

/**
 * {@link RowSort} against a stable merge sort comparing rows with {@link RowComparator}: the
 * same permutation (both keep equal rows in input order), over keys of every kind, both
 * directions and both NULL placements.
 */
class TestRowSort
{
    private static final int STRING = 0;
    private static final int BIGINT = 1;
    private static final int DOUBLE = 2;
    private static final int DECIMAL = 3;
    private static final int DATE = 4;
    private static final int BOOLEAN = 5;
    private static final int INT = 6;
    private static final int SMALLINT = 7;
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("b", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("d", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
            new Field("n", FieldType.nullable(new ArrowType.Decimal(12, 2, 128)), null),
            new Field("t", FieldType.nullable(new ArrowType.Date(DateUnit.DAY)), null),
            new Field("f", FieldType.nullable(ArrowType.Bool.INSTANCE), null),
            new Field("i", FieldType.nullable(new ArrowType.Int(32, true)), null),
            new Field("h", FieldType.nullable(new ArrowType.Int(16, true)), null)));
    // shared beginnings (longer than one digit and than every digit together), bytes above 0x7F, trailing zero bytes
    private static final String LONG_PREFIX = "furiously regular packages above the carefully ironic deposits sleep quickly ";
    private static final String[] STRINGS = {"", "a", "ab", "ab\0", "ab\0\0", "abcdefgh", "abcdefgh\0", "abcdefghi", "abcdefgg", "Zebra", "zebra", "éclair",
            "\u00ff\u00ff", "carefully ", "carefully final", "carefully final requests", LONG_PREFIX, LONG_PREFIX + "a", LONG_PREFIX + "b", LONG_PREFIX + "ab\0"};
    private static final double[] DOUBLES = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -1.5, 1.5, -2.0, Double.MIN_VALUE, -Double.MAX_VALUE};
    private static final long[] LONGS = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1, Integer.MIN_VALUE, 1L << 40};

    private BufferAllocator allocator;
    private List<VectorSchemaRoot> batches;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
        Random random = new Random(20261130);
        batches = new ArrayList<>();
        for (int size : new int[] {1500, 0, 2600, 7, 900}) {
            batches.add(batch(random, size));
        }
    }

    @AfterEach
    void tearDown()
    {
        Batches.closeAll(batches);
        allocator.close();
    }

    @Test
    void everyKindInBothDirectionsAndNullPlacements()
    {
        for (int column : new int[] {STRING, BIGINT, DOUBLE, DECIMAL, DATE, BOOLEAN, INT, SMALLINT}) {
            for (boolean descending : new boolean[] {false, true}) {
                for (boolean nullsFirst : new boolean[] {false, true}) {
                    assertSortsAsComparator(List.of(new SortKey(column, descending, nullsFirst)));
                }
            }
        }
    }

    @Test
    void severalKeys()
    {
        assertSortsAsComparator(List.of(new SortKey(STRING, false, false), new SortKey(BIGINT, true, true)));
        assertSortsAsComparator(List.of(new SortKey(BOOLEAN, false, true), new SortKey(STRING, true, false), new SortKey(SMALLINT, false, false)));
        assertSortsAsComparator(List.of(new SortKey(DATE, true, false), new SortKey(DOUBLE, false, true), new SortKey(INT, true, false)));
        assertSortsAsComparator(List.of(new SortKey(SMALLINT, false, false), new SortKey(DECIMAL, true, true), new SortKey(STRING, false, true)));
    }

    @Test
    void stringsEqualBeyondTheirDigitsAreComparedWhole()
    {
        // every string starts with LONG_PREFIX: past MAX_STRING_DIGITS digits the rows are compared
        List<String> values = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 3000; i++) {
            values.add(LONG_PREFIX + LONG_PREFIX.substring(0, random.nextInt(LONG_PREFIX.length())) + STRINGS[random.nextInt(STRINGS.length)]);
        }
        assertThat(LONG_PREFIX.length()).isGreaterThan(RowSort.MAX_STRING_DIGITS * 8);
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator)) {
            batch.allocateNew();
            VarCharVector strings = (VarCharVector) batch.getVector(STRING);
            for (int i = 0; i < values.size(); i++) {
                strings.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
            }
            batch.setRowCount(values.size());
            List<VectorSchemaRoot> one = List.of(batch);
            int[] batchOf = new int[values.size()];
            int[] rowOf = new int[values.size()];
            for (int i = 0; i < rowOf.length; i++) {
                rowOf[i] = i;
            }
            List<SortKey> keys = List.of(new SortKey(STRING, true, false));
            int[] sorted = RowSort.sort(one, keys, batchOf, rowOf);
            assertThat(sorted).containsExactly(byComparator(one, keys, batchOf, rowOf));
            List<String> expected = new ArrayList<>(values);
            expected.sort((a, b) -> -compareUtf8(a, b));
            for (int i = 0; i < sorted.length; i++) {
                assertThat(values.get(sorted[i])).isEqualTo(expected.get(i));
            }
        }
    }

    @Test
    void keysOfMixedVectorsAreComparedRowByRow()
    {
        // one key read from vectors of different widths, or decimals of different scales: no digit serves them all
        Field integer = new Field("k", FieldType.nullable(new ArrowType.Int(32, true)), null);
        Field bigint = new Field("k", FieldType.nullable(new ArrowType.Int(64, true)), null);
        try (VectorSchemaRoot ints = VectorSchemaRoot.create(new Schema(List.of(integer)), allocator);
                VectorSchemaRoot longs = VectorSchemaRoot.create(new Schema(List.of(bigint)), allocator)) {
            ints.allocateNew();
            longs.allocateNew();
            for (int i = 0; i < 20; i++) {
                ((IntVector) ints.getVector(0)).setSafe(i, 10 - i);
                ((BigIntVector) longs.getVector(0)).setSafe(i, i % 2 == 0 ? (1L << 33) + i : i - 10);
            }
            ints.setRowCount(20);
            longs.setRowCount(20);
            assertAscending(List.of(ints, longs), (vector, row) -> BigDecimal.valueOf(Columns.getLong(vector, row)));
        }
        Field cents = new Field("k", FieldType.nullable(new ArrowType.Decimal(5, 2, 128)), null);
        Field tenths = new Field("k", FieldType.nullable(new ArrowType.Decimal(5, 1, 128)), null);
        try (VectorSchemaRoot first = VectorSchemaRoot.create(new Schema(List.of(cents)), allocator);
                VectorSchemaRoot second = VectorSchemaRoot.create(new Schema(List.of(tenths)), allocator)) {
            first.allocateNew();
            second.allocateNew();
            for (int i = 0; i < 20; i++) {
                ((DecimalVector) first.getVector(0)).setSafe(i, BigDecimal.valueOf(90 - 7 * i, 2));
                ((DecimalVector) second.getVector(0)).setSafe(i, BigDecimal.valueOf(i - 5, 1));
            }
            first.setRowCount(20);
            second.setRowCount(20);
            assertAscending(List.of(first, second), (vector, row) -> ((DecimalVector) vector).getObject(row));
        }
    }

    /** A single-key ascending sort of {@code batches} orders their values and agrees with the comparator. */
    private static void assertAscending(List<VectorSchemaRoot> batches, BiFunction<FieldVector, Integer, BigDecimal> value)
    {
        Addresses addresses = addresses(batches);
        List<SortKey> keys = List.of(new SortKey(0, false, false));
        int[] sorted = RowSort.sort(batches, keys, addresses.batchOf(), addresses.rowOf());
        assertThat(sorted).containsExactly(byComparator(batches, keys, addresses.batchOf(), addresses.rowOf()));
        List<BigDecimal> values = new ArrayList<>();
        for (int row : sorted) {
            values.add(value.apply(batches.get(addresses.batchOf()[row]).getVector(0), addresses.rowOf()[row]));
        }
        assertThat(values).isSortedAccordingTo(BigDecimal::compareTo).hasSize(40);
    }

    private record Addresses(int[] batchOf, int[] rowOf) {}

    private static Addresses addresses(List<VectorSchemaRoot> batches)
    {
        int total = batches.stream().mapToInt(VectorSchemaRoot::getRowCount).sum();
        int[] batchOf = new int[total];
        int[] rowOf = new int[total];
        int global = 0;
        for (int b = 0; b < batches.size(); b++) {
            for (int row = 0; row < batches.get(b).getRowCount(); row++, global++) {
                batchOf[global] = b;
                rowOf[global] = row;
            }
        }
        return new Addresses(batchOf, rowOf);
    }

    private static int compareUtf8(String a, String b)
    {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private void assertSortsAsComparator(List<SortKey> keys)
    {
        Addresses addresses = addresses(batches);
        int[] expected = byComparator(batches, keys, addresses.batchOf(), addresses.rowOf());
        assertThat(RowSort.sort(batches, keys, addresses.batchOf(), addresses.rowOf())).as("sorted by %s", keys).containsExactly(expected);
    }

    private static int[] byComparator(List<VectorSchemaRoot> batches, List<SortKey> keys, int[] batchOf, int[] rowOf)
    {
        int[] order = new int[batchOf.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        RowComparator comparator = RowComparator.overFixedBatches(batches, keys);
        SortOperator.mergeSort(order, new int[order.length], 0, order.length, (x, y) -> comparator.compare(batchOf[x], rowOf[x], batchOf[y], rowOf[y]));
        return order;
    }

    private VectorSchemaRoot batch(Random random, int rows)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator);
        batch.allocateNew();
        for (int row = 0; row < rows; row++) {
            set(batch.getVector(STRING), row, random, r -> {
                String value = STRINGS[random.nextInt(STRINGS.length)];
                if (random.nextInt(4) == 0) {
                    value += STRINGS[random.nextInt(STRINGS.length)];
                }
                ((VarCharVector) batch.getVector(STRING)).setSafe(r, value.getBytes(StandardCharsets.UTF_8));
            });
            set(batch.getVector(BIGINT), row, random, r -> ((BigIntVector) batch.getVector(BIGINT)).setSafe(r,
                    random.nextInt(3) == 0 ? LONGS[random.nextInt(LONGS.length)] : random.nextInt(200) - 100));
            set(batch.getVector(DOUBLE), row, random, r -> ((Float8Vector) batch.getVector(DOUBLE)).setSafe(r,
                    random.nextInt(2) == 0 ? DOUBLES[random.nextInt(DOUBLES.length)] : random.nextInt(50) / 4.0 - 6));
            set(batch.getVector(DECIMAL), row, random, r -> ((DecimalVector) batch.getVector(DECIMAL)).setSafe(r,
                    BigDecimal.valueOf(random.nextInt(20001) - 10000, 2)));
            set(batch.getVector(DATE), row, random, r -> ((DateDayVector) batch.getVector(DATE)).setSafe(r, random.nextInt(400) - 200));
            set(batch.getVector(BOOLEAN), row, random, r -> ((BitVector) batch.getVector(BOOLEAN)).setSafe(r, random.nextInt(2)));
            // never NULL: the sort skips the NULL digit
            ((IntVector) batch.getVector(INT)).setSafe(row, random.nextInt(30) - 15);
            set(batch.getVector(SMALLINT), row, random, r -> ((SmallIntVector) batch.getVector(SMALLINT)).setSafe(r, (short) (random.nextInt(7) - 3)));
        }
        batch.setRowCount(rows);
        return batch;
    }

    private static void set(FieldVector vector, int row, Random random, IntConsumer setter)
    {
        if (random.nextInt(10) == 0) {
            vector.setNull(row);
        }
        else {
            setter.accept(row);
        }
    }
}
