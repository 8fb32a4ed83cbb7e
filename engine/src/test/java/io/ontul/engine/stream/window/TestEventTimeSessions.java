package io.ontul.engine.stream.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.operator.window.SessionWindowFunction;
import io.ontul.engine.query.QueryContext;

/** Session windows of a streaming job with controlled event time and watermarks (milliseconds here, microseconds for watermarks). */
class TestEventTimeSessions
{
    private static final long SECOND = 1000;
    private static final long WATERMARK_SECOND = 1_000_000;
    private static final Schema INPUT = new Schema(List.of(Field.nullable("user", ArrowType.Utf8.INSTANCE), Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))));
    private static final Schema OUTPUT = new Schema(List.of(INPUT.getFields().get(0), INPUT.getFields().get(1),
            Field.nullable("window_start", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)), Field.nullable("window_end", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))));

    private BufferAllocator root;
    private ExecutorService executor;
    private QueryContext context;
    private EventTimeSessions sessions;

    @BeforeEach
    void setUp()
    {
        root = new RootAllocator();
        executor = Executors.newSingleThreadExecutor();
        context = new QueryContext("sessions", root, 1L << 30, executor, 1, new RexBuilder(new JavaTypeFactoryImpl()));
        sessions = new EventTimeSessions(context, new SessionWindowFunction(1, new int[] {0}, 5 * SECOND), INPUT, OUTPUT, 1000);
    }

    @AfterEach
    void tearDown()
    {
        sessions.close();
        context.close();
        root.close();
        executor.shutdownNow();
    }

    @Test
    void sessionsCloseWhenTheWatermarkPassesTheirEndAndLateRowsAreDropped()
    {
        add(EventTimeWindowAggregation.NO_WATERMARK, "a", 1 * SECOND, "a", 3 * SECOND, "b", 2 * SECOND);
        assertThat(close(5 * WATERMARK_SECOND)).isEmpty();
        assertThat(close(7 * WATERMARK_SECOND)).as("b's session [2 s, 7 s)").containsExactly("b 2000 2000 7000");
        // joins a's open session: not late although it is behind the watermark
        add(7 * WATERMARK_SECOND, "a", 2500);
        // b has no open session and its own would have ended at 6 s: late
        add(7 * WATERMARK_SECOND, "b", 1 * SECOND);
        assertThat(sessions.lateRows()).isEqualTo(1);
        // a row 5 s or more after the last one starts a new session
        add(7 * WATERMARK_SECOND, "a", 8 * SECOND);
        assertThat(close(8 * WATERMARK_SECOND)).containsExactlyInAnyOrder("a 1000 1000 8000", "a 2500 1000 8000", "a 3000 1000 8000");
        assertThat(sessions.heldRows()).isEqualTo(1);

        // the held row survives a checkpoint into a new instance
        List<VectorSchemaRoot> state = sessions.snapshot();
        sessions.close();
        sessions = new EventTimeSessions(context, new SessionWindowFunction(1, new int[] {0}, 5 * SECOND), INPUT, OUTPUT, 1000);
        for (VectorSchemaRoot batch : state) {
            try (batch) {
                sessions.add(batch, EventTimeWindowAggregation.NO_WATERMARK);
            }
        }
        add(8 * WATERMARK_SECOND, "a", 12 * SECOND);
        assertThat(close(16 * WATERMARK_SECOND)).isEmpty();
        assertThat(close(17 * WATERMARK_SECOND)).containsExactlyInAnyOrder("a 8000 8000 17000", "a 12000 8000 17000");
        assertThat(sessions.heldRows()).isZero();
    }

    private void add(long watermark, Object... rows)
    {
        int count = rows.length / 2;
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(INPUT, root)) {
            VarCharVector users = (VarCharVector) batch.getVector(0);
            TimeStampMilliVector times = (TimeStampMilliVector) batch.getVector(1);
            for (int i = 0; i < count; i++) {
                users.setSafe(i, ((String) rows[2 * i]).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                times.setSafe(i, ((Number) rows[2 * i + 1]).longValue());
            }
            batch.setRowCount(count);
            sessions.add(batch, watermark);
        }
    }

    private List<String> close(long watermark)
    {
        List<String> rows = new ArrayList<>();
        for (VectorSchemaRoot batch : sessions.close(watermark)) {
            try (batch) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    rows.add(batch.getVector(0).getObject(row) + " " + ((TimeStampMilliVector) batch.getVector(1)).get(row) + " "
                            + ((TimeStampMilliVector) batch.getVector(2)).get(row) + " " + ((TimeStampMilliVector) batch.getVector(3)).get(row));
                }
            }
        }
        return rows;
    }
}
