package io.ontul.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.metadata.MetadataStore;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code connector.name=blackhole}: tables whose definitions survive a restart and whose rows
 * are counted and discarded (INSERT reports the count TPC-H's generator gives, a scan reads none).
 */
class TestBlackholeCatalog
{
    @TempDir
    Path dataDir;

    private Engine engine()
    {
        return Engine.create(new EngineConfig(Map.of(MetadataStore.DATA_DIR, dataDir.toString()), Map.of()));
    }

    @Test
    void tablesKeepTheirColumnsAndNoRows()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            run(session, "CREATE CATALOG sink USING blackhole");
            run(session, "CREATE TABLE sink.\"default\".orders (o_orderkey BIGINT NOT NULL, o_comment VARCHAR(79), o_totalprice DECIMAL(15, 2))");
            assertThat(rows(session, "INSERT INTO sink.\"default\".orders SELECT o_orderkey, o_comment, o_totalprice FROM tpch.tiny.orders"))
                    .containsExactly(List.of(15000L));
            assertThat(rows(session, "SELECT count(*), max(o_orderkey) FROM sink.\"default\".orders")).containsExactly(java.util.Arrays.asList(0L, null));
            run(session, "CREATE SCHEMA sink.staging");
            run(session, "CREATE TABLE sink.staging.copy AS SELECT * FROM tpch.tiny.nation");
            assertFails(session, "CREATE TABLE sink.staging.copy (x BIGINT)", ErrorCode.ALREADY_EXISTS, "Table 'sink.staging.copy' already exists");
            assertFails(session, "CREATE TABLE sink.nowhere.t (x BIGINT)", ErrorCode.NOT_FOUND, "Schema 'sink.nowhere' does not exist");
            assertFails(session, "CREATE TABLE sink.\"default\".t (x BIGINT) WITH (format = 'parquet')", ErrorCode.INVALID_ARGUMENT, "take no properties");
            assertFails(session, "CREATE CATALOG other USING blackhole WITH (\"any\" = 'x')", ErrorCode.INVALID_ARGUMENT, "unknown property 'any'");
        }
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            assertThat(rows(session, "SHOW TABLES FROM sink.staging")).containsExactly(List.of("copy"));
            assertThat(rows(session, "SELECT column_name, data_type FROM sink.information_schema.columns WHERE table_name = 'orders' ORDER BY ordinal_position"))
                    .containsExactly(List.of("o_orderkey", "BIGINT"), List.of("o_comment", "VARCHAR(79)"), List.of("o_totalprice", "DECIMAL(15,2)"));
            assertFails(session, "INSERT INTO sink.\"default\".orders VALUES (NULL, 'x', 1.5)", ErrorCode.INVALID_ARGUMENT, "o_orderkey");
            run(session, "DROP TABLE sink.staging.copy");
            run(session, "DROP SCHEMA sink.staging");
            assertFails(session, "SELECT * FROM sink.staging.copy", ErrorCode.NOT_FOUND, "Schema 'sink.staging' does not exist");
        }
    }

    private static void run(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            ResultRows.drain(result);
        }
    }

    private static List<List<Object>> rows(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private static void assertFails(Session session, String sql, ErrorCode code, String message)
    {
        assertThatThrownBy(() -> run(session, sql))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(code))
                .hasMessageContaining(message);
    }
}
