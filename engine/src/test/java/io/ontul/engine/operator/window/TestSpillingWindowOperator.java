package io.ontul.engine.operator.window;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.SqlKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.query.QueryContext;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.window.WindowGroup.Argument;
import io.ontul.engine.operator.window.WindowGroup.Bound;
import io.ontul.engine.operator.window.WindowGroup.BoundType;
import io.ontul.engine.operator.window.WindowGroup.Function;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.exchange.spill.SpillStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The window operator under a memory budget far below its input, driven directly so that the
 * budget can be small enough for hash partitions to be split again. Expected values come from a
 * plain computation over the generated rows.
 */
class TestSpillingWindowOperator
{
    private static final long BUDGET = 8L << 20;
    private static final int BATCH_ROWS = 8192;
    private static final Schema INPUT = new Schema(List.of(
            bigint("k"), bigint("v"), new Field("payload", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));
    private static final Schema OUTPUT = new Schema(List.of(
            bigint("k"), bigint("v"), new Field("payload", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null), bigint("row_number"), bigint("running_sum")));
    private static final Bound UNBOUNDED_PRECEDING = new Bound(BoundType.UNBOUNDED_PRECEDING, null);
    private static final Bound CURRENT_ROW = new Bound(BoundType.CURRENT_ROW, null);
    private static final Bound UNBOUNDED_FOLLOWING = new Bound(BoundType.UNBOUNDED_FOLLOWING, null);

    @TempDir
    Path directory;

    private BufferAllocator root;
    private ExecutorService executor;
    private SpillStore store;
    private QueryContext context;

    @BeforeEach
    void setUp()
            throws IOException
    {
        root = new RootAllocator();
        executor = Executors.newSingleThreadExecutor();
        ExchangeStreamFactory streams = ExchangeStreamFactory.create(EncryptionConfig.defaults(), directory.resolve("kms"), Optional.empty());
        store = SpillStore.open(directory.resolve("spill"), streams, 1L << 30);
        context = new QueryContext("window", root, BUDGET, executor, 1, new RexBuilder(new JavaTypeFactoryImpl()));
        context.enableSpill(store);
    }

    @AfterEach
    void tearDown()
    {
        context.close();
        assertThat(store.usedBytes()).as("spill bytes left").isZero();
        root.close();
        executor.shutdownNow();
    }

    @Test
    void splitsHashPartitionsThatDoNotFitAndComputesExactly()
    {
        int rows = 400_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = i % 5_000;
            values[i] = (i * 7_919L) % 1_000_003L;
        }
        Map<Long, long[]> expected = expected(keys, values);

        try (WindowOperator window = rowNumberAndRunningSum(new GeneratedRows(keys, values), new int[] {0})) {
            assertThat(drainAndCheck(window, expected)).isEqualTo(rows);
            // a row written at the first level and again when its hash partition was split
            assertThat(context.spillStatistics().rows()).isGreaterThan(rows);
        }
        assertThat(context.memoryUsed()).isZero();
    }

    @Test
    void oneWindowPartitionLargerThanMemoryIsSortedAndStreamed()
    {
        // k = 42 for all but every 1,000th row: one window partition of 299,700 rows
        long[] keys = new long[300_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i % 1_000 == 0 ? i : 42;
        }
        assertSortedAndStreamed(keys, new int[] {0});
    }

    @Test
    void withoutPartitionByIsSortedAndStreamed()
    {
        // one window partition: every k the same
        long[] keys = new long[400_000];
        Arrays.fill(keys, 7);
        assertSortedAndStreamed(keys, new int[0]);
    }

