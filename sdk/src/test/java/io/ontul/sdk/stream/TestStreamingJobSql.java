package io.ontul.sdk.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The one text of a streaming job, whoever describes it. */
class TestStreamingJobSql
{
    @Test
    void aWindowedJob()
    {
        String sql = new StreamBuilder(null, Source.kafka("kafka.default.orders"))
                .filter("amount > 100")
                .window(WindowSpec.tumbling(Duration.ofSeconds(10)), "event_time")
                .groupBy("category")
                .agg("SUM(amount) AS total", "COUNT(*) AS cnt")
                .sink(Sink.iceberg("iceberg.lake.totals"))
                .parallelism(4)
                .commitInterval(10_000)
                .name("order_totals")
                .toSql();
        assertThat(sql).isEqualTo("CREATE STREAMING JOB order_totals WITH ('checkpoint.interval' = '10s', 'parallelism' = '4') "
                + "AS INSERT INTO iceberg.lake.totals SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt "
                + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".orders, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) WHERE amount > 100 "
                + "GROUP BY window_start, window_end, category");
    }

    @Test
    void slidingAndSessionWindowsAndPlainJobs()
    {
        assertThat(new StreamBuilder(null, Source.kafka("k.s.t")).window(WindowSpec.sliding(Duration.ofMinutes(1), Duration.ofSeconds(10)), "ts")
                .agg("count(*) AS n").sink(Sink.jdbc("pg.public.counts")).name("j").toSql())
                .isEqualTo("CREATE STREAMING JOB j AS INSERT INTO pg.public.counts SELECT window_start, window_end, count(*) AS n "
                        + "FROM TABLE(HOP(TABLE k.s.t, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '1' MINUTE)) GROUP BY window_start, window_end");
        assertThat(new StreamBuilder(null, Source.kafka("k.s.t")).window(WindowSpec.session(Duration.ofMillis(1500)), "ts").groupBy("user_id")
                .agg("count(*) AS clicks").sink(Sink.kafka("k.s.sessions")).name("Sessions").toSql())
                .isEqualTo("CREATE STREAMING JOB \"Sessions\" AS INSERT INTO k.s.sessions SELECT window_start, window_end, user_id, count(*) AS clicks "
                        + "FROM TABLE(SESSION(TABLE k.s.t, DESCRIPTOR(ts), DESCRIPTOR(user_id), INTERVAL '1500' MILLISECOND)) GROUP BY window_start, window_end, user_id");
        assertThat(new StreamBuilder(null, Source.kafka("k.s.t")).filter("a > 1").filter("b = 'x'").select("a", "b").sink(Sink.iceberg("i.s.t")).name("p").toSql())
                .isEqualTo("CREATE STREAMING JOB p AS INSERT INTO i.s.t SELECT a, b FROM k.s.t WHERE (a > 1) AND (b = 'x')");
    }

    @Test
    void windowTextsOfJobDocuments()
    {
        assertThat(WindowSpec.parse("TUMBLING(SIZE 10 SECONDS)")).isEqualTo(WindowSpec.tumbling(Duration.ofSeconds(10)));
        assertThat(WindowSpec.parse("sliding(size 1 minute, slide 10 seconds)")).isEqualTo(WindowSpec.sliding(Duration.ofMinutes(1), Duration.ofSeconds(10)));
        assertThat(WindowSpec.parse("SESSION(GAP 30 SECONDS)")).isEqualTo(WindowSpec.session(Duration.ofSeconds(30)));
        assertThatThrownBy(() -> WindowSpec.parse("TUMBLING(10s)")).hasMessageStartingWith("must be TUMBLING(SIZE n UNIT)");
        assertThatThrownBy(() -> WindowSpec.parse("TUMBLING(SIZE 0 SECONDS)")).hasMessageContaining("must be positive");
        assertThat(StreamingJobSql.interval(Duration.ofSeconds(60))).isEqualTo("INTERVAL '1' MINUTE");
        assertThat(StreamingJobSql.durationOption(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(StreamingJobSql.durationOption(Duration.ofMinutes(5))).isEqualTo("5m");
    }

    @Test
    void badShapesAreRefused()
    {
        assertThatThrownBy(() -> new StreamBuilder(null, Source.kafka("k.s.t")).window(WindowSpec.tumbling(Duration.ofSeconds(1)), "ts").sink(Sink.iceberg("i.s.t")).toSql())
                .hasMessageContaining("needs the aggregates");
        assertThatThrownBy(() -> Source.kafka("orders")).hasMessageContaining("catalog.schema.table");
        assertThatThrownBy(() -> new Sink("csv", "a.b.c")).hasMessageContaining("iceberg, jdbc or kafka");
        assertThatThrownBy(() -> new StreamBuilder(null, Source.kafka("k.s.t")).toSql()).hasMessageContaining("sink(");
    }
}
