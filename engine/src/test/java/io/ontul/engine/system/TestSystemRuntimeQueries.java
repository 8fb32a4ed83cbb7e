package io.ontul.engine.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.query.QueryInfo;
import io.ontul.engine.query.QueryState;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.ErrorCategory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TestSystemRuntimeQueries
{
    // 60,175 x 60,175 rows: never ends within a test, so it is still running when it is killed
    private static final String ENDLESS = "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b";

    private static Engine engine;

    @BeforeAll
    static void start()
    {
        engine = Engine.createEmbedded();
    }

    @AfterAll
    static void stop()
    {
        engine.close();
    }

    private static List<List<Object>> rows(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private static List<Object> row(Session session, String queryId)
    {
        List<List<Object>> rows = rows(session, "SELECT state, \"rows\", \"user\", error FROM system.runtime.queries WHERE query_id = '" + queryId + "'");
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    @Test
    void finishedQueriesShowTheirRowCounts()
    {
        Session alice = engine.createSession("alice");
        String nation;
        try (QueryResult result = alice.execute("SELECT * FROM tpch.tiny.nation")) {
            nation = result.queryId();
            assertThat(ResultRows.drain(result)).hasSize(25);
        }
        assertThat(row(alice, nation)).containsExactly("FINISHED", 25L, "alice", null);

        String region;
        try (QueryResult result = alice.execute("SELECT r_name FROM tpch.tiny.region WHERE r_regionkey < 3")) {
            region = result.queryId();
            ResultRows.drain(result);
        }
        assertThat(row(alice, region)).containsExactly("FINISHED", 3L, "alice", null);

        List<List<Object>> figures = rows(alice, "SELECT bytes, peak_memory_bytes, elapsed_ms, query, created FROM system.runtime.queries WHERE query_id = '" + nation + "'");
        assertThat((Long) figures.get(0).get(0)).isPositive();
        assertThat((Long) figures.get(0).get(1)).isPositive();
        assertThat((Long) figures.get(0).get(2)).isNotNegative();
        assertThat(figures.get(0).get(3)).isEqualTo("SELECT * FROM tpch.tiny.nation");
        assertThat(figures.get(0).get(4)).isNotNull();
    }

    @Test
    void spillingQueriesShowWhatTheySpilled()
    {
        Session alice = engine.createSession("alice");
        alice.properties().put("query_max_memory", "48MB");
        String sort;
        try (QueryResult result = alice.execute("SELECT * FROM tpch.sf0_1.lineitem ORDER BY l_comment")) {
            sort = result.queryId();
            long rows = 0;
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                rows += batch.getRowCount();
            }
            assertThat(rows).isEqualTo(600_572L);
        }
        String small;
        try (QueryResult result = alice.execute("SELECT * FROM tpch.tiny.nation ORDER BY n_name")) {
            small = result.queryId();
            assertThat(ResultRows.drain(result)).hasSize(25);
        }

        String figures = "SELECT spilled_bytes, spill_files FROM system.runtime.queries WHERE query_id = ";
        List<Object> spilled = rows(alice, figures + "'" + sort + "'").get(0);
        assertThat((Long) spilled.get(0)).isPositive();
        assertThat((Long) spilled.get(1)).isPositive();
        assertThat(engine.queries().query(sort).orElseThrow().spilledBytes()).isEqualTo(spilled.get(0));
        assertThat(rows(alice, figures + "'" + small + "'")).containsExactly(List.of(0L, 0L));
    }

    @Test
    void statementsThatChangeDataShowTheirUpdateCount()
    {
        Session alice = engine.createSession("alice");
        String create;
        try (QueryResult result = alice.execute("CREATE TABLE memory.default.regions_copy AS SELECT * FROM tpch.tiny.region")) {
            create = result.queryId();
            ResultRows.drain(result);
        }
        try {
            assertThat(row(alice, create)).containsExactly("FINISHED", 5L, "alice", null);
        }
        finally {
            rows(alice, "DROP TABLE memory.default.regions_copy");
        }
    }

    @Test
    void failedStatementsShowTheirError()
    {
        Session alice = engine.createSession("alice");
        assertThatThrownBy(() -> alice.execute("SELECT * FROM tpch.tiny.no_such_table")).isInstanceOf(OntulException.class);
        List<List<Object>> rows = rows(alice, "SELECT state, error FROM system.runtime.queries WHERE query = 'SELECT * FROM tpch.tiny.no_such_table'");
        assertThat(rows).containsExactly(List.of("FAILED", "line 1:15: Table 'tpch.tiny.no_such_table' does not exist"));
    }

    @Test
    void aRunningQueryIsShownWithTheRowsReadSoFar()
    {
        Session alice = engine.createSession("alice");
        try (QueryResult result = alice.execute("SELECT l_orderkey FROM tpch.sf1.lineitem")) {
            VectorSchemaRoot batch = result.nextBatch();
            long read = batch.getRowCount();
            assertThat(row(alice, result.queryId())).containsExactly("RUNNING", read, "alice", null);
            // the query that reads the table sees itself running
            assertThat(rows(alice, "SELECT state FROM system.runtime.queries WHERE query LIKE 'SELECT state FROM system.runtime.queries WHERE query LIKE%'"))
                    .containsExactly(List.of("RUNNING"));
        }
    }

    @Test
    void usersSeeTheirOwnQueriesAndAdminSeesAll()
    {
        Session carol = engine.createSession("carol");
        Session dave = engine.createSession("dave");
        Session admin = engine.createSession("admin");
        rows(carol, "SELECT 1");
        rows(dave, "SELECT 2");

        assertThat(rows(carol, "SELECT DISTINCT \"user\" FROM system.runtime.queries")).containsExactly(List.of("carol"));
        assertThat(rows(dave, "SELECT DISTINCT \"user\" FROM system.runtime.queries")).containsExactly(List.of("dave"));
        assertThat(rows(admin, "SELECT DISTINCT \"user\" FROM system.runtime.queries WHERE \"user\" IN ('carol', 'dave', 'admin') ORDER BY 1"))
                .containsExactly(List.of("admin"), List.of("carol"), List.of("dave"));
    }

    @Test
    void adminKillsAQueryWhoseResultIsOpen()
    {
        Session alice = engine.createSession("alice");
        Session admin = engine.createSession("admin");
        try (QueryResult result = alice.execute("SELECT l_orderkey FROM tpch.sf1.lineitem")) {
            assertThat(result.nextBatch()).isNotNull();
            try (QueryResult kill = admin.execute("CALL system.kill_query('" + result.queryId() + "')")) {
                assertThat(kill.isUpdate()).isTrue();
            }
            assertThatThrownBy(result::nextBatch)
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_CANCELLED))
                    .hasMessage("Query " + result.queryId() + " was killed by admin");
            List<Object> killed = row(alice, result.queryId());
            assertThat(killed.get(0)).isEqualTo("CANCELLED");
            assertThat(killed.get(3)).isEqualTo("Query " + result.queryId() + " was killed by admin");
        }
        assertThat(rows(alice, "SELECT count(*) FROM tpch.tiny.nation")).containsExactly(List.of(25L));
    }

    @Test
    void killStopsAQueryWhileItComputes()
            throws Exception
    {
        Session alice = engine.createSession("alice");
        Session admin = engine.createSession("admin");
        QueryResult result = alice.execute(ENDLESS);
        CompletableFuture<VectorSchemaRoot> reading = CompletableFuture.supplyAsync(result::nextBatch);
        try (QueryResult kill = admin.execute("CALL system.kill_query(query_id => '" + result.queryId() + "')")) {
            assertThat(kill.isUpdate()).isTrue();
        }
        assertThatThrownBy(reading::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_CANCELLED))
                .hasMessage("Query " + result.queryId() + " was killed by admin");
        result.close();
        assertThat(rows(alice, "SELECT count(*) FROM tpch.tiny.region")).containsExactly(List.of(5L));
        QueryInfo info = engine.queries().query(result.queryId()).orElseThrow();
        assertThat(info.state()).isEqualTo(QueryState.CANCELLED);
    }

    @Test
    void usersKillTheirOwnQueriesButNotOthers()
    {
        Session alice = engine.createSession("alice");
        Session bob = engine.createSession("bob");
        try (QueryResult result = alice.execute("SELECT l_orderkey FROM tpch.sf1.lineitem")) {
            assertThatThrownBy(() -> bob.execute("CALL system.kill_query('" + result.queryId() + "')"))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
                    .hasMessage("Access denied: user 'bob' cannot kill query " + result.queryId() + " of another user; only an administrator can");
            assertThat(result.nextBatch()).isNotNull();

            rows(alice, "CALL system.runtime.kill_query('" + result.queryId() + "')");
            assertThatThrownBy(result::nextBatch).hasMessage("Query " + result.queryId() + " was killed by alice");
        }
    }

    @Test
    void killNamesWhatIsWrong()
    {
        Session admin = engine.createSession("admin");
        assertThatThrownBy(() -> admin.execute("CALL system.kill_query('20200101_000000_00001_nosuch')"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessage("Query '20200101_000000_00001_nosuch' does not exist");

        String finished;
        try (QueryResult result = admin.execute("SELECT 1")) {
            finished = result.queryId();
            ResultRows.drain(result);
        }
        assertThatThrownBy(() -> admin.execute("CALL system.kill_query('" + finished + "')"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Query " + finished + " is not running: it is already FINISHED");

        assertThatThrownBy(() -> admin.execute("CALL system.kill_query(42)"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageStartingWith("line 1:24: system.kill_query takes one argument, the query id as a string");
        assertThatThrownBy(() -> admin.execute("CALL system.stop_everything()"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessage("line 1:6: Procedure 'system.stop_everything' does not exist (available: system.kill_query)");
    }

    @Test
    void theCatalogListsItsTable()
    {
        Session alice = engine.createSession("alice");
        // an embedded engine allows everything, the audit schema (empty here: no users, no audit log) too
        assertThat(rows(alice, "SHOW SCHEMAS FROM system")).containsExactly(List.of("audit"), List.of("information_schema"), List.of("jdbc"), List.of("runtime"));
        assertThat(rows(alice, "SELECT count(*) FROM system.audit.events")).containsExactly(List.of(0L));
        assertThat(rows(alice, "SHOW TABLES FROM system.jdbc")).containsExactly(List.of("types"));
        // the types JDBC's getTypeInfo reports, ordered by JDBC type code
        assertThat(rows(alice, "SELECT type_name, data_type, create_params FROM system.jdbc.types WHERE type_name IN ('BIGINT', 'DECIMAL', 'VARCHAR') ORDER BY data_type"))
                .containsExactly(java.util.Arrays.asList("BIGINT", -5L, null), List.of("DECIMAL", 3L, "precision,scale"), List.of("VARCHAR", 12L, "length"));
        assertThat(rows(alice, "SHOW TABLES FROM system.runtime")).containsExactly(List.of("nodes"), List.of("queries"), List.of("stream_tasks"));
        // a single engine is the cluster with one member, of role all; the query reading the table runs on it
        assertThat(rows(alice, "SELECT role, state, cores = " + Runtime.getRuntime().availableProcessors() + ", memory_max_bytes > 0, running_tasks >= 1 FROM system.runtime.nodes"))
                .containsExactly(List.of("all", "active", true, true, true));
        assertThat(rows(alice, "SELECT count(*) FROM system.runtime.stream_tasks")).as("no streaming job runs").containsExactly(List.of(0L));
        assertThat(rows(alice, "SHOW COLUMNS FROM system.runtime.queries")).containsExactly(
                List.of("query_id", "VARCHAR", "NO"),
                List.of("user", "VARCHAR", "NO"),
                List.of("state", "VARCHAR", "NO"),
                List.of("query", "VARCHAR", "NO"),
                List.of("created", "TIMESTAMP(3)", "NO"),
                List.of("elapsed_ms", "BIGINT", "NO"),
                List.of("rows", "BIGINT", "NO"),
                List.of("bytes", "BIGINT", "NO"),
                List.of("peak_memory_bytes", "BIGINT", "NO"),
                List.of("spilled_bytes", "BIGINT", "NO"),
                List.of("spill_files", "BIGINT", "NO"),
                List.of("exchanged_bytes", "BIGINT", "NO"),
                List.of("error", "VARCHAR", "YES"));
        assertThatThrownBy(() -> alice.execute("INSERT INTO system.runtime.queries SELECT * FROM system.runtime.queries"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.category()).isEqualTo(ErrorCategory.USER_ERROR));
    }
}
