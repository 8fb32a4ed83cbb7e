package io.ontul.engine.operator.join;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import org.apache.arrow.memory.ArrowBuf;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.query.QueryContext;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.exchange.spill.SpillStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A hash join whose build side is far larger than its budget, driven directly so that the budget
 * can be small enough for each way of handling an oversized partition: a partition up to
 * {@link GraceHashJoin#MAX_CHUNKS_INSTEAD_OF_SPLIT} budgets is joined in chunks, a larger one is
 * split again. Build rows are (key, 200-byte payload), one per key; probe rows (key, value) match
 * every build key once and add keys that match nothing. The expected figures are computed from
 * the generated keys.
 */
class TestSpillingHashJoin
{
    // a build budget of 1 MB (the floor); a build row costs about 660 bytes in a partition's table
    // by GraceHashJoin.buildCost, and a first-level partition of 3,750 rows or more is too large to load whole
    private static final long BUDGET = 2L << 20;
    // three partitioning threads buffer at least 256 KB each
    private static final long BUDGET_FOR_THREE_THREADS = 4L << 20;
    private static final int BATCH_ROWS = 1024;
    private static final int PAYLOAD_BYTES = 200;
    private static final Schema BUILD = new Schema(List.of(bigint("bk"), new Field("payload", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));
    private static final Schema PROBE = new Schema(List.of(bigint("pk"), bigint("v")));
    // build columns nullable: a LEFT join fills them with NULLs for probe rows without a match
    private static final Schema JOINED = new Schema(Stream.concat(PROBE.getFields().stream(),
            BUILD.getFields().stream().map(field -> new Field(field.getName(), FieldType.nullable(field.getType()), null))).toList());

    @TempDir
    Path directory;

    private BufferAllocator root;
    private ExecutorService executor;
    private ExchangeStreamFactory streams;
    private SpillStore store;
    private QueryContext context;

    @BeforeEach
    void setUp()
            throws IOException
    {
        root = new RootAllocator();
        executor = Executors.newCachedThreadPool();
        streams = ExchangeStreamFactory.create(EncryptionConfig.defaults(), directory.resolve("kms"), Optional.empty());
        store = SpillStore.open(directory.resolve("spill"), streams, 1L << 32);
        useQuery(1, BUDGET);
    }

    /** A query of {@code budget} bytes that may use {@code parallelism} threads: its build side is then partitioned by this many. */
    private void useQuery(int parallelism, long budget)
    {
        if (context != null) {
            context.close();
        }
        context = new QueryContext("join", root, budget, executor, parallelism, new RexBuilder(new JavaTypeFactoryImpl()));
        context.enableSpill(store);
    }

    @AfterEach
    void tearDown()
    {
        // before the query's space closes (which gives back whatever is left): the join deleted its runs
        assertThat(store.usedBytes()).as("spill bytes left").isZero();
        context.close();
        // fails on any Arrow buffer left
        root.close();
        executor.shutdownNow();
    }

    @Test
    void partitionsThatFitAreLoadedWhole()
    {
        // 40,000 build rows (8 MB, four times the query's memory) make partitions of about
        // 1,250 rows, each loaded into one batch allocated for all its rows
        OperatorStats stats = joinAndCheck(JoinType.INNER, 40_000);
        assertThat(stats.chunked()).as("partitions joined in chunks").isZero();
        assertThat(stats.repartitioned()).as("partitions split again").isZero();
    }

    @Test
    void buildJustOverTheLimitKeepsPartitionsInMemory()
    {
        // 9,000 build rows (1.8 MB and a table, more than three quarters of the query's memory):
        // the partitions that fit a quarter of it stay in memory and their probe rows are joined
        // as they come
        for (JoinType joinType : List.of(JoinType.INNER, JoinType.LEFT)) {
            OperatorStats stats = joinAndCheck(joinType, 9_000);
            assertThat(stats.resident()).as("%s: partitions kept in memory", joinType).isBetween(4L, GraceHashJoin.FAN_OUT - 1L);
            // one run per partition and side, but none for the probe rows of resident partitions
            assertThat(stats.spilledRuns()).as("%s: spill runs", joinType).isEqualTo(2L * GraceHashJoin.FAN_OUT - stats.resident());
        }
    }

    @Test
    void rightJoinOfTwoProbeInstancesOverResidentPartitions()
            throws Exception
    {
        // two probe instances share the build, each with half of the probe keys (even, odd) below
        // 4,500: build rows of the resident partitions and of those on disk come out once, matched
        // or, for keys from 4,500 on, with NULL probe columns, emitted by whichever instance is last
        useQuery(2, BUDGET);
        OperatorStats stats = joinByTwoInstances(JoinType.RIGHT, 9_000, 4_500, new long[1]);
        assertThat(stats.resident()).as("partitions kept in memory").isPositive();
        assertThat(stats.spilledBytes()).as("bytes spilled").isPositive();
    }

    @Test
    void twoProbeInstancesJoinPartitionsTooLargeForOneTogether()
            throws Exception
    {
        // 160,000 build rows make partitions of about 1.1 MB: more than one instance's budget
        // (a quarter of 4 MB), within both of theirs. Each is read back once, both instances
        // probe it, and the build rows come out once (RIGHT), as do probe rows without a match (LEFT, FULL)
        for (JoinType joinType : List.of(JoinType.RIGHT, JoinType.LEFT, JoinType.FULL, JoinType.INNER)) {
            useQuery(2, BUDGET_FOR_THREE_THREADS);
            long[] spillLeft = new long[1];
            OperatorStats stats = joinByTwoInstances(joinType, 160_000, joinType == JoinType.RIGHT ? 100_000 : 170_000, spillLeft);
            assertThat(stats.shared()).as("%s: partitions joined together", joinType).isEqualTo(GraceHashJoin.FAN_OUT);
            assertThat(stats.chunked()).as("%s: partitions joined in chunks", joinType).isZero();
            // every partition was shared: each run was deleted once read back, before the join closed
            assertThat(spillLeft[0]).as("%s: spill bytes left when the output ended", joinType).isZero();
        }
    }

    @Test
    void instanceClosingWhilePartitionsAreJoinedTogetherReleasesTheOther()
            throws Exception
    {
        // one instance stops after its first batch of output (a LIMIT above it, say): the other
        // must not wait for it to take part in the next partition, and nothing is left behind
        useQuery(2, BUDGET_FOR_THREE_THREADS);
        OperatorStats stats = new OperatorStats();
        JoinBuild build = new JoinBuild(context, () -> new BuildRows(160_000), new int[] {0}, new boolean[] {false}, 2, stats);
        ExecutorService instances = Executors.newFixedThreadPool(2);
        try {
            Future<long[]> stopping = instances.submit(() -> {
                try (HashJoinOperator join = twoInstanceJoin(JoinType.INNER, build, new ProbeRows(160_000, 0, 2))) {
                    VectorSchemaRoot first = join.next();
                    assertThat(first).as("a first batch").isNotNull();
                    first.close();
                }
                return new long[0];
            });
            Future<long[]> draining = instances.submit(() -> drain(twoInstanceJoin(JoinType.INNER, build, new ProbeRows(160_000, 1, 2))));
            stopping.get(60, java.util.concurrent.TimeUnit.SECONDS);
            long[] counts = draining.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(counts[0]).as("rows joined by the instance left").isBetween(0L, 80_000L);
        }
        finally {
            instances.shutdownNow();
        }
        assertThat(stats.shared()).as("partitions joined together").isPositive();
    }

    /**
     * Joins build keys 0..buildRows-1 with probe keys 0..probeRows-1 on two instances (even and
     * odd probe keys, one thread each) and checks what all of them put out: each key in both once.
     * {@code spillLeft[0]}: the spill bytes left when each instance's output ended, summed.
     */
    private OperatorStats joinByTwoInstances(JoinType joinType, int buildRows, int probeRows, long[] spillLeft)
            throws Exception
    {
        OperatorStats stats = new OperatorStats();
        JoinBuild build = new JoinBuild(context, () -> new BuildRows(buildRows), new int[] {0}, new boolean[] {false}, 2, stats);
        ExecutorService instances = Executors.newFixedThreadPool(2);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int instance = 0; instance < 2; instance++) {
                ProbeRows probe = new ProbeRows(probeRows, instance, 2);
                results.add(instances.submit(() -> drain(twoInstanceJoin(joinType, build, probe))));
            }
            long[] total = new long[7];
            for (Future<long[]> result : results) {
                long[] counts = result.get();
                for (int i = 0; i < total.length; i++) {
                    total[i] += counts[i];
                }
            }
            spillLeft[0] = total[6];
            int matched = Math.min(buildRows, probeRows);
            long matchedKeySum = (long) matched * (matched - 1) / 2;
            boolean probeOuter = joinType == JoinType.LEFT || joinType == JoinType.FULL;
            boolean buildOuter = joinType == JoinType.RIGHT || joinType == JoinType.FULL;
            assertThat(total[0]).as("%s: joined rows", joinType).isEqualTo(matched);
            assertThat(total[1]).as("%s: sum of joined keys", joinType).isEqualTo(matchedKeySum);
            assertThat(total[2]).as("%s: probe rows without a match", joinType).isEqualTo(probeOuter ? probeRows - matched : 0);
            assertThat(total[3]).as("%s: sum of their keys", joinType).isEqualTo(probeOuter ? (long) probeRows * (probeRows - 1) / 2 - matchedKeySum : 0);
            assertThat(total[4]).as("%s: build rows without a match", joinType).isEqualTo(buildOuter ? buildRows - matched : 0);
            assertThat(total[5]).as("%s: sum of their keys", joinType).isEqualTo(buildOuter ? (long) buildRows * (buildRows - 1) / 2 - matchedKeySum : 0);
        }
        finally {
            instances.shutdownNow();
        }
        assertThat(stats.spilledBytes()).as("bytes spilled").isPositive();
        return stats;
    }

    private HashJoinOperator twoInstanceJoin(JoinType joinType, JoinBuild build, Operator probe)
    {
        Schema allNullable = new Schema(JOINED.getFields().stream().map(field -> new Field(field.getName(), FieldType.nullable(field.getType()), null)).toList());
        return new HashJoinOperator(context, probe, build, joinType, new int[] {0}, new boolean[] {false}, null, allNullable, allNullable, PROBE.getFields().size());
    }

    /**
     * Joined rows and their key sum, probe rows without a match and their key sum, build rows
     * without a match and their key sum, from one join instance (closed at the end); then the
     * bytes of spill files left when its output ended, before it closed.
     */
    private long[] drain(HashJoinOperator join)
    {
        long[] counts = new long[7];
        try (join) {
            VectorSchemaRoot next;
            while ((next = join.next()) != null) {
                try (VectorSchemaRoot batch = next) {
                    BigIntVector probeKey = (BigIntVector) batch.getVector(0);
                    BigIntVector buildKey = (BigIntVector) batch.getVector(2);
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        if (probeKey.isNull(row)) {
                            counts[4]++;
                            counts[5] += buildKey.get(row);
                        }
                        else if (buildKey.isNull(row)) {
                            counts[2]++;
                            counts[3] += probeKey.get(row);
                        }
                        else {
                            assertThat(probeKey.get(row)).isEqualTo(buildKey.get(row));
                            counts[0]++;
                            counts[1] += buildKey.get(row);
                        }
                    }
                }
            }
            counts[6] = store.usedBytes();
        }
        return counts;
    }

    @Test
    void probeBuffersOverAStreamingInputTakeWhatHalfTheMemoryHasFreeWhenNothingIsResident()
    {
        useQuery(2, 8L << 20);
        GraceHashJoin join = new GraceHashJoin(context, Collections.nCopies(GraceHashJoin.FAN_OUT, JoinPartitionRuns.EMPTY), new int[] {0}, new boolean[] {false}, 2,
                new OperatorStats());
        assertThat(join.resident()).isNull();
        assertThat(join.partitionBufferBytes()).as("a share of a quarter").isEqualTo(1L << 20);
        // nothing held: each of the two instances may take half of the free half
        assertThat(join.probeBufferBytes(true)).isEqualTo(2L << 20);
        // a probe input that may take memory later (a join, a union) leaves the rest to it
        assertThat(join.probeBufferBytes(false)).isEqualTo(1L << 20);
        // what the operators below hold when the first probe rows come is not given out again
        try (ArrowBuf held = context.allocator().buffer(1L << 20)) {
            assertThat(join.probeBufferBytes(true)).isEqualTo(3L << 19);
        }
        // less free than a quarter: the share of a quarter still
        try (ArrowBuf held = context.allocator().buffer(3L << 20)) {
            assertThat(join.probeBufferBytes(true)).isEqualTo(1L << 20);
        }
        join.close();
    }

    @Test
    void fullJoinWithNullKeysOverResidentPartitions()
    {
        // a build just over the limit, some partitions resident: rows with a NULL key match
        // nothing and come out once each, from whichever partition they were spread to
        OperatorStats stats = fullJoinWithNullKeys(false, 10, 7);
        assertThat(stats.resident()).as("partitions kept in memory").isPositive();
    }

    @Test
    void nullSafeFullJoinOverResidentPartitions()
    {
        // IS NOT DISTINCT FROM: NULL keys are one key, matching each other in one partition
        OperatorStats stats = fullJoinWithNullKeys(true, 1000, 700);
        assertThat(stats.resident()).as("partitions kept in memory").isPositive();
    }

    /**
     * A FULL join of 9,000 build rows (row j: key scrambled(j), or NULL every {@code buildNullEvery}
     * rows) and 9,900 probe rows (row i: key i, or NULL every {@code probeNullEvery} rows), checked
     * pair by pair against the pairs worked out from the keys.
     */
    private OperatorStats fullJoinWithNullKeys(boolean nullSafe, int buildNullEvery, int probeNullEvery)
    {
        int buildRows = 9_000;
        int probeRows = 9_900;
        Schema build = new Schema(List.of(nullableBigint("bk"), new Field("payload", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));
        Schema probe = new Schema(List.of(nullableBigint("pk"), bigint("v")));
        Schema joined = new Schema(Stream.concat(probe.getFields().stream(), build.getFields().stream())
                .map(field -> new Field(field.getName(), FieldType.nullable(field.getType()), null)).toList());
        Long[] buildKeys = new Long[buildRows];
        for (int j = 0; j < buildRows; j++) {
            buildKeys[j] = j % buildNullEvery == 0 ? null : scrambled(j, buildRows);
        }
        Long[] probeKeys = new Long[probeRows];
        for (int i = 0; i < probeRows; i++) {
            probeKeys[i] = i % probeNullEvery == 0 ? null : (long) i;
        }
        // build rows by key (HashMap takes the NULL key: null-safe, NULL matches every NULL)
        Map<Long, List<Integer>> buildRowsByKey = new HashMap<>();
        for (int j = 0; j < buildRows; j++) {
            buildRowsByKey.computeIfAbsent(buildKeys[j], key -> new ArrayList<>()).add(j);
        }
        List<String> expected = new ArrayList<>();
        boolean[] buildMatched = new boolean[buildRows];
        for (int i = 0; i < probeRows; i++) {
            boolean matched = false;
            List<Integer> matches = probeKeys[i] == null && !nullSafe ? List.of() : buildRowsByKey.getOrDefault(probeKeys[i], List.of());
            for (int j : matches) {
                expected.add(i + "|" + j);
                buildMatched[j] = true;
                matched = true;
            }
            if (!matched) {
                expected.add(i + "|-");
            }
        }
        for (int j = 0; j < buildRows; j++) {
            if (!buildMatched[j]) {
                expected.add("-|" + j);
            }
        }
        OperatorStats stats = new OperatorStats();
        boolean[] nullSafeKeys = {nullSafe};
        JoinBuild joinBuild = new JoinBuild(context, () -> new KeyedRows(build, buildKeys, j -> "payload of row " + j + " "), new int[] {0}, nullSafeKeys, 1, stats);
        List<String> actual = new ArrayList<>();
        try (HashJoinOperator join = new HashJoinOperator(context, new KeyedRows(probe, probeKeys, null), joinBuild, JoinType.FULL, new int[] {0}, nullSafeKeys,
                null, joined, joined, probe.getFields().size())) {
            VectorSchemaRoot next;
            while ((next = join.next()) != null) {
                try (VectorSchemaRoot batch = next) {
                    BigIntVector value = (BigIntVector) batch.getVector(1);
                    VarCharVector payload = (VarCharVector) batch.getVector(3);
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        String probeRow = value.isNull(row) ? "-" : String.valueOf(value.get(row));
                        String buildRow = payload.isNull(row) ? "-" : new String(payload.get(row), UTF_8).split(" ")[3];
                        actual.add(probeRow + "|" + buildRow);
                    }
                }
            }
        }
        assertThat(actual).as("joined rows").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(stats.spilledBytes()).as("bytes spilled").isPositive();
        return stats;
    }

    @Test
    void buildFarOverTheLimitKeepsNoneInMemory()
    {
        // 120,000 build rows: a partition costs more than a quarter of the memory
        OperatorStats stats = joinAndCheck(JoinType.INNER, 120_000);
        assertThat(stats.resident()).isZero();
    }

    @Test
    void partitionsAFewBudgetsLargeAreJoinedInChunks()
    {
        // 120,000 build rows cost about 2.5 budgets per first-level partition
        OperatorStats stats = joinAndCheck(JoinType.INNER, 120_000);
        assertThat(stats.chunked()).as("partitions joined in chunks").isPositive();
        assertThat(stats.repartitioned()).as("partitions split again").isZero();
    }

    @Test
    void leftJoinInChunksKeepsEveryProbeRowOnce()
    {
        OperatorStats stats = joinAndCheck(JoinType.LEFT, 120_000);
        assertThat(stats.chunked()).as("partitions joined in chunks").isPositive();
    }

    @Test
    void buildSidePartitionedByThreeThreads()
    {
        useQuery(3, BUDGET_FOR_THREE_THREADS);
        OperatorStats stats = joinAndCheck(JoinType.LEFT, 160_000);
        // one run per partition and thread that wrote to it, for both sides: more than one thread wrote the build side
        assertThat(stats.spilledRuns()).as("spill runs").isGreaterThan(2L * GraceHashJoin.FAN_OUT);
    }

    @Test
    void spillLimitReachedWhileThreeThreadsPartitionFailsAndLeavesNothing()
    {
        store = SpillStore.open(directory.resolve("small-spill"), streams, 1L << 20);
        useQuery(3, BUDGET_FOR_THREE_THREADS);
        assertThatThrownBy(() -> joinAndCheck(JoinType.INNER, 160_000))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_SPILL_LIMIT));
    }

    @Test
    void partitionsManyBudgetsLargeAreSplitAgain()
    {
        // 320,000 build rows cost about 6.6 budgets per first-level partition
        OperatorStats stats = joinAndCheck(JoinType.INNER, 320_000);
        assertThat(stats.repartitioned()).as("partitions split again").isPositive();
    }

    private OperatorStats joinAndCheck(JoinType joinType, int buildRows)
    {
        int probeRows = buildRows + buildRows / 10;
        OperatorStats stats = new OperatorStats();
        JoinBuild build = new JoinBuild(context, () -> new BuildRows(buildRows), new int[] {0}, new boolean[] {false}, 1, stats);
        long rows = 0;
        long valueSum = 0;
        long keySum = 0;
        long payloadBytes = 0;
        long unmatchedValueSum = 0;
        long unmatched = 0;
        try (HashJoinOperator join = new HashJoinOperator(context, new ProbeRows(probeRows), build, joinType, new int[] {0}, new boolean[] {false},
                null, JOINED, JOINED, PROBE.getFields().size())) {
            VectorSchemaRoot next;
            while ((next = join.next()) != null) {
                try (VectorSchemaRoot batch = next) {
                    BigIntVector probeKey = (BigIntVector) batch.getVector(0);
                    BigIntVector value = (BigIntVector) batch.getVector(1);
                    BigIntVector buildKey = (BigIntVector) batch.getVector(2);
                    VarCharVector payload = (VarCharVector) batch.getVector(3);
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        if (buildKey.isNull(row)) {
                            assertThat(probeKey.get(row)).as("probe key without a match").isGreaterThanOrEqualTo(buildRows);
                            assertThat(payload.isNull(row)).as("payload of an unmatched row").isTrue();
                            unmatched++;
                            unmatchedValueSum += value.get(row);
                            continue;
                        }
                        assertThat(buildKey.get(row)).as("build key beside probe key").isEqualTo(probeKey.get(row));
                        assertThat(new String(payload.get(row), UTF_8)).as("payload of key %s", buildKey.get(row)).startsWith("payload of " + buildKey.get(row) + " ");
                        rows++;
                        valueSum += value.get(row);
                        keySum += buildKey.get(row);
                        payloadBytes += payload.getValueLength(row);
                    }
                }
            }
        }
        assertThat(stats.spilledBytes()).as("bytes spilled").isPositive();
        // probe key i (i < buildRows) matches build key i once; keys from buildRows on match nothing
        long expectedKeySum = (long) buildRows * (buildRows - 1) / 2;
        assertThat(rows).as("joined rows").isEqualTo(buildRows);
        assertThat(keySum).as("sum of joined keys").isEqualTo(expectedKeySum);
        assertThat(valueSum).as("sum of joined probe values").isEqualTo(3 * expectedKeySum + buildRows);
        assertThat(payloadBytes).as("payload bytes").isEqualTo((long) buildRows * PAYLOAD_BYTES);
        // LEFT: probe keys from buildRows to probeRows once each, with NULLs; INNER: none
        long expectedUnmatched = joinType == JoinType.LEFT ? probeRows - buildRows : 0;
        long unmatchedKeySum = (long) probeRows * (probeRows - 1) / 2 - expectedKeySum;
        assertThat(unmatched).as("unmatched probe rows").isEqualTo(expectedUnmatched);
        assertThat(unmatchedValueSum).as("sum of unmatched probe values").isEqualTo(joinType == JoinType.LEFT ? 3 * unmatchedKeySum + expectedUnmatched : 0);
        return stats;
    }

    private static Field bigint(String name)
    {
        return new Field(name, FieldType.notNullable(new ArrowType.Int(64, true)), null);
    }

    private static Field nullableBigint(String name)
    {
        return new Field(name, FieldType.nullable(new ArrowType.Int(64, true)), null);
    }

    /**
     * Rows of {@code schema} (a nullable BIGINT key, then a BIGINT row number or, with
     * {@code payload}, a string naming the row), row r with key {@code keys[r]}.
     */
    private final class KeyedRows
            implements Operator
    {
        private final Schema schema;
        private final Long[] keys;
        private final IntFunction<String> payload;
        private int position;

        KeyedRows(Schema schema, Long[] keys, IntFunction<String> payload)
        {
            this.schema = schema;
            this.keys = keys;
            this.payload = payload;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (position >= keys.length) {
                return null;
            }
            int rows = Math.min(BATCH_ROWS, keys.length - position);
            FieldVector[] vectors = Batches.allocate(schema, context.allocator(), rows);
            for (int i = 0; i < rows; i++) {
                int row = position + i;
                if (keys[row] == null) {
                    ((BigIntVector) vectors[0]).setNull(i);
                }
                else {
                    ((BigIntVector) vectors[0]).set(i, keys[row]);
                }
                if (payload == null) {
                    ((BigIntVector) vectors[1]).set(i, row);
                }
                else {
                    String text = payload.apply(row);
                    ((VarCharVector) vectors[1]).setSafe(i, (text + ".".repeat(Math.max(0, PAYLOAD_BYTES - text.length()))).getBytes(UTF_8));
                }
            }
            position += rows;
            return Batches.root(schema, vectors, rows);
        }

        @Override
        public void close() {}
    }

    /** Build rows (key i, payload), keys in a scrambled order, allocated from the query's allocator as a scan would. */
    private final class BuildRows
            implements Operator
    {
        private final int count;
        private int position;

        BuildRows(int count)
        {
            this.count = count;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (position >= count) {
                return null;
            }
            int rows = Math.min(BATCH_ROWS, count - position);
            FieldVector[] vectors = Batches.allocate(BUILD, context.allocator(), rows);
            try {
                for (int i = 0; i < rows; i++) {
                    long key = scrambled(position + i, count);
                    ((BigIntVector) vectors[0]).set(i, key);
                    String payload = "payload of " + key + " ";
                    ((VarCharVector) vectors[1]).setSafe(i, (payload + ".".repeat(PAYLOAD_BYTES - payload.length())).getBytes(UTF_8));
                }
            }
            catch (RuntimeException e) {
                Batches.closeAll(Arrays.asList(vectors));
                throw e;
            }
            position += rows;
            return Batches.root(BUILD, vectors, rows);
        }

        @Override
        public void close() {}
    }

    /** Probe rows (key i, value 3i + 1) for i below {@code count}: every {@code step}-th from {@code first}. */
    private final class ProbeRows
            implements Operator
    {
        private final int count;
        private final int step;
        private int position;

        ProbeRows(int count)
        {
            this(count, 0, 1);
        }

        ProbeRows(int count, int first, int step)
        {
            this.count = count;
            this.step = step;
            this.position = first;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (position >= count) {
                return null;
            }
            int rows = Math.min(BATCH_ROWS, (count - position + step - 1) / step);
            FieldVector[] vectors = Batches.allocate(PROBE, context.allocator(), rows);
            for (int i = 0; i < rows; i++) {
                long key = position + (long) i * step;
                ((BigIntVector) vectors[0]).set(i, key);
                ((BigIntVector) vectors[1]).set(i, 3 * key + 1);
            }
            position += rows * step;
            return Batches.root(PROBE, vectors, rows);
        }

        @Override
        public void close() {}
    }

    /** A permutation of 0..count-1: each position maps to a distinct key. */
    private static long scrambled(int position, int count)
    {
        // 7919 is prime and divides no count used here, so i -> i * 7919 mod count is a bijection
        return (long) position * 7919 % count;
    }
}
