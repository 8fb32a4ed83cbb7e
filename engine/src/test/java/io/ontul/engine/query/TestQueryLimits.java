package io.ontul.engine.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.ErrorCategory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Run-time limit, concurrency limit and queue. Nothing here measures time: a slow query is one
 * that cannot finish within the test (a cross join of 3.6 billion rows), and a queued query is
 * one that cannot start while another holds the only slot. The class timeout only stops a hang.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TestQueryLimits
{
    private static final String ENDLESS = "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b";

    private static Engine engine(String... properties)
    {
        EngineConfig config = EngineConfig.embeddedDefaults();
        for (int i = 0; i < properties.length; i += 2) {
            config = config.withProperty(properties[i], properties[i + 1]);
        }
        return Engine.create(config);
    }

    private static List<List<Object>> rows(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private static QueryInfo awaitQueued(Engine engine, String sql)
            throws InterruptedException
    {
        while (engine.queries().waitingForSlot() == 0) {
            Thread.sleep(10);
        }
        return awaitState(engine, sql, QueryState.QUEUED);
    }

    private static QueryInfo awaitState(Engine engine, String sql, QueryState state)
            throws InterruptedException
    {
        while (true) {
            Optional<QueryInfo> query = engine.queries().queries("admin").stream()
                    .filter(info -> info.query().equals(sql) && info.state() == state)
                    .findFirst();
            if (query.isPresent()) {
                return query.get();
            }
            Thread.sleep(10);
        }
    }

    @Test
    void sessionRunTimeLimitFailsASlowQuery()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("alice");
            rows(session, "SET SESSION query_max_run_time = '1s'");
            assertThatThrownBy(() -> rows(session, ENDLESS))
                    .isInstanceOfSatisfying(OntulException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
                        assertThat(e.category()).isEqualTo(ErrorCategory.INSUFFICIENT_RESOURCES);
                    })
                    .hasMessageStartingWith("Query exceeded maximum run time of 1s");
            QueryInfo info = engine.queries().queries("alice").stream().filter(query -> query.query().equals(ENDLESS)).findFirst().orElseThrow();
            assertThat(info.state()).isEqualTo(QueryState.FAILED);
            assertThat(info.error()).hasValueSatisfying(error -> assertThat(error).startsWith("Query exceeded maximum run time of 1s"));

            rows(session, "RESET SESSION query_max_run_time");
            assertThat(rows(session, "SELECT count(*) FROM tpch.tiny.nation")).containsExactly(List.of(25L));
            assertThat(engine.rootAllocator().getAllocatedMemory()).isZero();
        }
    }

    @Test
    void configuredRunTimeLimitAppliesToEverySession()
    {
        try (Engine engine = engine(QueryLimits.MAX_RUN_TIME, "1500ms")) {
            assertThatThrownBy(() -> rows(engine.createSession("bob"), ENDLESS))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT))
                    .hasMessageStartingWith("Query exceeded maximum run time of 1500ms");
        }
    }

    /**
     * A statement that takes long to plan: 20,000 literals in an IN list take Calcite's validator
     * and planner about a second here (far above the limits below); the answer is 25, nation's keys
     * being 0 to 24.
     */
    private static final String LONG_PLANNING = "SELECT count(*) FROM tpch.tiny.nation WHERE n_nationkey IN ("
            + java.util.stream.IntStream.range(0, 20_000).mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining(", ")) + ")";

    /** Calcite cannot be interrupted; the planning deadline is checked as it types expressions, builds calls and tries rules. */
    @Test
    void planningTimeLimitFailsAStatementThatPlansLong()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("alice");
            rows(session, "SET SESSION query_max_planning_time = '20ms'");
            assertThatThrownBy(() -> rows(session, LONG_PLANNING))
                    .isInstanceOfSatisfying(OntulException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
                        assertThat(e.category()).isEqualTo(ErrorCategory.INSUFFICIENT_RESOURCES);
                    })
                    .hasMessageStartingWith("Query exceeded maximum planning time of 20ms (ontul.query.max-planning-time;");
            QueryInfo info = engine.queries().queries("alice").stream().filter(query -> query.query().equals(LONG_PLANNING)).findFirst().orElseThrow();
            assertThat(info.state()).isEqualTo(QueryState.FAILED);

            // an INSERT plans under the same deadline
            rows(session, "CREATE TABLE memory.\"default\".keys (k BIGINT)");
            String insert = "INSERT INTO memory.\"default\".keys " + LONG_PLANNING;
            assertThatThrownBy(() -> rows(session, insert)).hasMessageStartingWith("Query exceeded maximum planning time of 20ms");

            rows(session, "RESET SESSION query_max_planning_time");
            assertThat(rows(session, LONG_PLANNING)).containsExactly(List.of(25L));
            assertThat(engine.rootAllocator().getAllocatedMemory()).isZero();
        }
        try (Engine engine = engine(QueryLimits.MAX_PLANNING_TIME, "20ms")) {
            assertThatThrownBy(() -> rows(engine.createSession("bob"), LONG_PLANNING))
                    .hasMessageStartingWith("Query exceeded maximum planning time of 20ms");
            assertThat(rows(engine.createSession("bob"), "SELECT count(*) FROM tpch.tiny.nation")).containsExactly(List.of(25L));
        }
        assertThatThrownBy(() -> engine(QueryLimits.MAX_PLANNING_TIME, "later"))
                .hasMessageStartingWith("Invalid duration 'later' for ontul.query.max-planning-time");
    }

    /** The run-time limit (and so a kill) reaches a statement that is still planning, not only its operators. */
    @Test
    void runTimeLimitStopsAStatementWhileItPlans()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("alice");
            rows(session, "SET SESSION query_max_run_time = '20ms'");
            assertThatThrownBy(() -> rows(session, LONG_PLANNING))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT))
                    .hasMessageStartingWith("Query exceeded maximum run time of 20ms");
            assertThat(engine.queries().queries("alice").stream().filter(query -> query.query().equals(LONG_PLANNING)).findFirst().orElseThrow().state())
                    .isEqualTo(QueryState.FAILED);
        }
    }

    @Test
    void runTimeLimitMustBeADuration()
    {
        try (Engine engine = engine()) {
            assertThatThrownBy(() -> rows(engine.createSession("alice"), "SET SESSION query_max_run_time = 'soon'"))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage("Invalid duration 'soon' for query_max_run_time: expected a number with a unit ms, s, m, h or d, e.g. 30s or 5m");
        }
        assertThatThrownBy(() -> engine(QueryLimits.MAX_CONCURRENT, "-1"))
                .hasMessage("Invalid value '-1' for ontul.query.max-concurrent: expected a whole number, 0 or more");
    }

    @Test
    void aQueryWaitsForTheSlotOfAnOpenResult()
            throws Exception
    {
        try (Engine engine = engine(QueryLimits.MAX_CONCURRENT, "1")) {
            Session alice = engine.createSession("alice");
            Session bob = engine.createSession("bob");
            Session admin = engine.createSession("admin");
            String second = "SELECT count(*) FROM tpch.tiny.nation";
            CompletableFuture<List<List<Object>>> waiting;
            try (QueryResult first = alice.execute("SELECT * FROM tpch.tiny.lineitem")) {
                assertThat(first.nextBatch()).isNotNull();
                waiting = CompletableFuture.supplyAsync(() -> rows(bob, second));
                awaitQueued(engine, second);

                // statements that run no query, and queries of system tables, need no slot
                assertThat(rows(alice, "SHOW SCHEMAS FROM tpch")).contains(List.of("tiny"));
                rows(alice, "SET SESSION query_max_memory = '1GB'");
                assertThat(rows(admin, "SELECT \"user\", state FROM system.runtime.queries WHERE query = '" + second.replace("'", "''") + "'"))
                        .containsExactly(List.of("bob", "QUEUED"));
                assertThat(waiting).isNotDone();
            }
            assertThat(waiting.get()).containsExactly(List.of(25L));
            assertThat(engine.queries().queries("bob")).singleElement().satisfies(query -> {
                assertThat(query.state()).isEqualTo(QueryState.FINISHED);
                assertThat(query.rows()).isEqualTo(1);
            });
        }
    }

    @Test
    void aResultReadToTheEndGivesItsSlotBackBeforeItIsClosed()
            throws Exception
    {
        try (Engine engine = engine(QueryLimits.MAX_CONCURRENT, "1")) {
            QueryResult first = engine.createSession("alice").execute("SELECT * FROM tpch.tiny.nation");
            assertThat(ResultRows.drain(first)).hasSize(25);
            assertThat(rows(engine.createSession("bob"), "SELECT count(*) FROM tpch.tiny.region")).containsExactly(List.of(5L));
            first.close();
        }
    }

    @Test
    void aFullQueueRejectsAndAQueuedQueryCanBeKilled()
            throws Exception
    {
        try (Engine engine = engine(QueryLimits.MAX_CONCURRENT, "1", QueryLimits.MAX_QUEUED, "1")) {
            Session alice = engine.createSession("alice");
            Session bob = engine.createSession("bob");
            Session admin = engine.createSession("admin");
            String queued = "SELECT count(*) FROM tpch.tiny.customer";
            try (QueryResult first = alice.execute("SELECT * FROM tpch.tiny.lineitem")) {
                CompletableFuture<List<List<Object>>> waiting = CompletableFuture.supplyAsync(() -> rows(bob, queued));
                QueryInfo info = awaitQueued(engine, queued);

                assertThatThrownBy(() -> bob.execute("SELECT count(*) FROM tpch.tiny.orders"))
                        .isInstanceOfSatisfying(OntulException.class, e -> {
                            assertThat(e.code()).isEqualTo(ErrorCode.QUERY_QUEUE_FULL);
                            assertThat(e.category()).isEqualTo(ErrorCategory.INSUFFICIENT_RESOURCES);
                        })
                        .hasMessage("Too many queries: 1 are running and 1 waiting, the most ontul.query.max-queued = 1 allows; try again later");

                rows(admin, "CALL system.kill_query('" + info.queryId() + "')");
                assertThatThrownBy(waiting::get)
                        .isInstanceOf(ExecutionException.class)
                        .cause()
                        .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_CANCELLED))
                        .hasMessage("Query " + info.queryId() + " was killed by admin");
                assertThat(engine.queries().query(info.queryId()).orElseThrow().state()).isEqualTo(QueryState.CANCELLED);
                assertThat(first.nextBatch()).isNotNull();
            }
            assertThat(rows(bob, "SELECT count(*) FROM tpch.tiny.orders")).containsExactly(List.of(15000L));
        }
    }

    @Test
    void killingTheRunningQueryFreesItsSlot()
            throws Exception
    {
        try (Engine engine = engine(QueryLimits.MAX_CONCURRENT, "1")) {
            Session alice = engine.createSession("alice");
            Session bob = engine.createSession("bob");
            String second = "SELECT count(*) FROM tpch.tiny.supplier";
            try (QueryResult first = alice.execute("SELECT * FROM tpch.tiny.lineitem")) {
                CompletableFuture<List<List<Object>>> waiting = CompletableFuture.supplyAsync(() -> rows(bob, second));
                awaitQueued(engine, second);
                rows(alice, "CALL system.kill_query('" + first.queryId() + "')");
                assertThat(waiting.get()).containsExactly(List.of(100L));
                assertThatThrownBy(first::nextBatch).hasMessage("Query " + first.queryId() + " was killed by alice");
            }
        }
    }

    @Test
    void finishedQueriesAreForgottenBeyondTheHistorySize()
    {
        try (Engine engine = engine(QueryLimits.MAX_HISTORY, "2")) {
            Session alice = engine.createSession("alice");
            for (int i = 1; i <= 5; i++) {
                rows(alice, "SELECT " + i);
            }
            assertThat(engine.queries().queries("alice")).extracting(QueryInfo::query).containsExactly("SELECT 4", "SELECT 5");
        }
    }

    @Test
    void durations()
    {
        assertThat(Durations.parse("30s", "x")).hasSeconds(30);
        assertThat(Durations.parse("5m", "x")).hasMinutes(5);
        assertThat(Durations.parse("1h", "x")).hasHours(1);
        assertThat(Durations.parse("1.5s", "x")).hasMillis(1500);
        assertThat(Durations.format(Durations.parse("90s", "x"))).isEqualTo("90s");
        assertThat(Durations.format(Durations.parse("120s", "x"))).isEqualTo("2m");
        assertThat(Durations.format(Durations.parse("1.5s", "x"))).isEqualTo("1500ms");
        assertThatThrownBy(() -> Durations.parse("0s", "x")).hasMessage("Invalid duration '0s' for x: it must be at least 1ms");
    }
}
