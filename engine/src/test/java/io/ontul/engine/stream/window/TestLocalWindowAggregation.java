package io.ontul.engine.stream.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.operator.aggregate.Accumulators;
import io.ontul.engine.plan.AggregateNode;
import io.ontul.engine.query.QueryContext;
import io.ontul.engine.type.OntulTypeSystem;

/**
 * The local-global window aggregation gives the windows and late-row counts of the window
 * aggregation fed the rows themselves: SUM(amount) and COUNT(*) per 10 s window and category,
 * rows out of order, some behind the watermark.
 */
class TestLocalWindowAggregation
{
    private static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
    private static final Schema INPUT = new Schema(List.of(Field.nullable("window_start", TIMESTAMP), Field.nullable("window_end", TIMESTAMP),
            Field.nullable("category", ArrowType.Utf8.INSTANCE), Field.nullable("amount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    private static final Schema OUTPUT = new Schema(List.of(INPUT.getFields().get(0), INPUT.getFields().get(1), INPUT.getFields().get(2),
            Field.nullable("total", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), Field.nullable("cnt", new ArrowType.Int(64, true))));

    private BufferAllocator root;
    private ExecutorService executor;
    private QueryContext context;

    @BeforeEach
    void setUp()
    {
        root = new RootAllocator();
        executor = Executors.newSingleThreadExecutor();
        context = new QueryContext("local-windows", root, 1L << 30, executor, 1, new RexBuilder(new JavaTypeFactoryImpl()));
    }

    @AfterEach
    void tearDown()
    {
        context.close();
        assertThat(root.getAllocatedMemory()).isZero();
        root.close();
        executor.shutdownNow();
    }

    @Test
    void localThenGlobalEqualsOneAggregationOfTheRows()
    {
        Random random = new Random(42);
        List<String> direct = new ArrayList<>();
        List<String> twoSteps = new ArrayList<>();
        long[] late = new long[2];
        try (EventTimeWindowAggregation whole = EventTimeWindowAggregation.of(context, parts(), 1, 1000);
                EventTimeWindowAggregation global = EventTimeWindowAggregation.of(context, parts(), 1, 1000);
                LocalWindowAggregation local = new LocalWindowAggregation(context, parts())) {
            long watermark = EventTimeWindowAggregation.NO_WATERMARK;
            for (int poll = 0; poll < 50; poll++) {
                try (VectorSchemaRoot batch = batch(random, poll)) {
                    whole.add(batch, watermark);
                    local.add(batch);
                }
                try (VectorSchemaRoot state = local.flush()) {
                    assertThat(state.getRowCount()).as("groups, not rows, cross the shuffle").isLessThan(200);
                    global.addLocal(state, watermark);
                }
                assertThat(local.flush()).as("a flush empties the table").isNull();
                // the watermark trails the newest event time by 3 s; some rows are 8 s old: late
                watermark = (poll * 2_000L - 3_000) * 1000;
                collect(whole.fire(watermark), direct);
                collect(global.fire(watermark), twoSteps);
            }
            collect(whole.fire(Long.MAX_VALUE / 2), direct);
            collect(global.fire(Long.MAX_VALUE / 2), twoSteps);
            late[0] = whole.lateRows();
            late[1] = global.lateRows();
        }
        assertThat(direct).hasSizeGreaterThan(50);
        assertThat(twoSteps).containsExactlyInAnyOrderElementsOf(direct);
        assertThat(late[0]).as("late rows of the direct aggregation").isPositive();
        assertThat(late[1]).as("late rows counted from the local groups' row counts").isEqualTo(late[0]);
    }

    /** SUM(amount), COUNT(*) grouped by window_start, window_end, category. */
    private static AggregateNode.Parts parts()
    {
        JavaTypeFactoryImpl types = new JavaTypeFactoryImpl(OntulTypeSystem.INSTANCE);
        return new AggregateNode.Parts(OUTPUT, new int[] {0, 1, 2}, new boolean[][] {{true, true, true}},
                List.of(Accumulators.partialSum(3, types.createSqlType(SqlTypeName.DOUBLE)), Accumulators.partialCount(-1)), new int[] {-1, -1});
    }

    /** 400 rows of poll {@code poll}: event times around poll × 2 s, up to 8 s old, 7 categories. */
    private VectorSchemaRoot batch(Random random, int poll)
    {
        int rows = 400;
        VectorSchemaRoot batch = VectorSchemaRoot.create(INPUT, root);
        TimeStampMilliVector starts = (TimeStampMilliVector) batch.getVector(0);
        TimeStampMilliVector ends = (TimeStampMilliVector) batch.getVector(1);
        VarCharVector categories = (VarCharVector) batch.getVector(2);
        Float8Vector amounts = (Float8Vector) batch.getVector(3);
        for (int i = 0; i < rows; i++) {
            long time = Math.max(0, poll * 2_000L - random.nextInt(8_000));
            long start = time / 10_000 * 10_000;
            starts.setSafe(i, start);
            ends.setSafe(i, start + 10_000);
            categories.setSafe(i, ("c" + random.nextInt(7)).getBytes(StandardCharsets.UTF_8));
            amounts.setSafe(i, random.nextInt(1000) / 4.0);
        }
        batch.setRowCount(rows);
        return batch;
    }

    private static void collect(List<VectorSchemaRoot> fired, List<String> into)
    {
        for (VectorSchemaRoot batch : fired) {
            try (batch) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    into.add(batch.getVector(0).getObject(row) + " " + batch.getVector(2).getObject(row) + " " + batch.getVector(3).getObject(row) + " " + batch.getVector(4).getObject(row));
                }
            }
        }
    }
}
