package io.ontul.engine.operator.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.query.QueryContext;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;

/**
 * The gather queue holds at most an eighth of the query's memory in batches (any one batch when
 * it holds none), every batch arrives once, and closing it releases producers waiting for room.
 */
class TestGatherOperator
{
    private static final long LIMIT = 8L << 20;
    private static final int INSTANCES = 2;

    private RootAllocator root;
    private ExecutorService executor;
    private QueryContext context;

    @BeforeEach
    void setUp()
    {
        root = new RootAllocator();
        executor = Executors.newFixedThreadPool(INSTANCES);
        context = new QueryContext("gather", root, LIMIT, executor, INSTANCES, new RexBuilder(new JavaTypeFactoryImpl()));
    }

    @AfterEach
    void tearDown()
    {
        context.close();
        executor.shutdownNow();
        assertThat(root.getAllocatedMemory()).as("every batch closed").isZero();
        root.close();
    }

    @Test
    void batchesWaitingAreBoundedByBytes()
    {
        // 600 KB batches against a 1 MB bound: one waits in the queue, one more in each producer's
        // hands; the queue alone has room for four
        int rows = 75_000;
        AtomicInteger made = new AtomicInteger();
        try (GatherOperator gather = new GatherOperator(context, instance -> new Batches(rows, 20, instance, made), INSTANCES)) {
            int[] taken = new int[1];
            assertDeliversEveryBatchOnce(gather, rows, 20, () -> {
                taken[0]++;
                if (taken[0] % 5 == 1) {
                    // a slow consumer: producers fill what the bound lets them
                    settle(made);
                    assertThat(made.get() - taken[0]).as("batches made but not taken, after %s taken", taken[0]).isLessThanOrEqualTo(1 + INSTANCES);
                }
            });
        }
    }

    @Test
    void aBatchLargerThanTheBoundStillPasses()
    {
        // 2 MB batches, twice the bound: each goes when nothing else waits
        int rows = 250_000;
        AtomicInteger made = new AtomicInteger();
        try (GatherOperator gather = new GatherOperator(context, instance -> new Batches(rows, 6, instance, made), INSTANCES)) {
            assertDeliversEveryBatchOnce(gather, rows, 6, () -> { });
        }
    }

    @Test
    void closeReleasesProducersWaitingForRoom()
    {
        AtomicInteger made = new AtomicInteger();
        GatherOperator gather = new GatherOperator(context, instance -> new Batches(75_000, 1_000, instance, made), INSTANCES);
        gather.next().close();
        settle(made);
        assertThat(made.get()).as("producers wait for room").isLessThan(10);
        // returns once both producers stopped; the batches they held are closed (see tearDown)
        gather.close();
        assertThat(made.get()).isLessThan(10);
    }

    /** Takes every batch, running {@code afterEach} after each, and checks that each of both producers' batches came once. */
    private static void assertDeliversEveryBatchOnce(GatherOperator gather, int rows, int batches, Runnable afterEach)
    {
        long sum = 0;
        int taken = 0;
        for (VectorSchemaRoot next = gather.next(); next != null; next = gather.next()) {
            try (VectorSchemaRoot batch = next) {
                taken++;
                sum += sum((BigIntVector) batch.getVector(0));
                afterEach.run();
            }
        }
        assertThat(taken).isEqualTo(INSTANCES * batches);
        assertThat(sum).isEqualTo(expectedSum(rows, batches));
    }

    /** Waits until the producers have stopped making batches (blocked on the bound). */
    private static void settle(AtomicInteger made)
    {
        int before;
        do {
            before = made.get();
            try {
                Thread.sleep(200);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        while (made.get() != before);
    }

    private static long sum(BigIntVector vector)
    {
        long sum = 0;
        for (int row = 0; row < vector.getValueCount(); row++) {
            sum += vector.get(row);
        }
        return sum;
    }

    /** Sum of every value both producers make: instance * 10^9 + batch * rows + row. */
    private static long expectedSum(int rows, int batches)
    {
        long sum = 0;
        for (int instance = 0; instance < INSTANCES; instance++) {
            for (int batch = 0; batch < batches; batch++) {
                for (int row = 0; row < rows; row++) {
                    sum += instance * 1_000_000_000L + (long) batch * rows + row;
                }
            }
        }
        return sum;
    }

    /** One producer: {@code batches} batches of {@code rows} BIGINTs (8 bytes a row). */
    private final class Batches
            implements Operator
    {
        private final int rows;
        private final int batches;
        private final int instance;
        private final AtomicInteger made;
        private int batch;

        Batches(int rows, int batches, int instance, AtomicInteger made)
        {
            this.rows = rows;
            this.batches = batches;
            this.instance = instance;
            this.made = made;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (batch == batches) {
                return null;
            }
            BigIntVector vector = new BigIntVector("v", context.allocator());
            vector.allocateNew(rows);
            for (int row = 0; row < rows; row++) {
                vector.set(row, instance * 1_000_000_000L + (long) batch * rows + row);
            }
            vector.setValueCount(rows);
            batch++;
            made.incrementAndGet();
            List<FieldVector> vectors = new ArrayList<>(List.of(vector));
            return new VectorSchemaRoot(vectors);
        }

        @Override
        public void close() {}
    }
}
