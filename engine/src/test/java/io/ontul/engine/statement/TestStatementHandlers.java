package io.ontul.engine.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.tree.SqlCreateTableWithProperties;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** The one registry of statement handlers: every family reached through it, subclasses found, the rest refused. */
class TestStatementHandlers
{
    private static Engine engine;
    private static Session session;

    @BeforeAll
    static void setUp()
    {
        engine = Engine.create(EngineConfig.embeddedDefaults());
        session = engine.createSession("admin");
    }

    @AfterAll
    static void tearDown()
    {
        engine.close();
    }

    @Test
    void everyFamilyRunsThroughTheRegistry()
    {
        // session
        update("USE memory.default");
        update("SET SESSION query_max_run_time = '1m'");
        update("RESET SESSION query_max_run_time");
        // DDL, a subclass (CREATE TABLE with properties) found by its superclass's handler
        update("CREATE SCHEMA IF NOT EXISTS memory.\"default\"");
        update("CREATE TABLE memory.\"default\".handled (id INTEGER, name VARCHAR)");
        // DML and queries
        assertThat(update("INSERT INTO handled VALUES (1, 'one'), (2, 'two')")).isEqualTo(2);
        assertThat(column("SELECT name FROM handled WHERE id > 1")).containsExactly("two");
        assertThat(column("SELECT name FROM handled ORDER BY id DESC")).containsExactly("two", "one");
        assertThat(column("WITH x AS (SELECT id FROM handled) SELECT CAST(count(*) AS VARCHAR) FROM x")).containsExactly("2");
        assertThat(String.join("\n", column("EXPLAIN SELECT id FROM handled"))).contains("Scan");
        // catalogs and metadata
        assertThat(column("SHOW SCHEMAS FROM memory LIKE 'def%'")).containsExactly("default");
        assertThat(column("SHOW TABLES FROM memory.\"default\" LIKE 'hand%'")).containsExactly("handled");
        assertThat(column("DESCRIBE handled")).containsExactly("id", "name");
        assertThat(column("SHOW CATALOGS")).contains("memory", "system");
        // streaming jobs and procedures
        assertThat(column("SHOW STREAMING JOBS")).isEmpty();
        assertThatThrownBy(() -> session.execute("CALL system.runtime.kill_query('no-such-query')").close())
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));

        update("DROP TABLE handled");
        assertThat(column("SHOW TABLES FROM memory.\"default\" LIKE 'hand%'")).isEmpty();
    }

    @Test
    void statementWithoutHandlerIsRefusedWithItsPosition()
    {
        SqlNode describe = OntulParser.parse("DESCRIBE SCHEMA memory.default");
        assertThatThrownBy(() -> StatementHandlers.STANDARD.execute(describe, null))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessage("line 1:1: Statement is not supported: DESCRIBE_SCHEMA");
        // and through a session, which keeps serving afterwards
        assertThatThrownBy(() -> session.execute("DESCRIBE SCHEMA memory.default").close())
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("Statement is not supported: DESCRIBE_SCHEMA");
        assertThat(column("SELECT CAST(1 + 1 AS VARCHAR)")).containsExactly("2");
    }

    @Test
    void registryNamesStatementClassesNotTheirSubclasses()
    {
        List<Class<? extends SqlNode>> classes = StatementHandlers.STANDARD.statementClasses();
        assertThat(classes).doesNotHaveDuplicates().doesNotContain(SqlCreateTableWithProperties.class);
        assertThat(classes).anySatisfy(type -> assertThat(SqlCreateTableWithProperties.class.getSuperclass()).isEqualTo(type));
    }

    private static long update(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            assertThat(result.isUpdate()).isTrue();
            return ((BigIntVector) result.nextBatch().getVector(0)).get(0);
        }
    }

    private static List<String> column(String sql)
    {
        List<String> values = new ArrayList<>();
        try (QueryResult result = session.execute(sql)) {
            assertThat(result.isUpdate()).isFalse();
            VectorSchemaRoot root;
            while ((root = result.nextBatch()) != null) {
                VarCharVector vector = (VarCharVector) root.getVector(0);
                for (int row = 0; row < root.getRowCount(); row++) {
                    values.add(vector.getObject(row).toString());
                }
            }
        }
        return values;
    }
}