    /** Row numbers and running sums by (k if partitioned) over distinct scrambled values, streamed from a spilled sort, each checked. */
    private void assertSortedAndStreamed(long[] keys, int[] partitionColumns)
    {
        long[] values = new long[keys.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i * 7_919L) % 1_000_003L;
        }
        try (WindowOperator window = rowNumberAndRunningSum(new GeneratedRows(keys, values), partitionColumns)) {
            assertThat(drainAndCheck(window, expected(keys, values))).isEqualTo(keys.length);
            assertThat(context.spillStatistics().files()).isPositive();
        }
        assertThat(context.memoryUsed()).isZero();
    }

    /** Reads every row of the window and checks its row number and running sum; returns the rows read. */
    private static int drainAndCheck(WindowOperator window, Map<Long, long[]> expected)
    {
        return drain(window, (k, v, rowNumber, runningSum) -> assertThat(new long[] {rowNumber, runningSum})
                .as("row number and running sum of %s", k)
                .containsExactly(expected.get(k * 2_000_000L + v)));
    }

    @Test
    void wholePartitionSumOverAPartitionLargerThanMemoryWritesOutTheRowsItWaitsWith()
    {
        // k = 42 for all but every 1,000th row: one window partition of 299,700 rows (about 24 MB), each row waiting for the partition's end
        int rows = 300_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        Map<Long, Long> totals = new HashMap<>();
        for (int i = 0; i < rows; i++) {
            keys[i] = i % 1_000 == 0 ? i : 42;
            values[i] = (i * 7_919L) % 1_000_003L;
            totals.merge(keys[i], values[i], Long::sum);
        }
        Map<Long, long[]> places = expected(keys, values);
        Map<Long, Long> lastValue = new HashMap<>();
        try (WindowOperator window = wholePartitionSum(new GeneratedRows(keys, values), new int[] {0})) {
            int checked = drain(window, (k, v, first, second) -> {
                // within a window partition the rows come in ORDER BY v, written-out rows and rows in memory alike
                Long previous = lastValue.put(k, v);
                assertThat(previous == null || previous < v).as("%s after %s in partition %s", v, previous, k).isTrue();
                assertThat(first).as("row number of %s in %s", v, k).isEqualTo(places.get(k * 2_000_000L + v)[0]);
                assertThat(second).as("sum of partition %s", k).isEqualTo(totals.get(k));
            });
            assertThat(checked).isEqualTo(rows);
            assertThat(context.spillStatistics().files()).isPositive();
        }
        assertThat(context.memoryUsed()).isZero();
    }

    @Test
    void countAndSumOverAllRowsWithoutPartitionByOrOrderBy()
    {
        // OVER (): every row is in the one frame; the rows are streamed unsorted and written out while they wait for the end
        int rows = 400_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        long total = 0;
        for (int i = 0; i < rows; i++) {
            keys[i] = i;
            values[i] = (i * 7_919L) % 1_000_003L;
            total += values[i];
        }
        WindowGroup group = new WindowGroup(new int[0], List.of(), false, UNBOUNDED_PRECEDING, UNBOUNDED_FOLLOWING, List.of(
                new Function(SqlKind.COUNT, "COUNT", List.of()),
                new Function(SqlKind.SUM, "SUM", List.of(new Argument(1, null)))));
        long expectedTotal = total;
        boolean[] seen = new boolean[rows];
        try (WindowOperator window = new WindowOperator(context, new GeneratedRows(keys, values), OUTPUT, INPUT.getFields().size(), List.of(group))) {
            int checked = drain(window, (k, v, count, sum) -> {
                assertThat(seen[(int) (long) k]).as("row %s seen before", k).isFalse();
                seen[(int) (long) k] = true;
                assertThat(count).isEqualTo(rows);
                assertThat(sum).isEqualTo(expectedTotal);
            });
            assertThat(checked).isEqualTo(rows);
            assertThat(context.spillStatistics().files()).isPositive();
        }
        assertThat(context.memoryUsed()).isZero();
    }

    @Test
    void wholePartitionAggregateThatOutgrowsTheEstimateInMemoryStreamsInstead()
    {
        // rows held outside the query's memory (as a memory table's), so the operator never runs short while collecting; the
        // estimate for evaluating them in memory counts 16 bytes of result a row, but MAX over 60-byte strings takes more, and
        // the first output batch copies 32K rows: the evaluation runs out of memory before any row is out, and the rows are
        // sorted (here: not, there is no key) and streamed instead
        int rows = 60_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        String greatest = "";
        for (int i = 0; i < rows; i++) {
            keys[i] = i;
            values[i] = i;
            String payload = ("payload of row " + i + " ".repeat(60)).substring(0, 60);
            greatest = payload.compareTo(greatest) > 0 ? payload : greatest;
        }
        Schema output = new Schema(List.of(bigint("k"), bigint("v"), new Field("payload", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                new Field("greatest", FieldType.nullable(ArrowType.Utf8.INSTANCE), null), bigint("lines")));
        WindowGroup group = new WindowGroup(new int[0], List.of(), false, UNBOUNDED_PRECEDING, UNBOUNDED_FOLLOWING, List.of(
                new Function(SqlKind.MAX, "MAX", List.of(new Argument(2, null))),
                new Function(SqlKind.COUNT, "COUNT", List.of())));
        String expected = greatest;
        try (BufferAllocator outside = new RootAllocator();
                WindowOperator window = new WindowOperator(context, new GeneratedRows(keys, values, outside), output, INPUT.getFields().size(), List.of(group))) {
            int checked = 0;
            VectorSchemaRoot next;
            while ((next = window.next()) != null) {
                try (VectorSchemaRoot batch = next) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        assertThat(batch.getVector(3).getObject(row)).hasToString(expected);
                        assertThat(batch.getVector(4).getObject(row)).isEqualTo((long) rows);
                        checked++;
                    }
                }
            }
            // every row, with the values of the whole input: the in-memory evaluation could not emit its first batch (without
            // the fallback this fails with the query's memory limit); streamed, the rows held outside the query need no spill
            assertThat(checked).isEqualTo(rows);
        }
        assertThat(context.memoryUsed()).isZero();
    }

    @Test
    void closedWhileReadingBackWrittenOutRowsLeavesNothing()
    {
        // one window partition written out while it waits for its end; the window is closed after its first output batch
        int rows = 400_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = 7;
            values[i] = i;
        }
        try (WindowOperator window = wholePartitionSum(new GeneratedRows(keys, values), new int[] {0})) {
            VectorSchemaRoot first = window.next();
            assertThat(first).isNotNull();
            first.close();
            assertThat(context.spillStatistics().files()).isPositive();
        }
        assertThat(context.memoryUsed()).isZero();
        assertThat(store.usedBytes()).as("spill bytes held once the window is closed").isZero();
    }

    @Test
    void peerGroupsLargerThanMemory()
    {
        // ORDER BY k over three values: three peer groups of about 133,000 rows (11 MB each); RANK and the RANGE sum are one value per group
        int rows = 400_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        long[] counts = new long[3];
        long[] sums = new long[3];
        for (int i = 0; i < rows; i++) {
            keys[i] = (i * 31L) % 3;
            values[i] = (i * 7_919L) % 1_000_003L;
            counts[(int) keys[i]]++;
            sums[(int) keys[i]] += values[i];
        }
        WindowGroup group = new WindowGroup(new int[0], List.of(new SortKey(0, false, false)), false, UNBOUNDED_PRECEDING, CURRENT_ROW, List.of(
                new Function(SqlKind.RANK, "RANK", List.of()),
                new Function(SqlKind.SUM, "SUM", List.of(new Argument(1, null)))));
        try (WindowOperator window = new WindowOperator(context, new GeneratedRows(keys, values), OUTPUT, INPUT.getFields().size(), List.of(group))) {
            int checked = drain(window, (k, v, rank, sum) -> {
                long before = 0;
                long upTo = 0;
                for (int key = 0; key <= k; key++) {
                    before += key < k ? counts[key] : 0;
                    upTo += sums[key];
                }
                assertThat(rank).as("rank of k = %s", k).isEqualTo(before + 1);
                assertThat(sum).as("sum up to k = %s", k).isEqualTo(upTo);
            });
            assertThat(checked).isEqualTo(rows);
            assertThat(context.spillStatistics().files()).isPositive();
        }
        assertThat(context.memoryUsed()).isZero();
    }

    @Test
    void oneWindowPartitionLargerThanMemoryFailsClearlyWhenItCannotBeStreamed()
    {
        int rows = 300_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = i % 1_000 == 0 ? i : 42;
            values[i] = i;
        }
        try (WindowOperator window = slidingSum(new GeneratedRows(keys, values), new int[] {0})) {
            assertThatThrownBy(() -> {
                VectorSchemaRoot batch;
                while ((batch = window.next()) != null) {
                    batch.close();
                }
            }).isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageStartingWith("Query exceeded per-query memory limit of 8MB: window functions evaluate each window partition in memory, and the 299700 rows"
                            + " of one PARTITION BY k value do not fit; only windows whose functions are ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD (offsets up to 1000000), or COUNT, SUM,")
                    .hasMessageEndingWith(" (raise the limit with SET SESSION query_max_memory = '...')");
        }
        assertThat(context.memoryUsed()).isZero();
    }

    @Test
    void withoutPartitionByFailsClearlyWhenItCannotBeStreamed()
    {
        int rows = 400_000;
        long[] keys = new long[rows];
        long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = i;
            values[i] = i;
        }
        try (WindowOperator window = slidingSum(new GeneratedRows(keys, values), new int[0])) {
            assertThatThrownBy(window::next)
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageStartingWith("Query exceeded per-query memory limit of 8MB: window functions without PARTITION BY keep all their input rows in memory (")
                    .hasMessageContaining(" rows held) and cannot spill; only windows whose functions are ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD (offsets up to 1000000), or COUNT, SUM,")
                    .hasMessageEndingWith(" (add PARTITION BY, or raise the limit with SET SESSION query_max_memory = '...')");
        }
        assertThat(context.memoryUsed()).isZero();
        assertThat(context.spillStatistics().files()).isZero();
    }

    private WindowOperator rowNumberAndRunningSum(Operator child, int[] partitionColumns)
    {
        WindowGroup group = new WindowGroup(partitionColumns, List.of(new SortKey(1, false, false)), true, UNBOUNDED_PRECEDING, CURRENT_ROW, List.of(
                new Function(SqlKind.ROW_NUMBER, "ROW_NUMBER", List.of()),
                new Function(SqlKind.SUM, "SUM", List.of(new Argument(1, null)))));
        return new WindowOperator(context, child, OUTPUT, INPUT.getFields().size(), List.of(group));
    }

    /** ROW_NUMBER and SUM over the whole window partition: one value per partition, so computed over sorted rows. */
    private WindowOperator wholePartitionSum(Operator child, int[] partitionColumns)
    {
        WindowGroup group = new WindowGroup(partitionColumns, List.of(new SortKey(1, false, false)), true, UNBOUNDED_PRECEDING, UNBOUNDED_FOLLOWING, List.of(
                new Function(SqlKind.ROW_NUMBER, "ROW_NUMBER", List.of()),
                new Function(SqlKind.SUM, "SUM", List.of(new Argument(1, null)))));
        return new WindowOperator(context, child, OUTPUT, INPUT.getFields().size(), List.of(group));
    }

    /** SUM over a sliding frame (the row before to the row after): not computed over sorted rows in one pass. */
    private WindowOperator slidingSum(Operator child, int[] partitionColumns)
    {
        RexBuilder rex = new RexBuilder(new JavaTypeFactoryImpl());
        Bound onePreceding = new Bound(BoundType.PRECEDING, rex.makeExactLiteral(java.math.BigDecimal.ONE));
        Bound oneFollowing = new Bound(BoundType.FOLLOWING, rex.makeExactLiteral(java.math.BigDecimal.ONE));
        WindowGroup group = new WindowGroup(partitionColumns, List.of(new SortKey(1, false, false)), true, onePreceding, oneFollowing, List.of(
                new Function(SqlKind.ROW_NUMBER, "ROW_NUMBER", List.of()),
                new Function(SqlKind.SUM, "SUM", List.of(new Argument(1, null)))));
        return new WindowOperator(context, child, OUTPUT, INPUT.getFields().size(), List.of(group));
    }

    /** What a test checks of one output row: k, v and the two function results. */
    private interface RowCheck
    {
        void check(Long k, Long v, Long first, Long second);
    }

    /** Reads every row of the window, checking each; returns the rows read. */
    private static int drain(WindowOperator window, RowCheck check)
    {
        int checked = 0;
        VectorSchemaRoot next;
        while ((next = window.next()) != null) {
            try (VectorSchemaRoot batch = next) {
                BigIntVector k = (BigIntVector) batch.getVector(0);
                BigIntVector v = (BigIntVector) batch.getVector(1);
                BigIntVector first = (BigIntVector) batch.getVector(3);
                BigIntVector second = (BigIntVector) batch.getVector(4);
                for (int row = 0; row < batch.getRowCount(); row++) {
                    check.check(k.get(row), v.get(row), first.isNull(row) ? null : first.get(row), second.isNull(row) ? null : second.get(row));
                    checked++;
                }
            }
        }
        return checked;
    }

    /** (row number, running sum) by k * 2,000,000 + v; v is unique within each k. */
    private static Map<Long, long[]> expected(long[] keys, long[] values)
    {
        Map<Long, List<Long>> byKey = new HashMap<>();
        for (int i = 0; i < keys.length; i++) {
            byKey.computeIfAbsent(keys[i], key -> new ArrayList<>()).add(values[i]);
        }
        Map<Long, long[]> expected = new HashMap<>();
        byKey.forEach((key, list) -> {
            long[] sorted = list.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(sorted);
            long sum = 0;
            for (int i = 0; i < sorted.length; i++) {
                sum += sorted[i];
                expected.put(key * 2_000_000L + sorted[i], new long[] {i + 1, sum});
            }
        });
        return expected;
    }

    private static Field bigint(String name)
    {
        return new Field(name, FieldType.notNullable(new ArrowType.Int(64, true)), null);
    }

    /** Rows (k, v, a 60-byte payload) in batches, allocated from the query's allocator as a scan would. */
    private final class GeneratedRows
            implements Operator
    {
        private final long[] keys;
        private final long[] values;
        private final BufferAllocator allocator;
        private int position;

        GeneratedRows(long[] keys, long[] values)
        {
            this(keys, values, null);
        }

        /** @param allocator where the rows are allocated, outside the query's memory (as a memory table's are); null for the query's */
        GeneratedRows(long[] keys, long[] values, BufferAllocator allocator)
        {
            this.keys = keys;
            this.values = values;
            this.allocator = allocator;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (position >= keys.length) {
                return null;
            }
            int count = Math.min(BATCH_ROWS, keys.length - position);
            FieldVector[] vectors = Batches.allocate(INPUT, allocator == null ? context.allocator() : allocator, count);
            try {
                for (int i = 0; i < count; i++) {
                    ((BigIntVector) vectors[0]).set(i, keys[position + i]);
                    ((BigIntVector) vectors[1]).set(i, values[position + i]);
                    ((VarCharVector) vectors[2]).setSafe(i, ("payload of row " + (position + i) + " ".repeat(60)).substring(0, 60).getBytes(UTF_8));
                }
            }
            catch (RuntimeException e) {
                Batches.closeAll(Arrays.asList(vectors));
                throw e;
            }
            position += count;
            return Batches.root(INPUT, vectors, count);
        }

        @Override
        public void close() {}
    }
}
