package io.ontul.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.metadata.MetadataStore;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;

/**
 * CREATE/DROP CATALOG kept in the metadata store across restarts, CREATE/DROP SCHEMA and table
 * properties reaching connectors, hidden columns, and the filters and limits pushed into scans.
 */
class TestCatalogStatements
{
    @TempDir
    Path dataDir;

    private Engine engine()
    {
        return Engine.create(new EngineConfig(Map.of(MetadataStore.DATA_DIR, dataDir.toString()), Map.of()));
    }

    @Test
    void runtimeCatalogsSurviveARestartUntilDropped()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            run(session, "CREATE CATALOG scratch USING memory");
            run(session, "CREATE CATALOG IF NOT EXISTS scratch USING memory");
            run(session, "CREATE CATALOG numbers USING recording WITH (row_count = 3)");
            run(session, "CREATE TABLE scratch.\"default\".t (x BIGINT)");
            run(session, "INSERT INTO scratch.\"default\".t VALUES (1), (2)");
            assertThat(rows(session, "SELECT count(*) FROM scratch.\"default\".t")).containsExactly(List.of(2L));
            assertThat(rows(session, "SHOW CATALOGS")).contains(List.of("numbers"), List.of("scratch"));
        }
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            assertThat(rows(session, "SHOW CATALOGS")).contains(List.of("numbers"), List.of("scratch"));
            assertThat(rows(session, "SELECT sum(n) FROM numbers.\"default\".numbers")).containsExactly(List.of(6L));
            run(session, "DROP CATALOG scratch");
            run(session, "DROP CATALOG IF EXISTS scratch");
            assertFails(session, "SELECT * FROM scratch.\"default\".t", ErrorCode.NOT_FOUND, "scratch");
        }
        try (Engine engine = engine()) {
            assertThat(rows(engine.createSession("admin"), "SHOW CATALOGS")).contains(List.of("numbers")).doesNotContain(List.of("scratch"));
        }
    }

    @Test
    void badCatalogStatementsNameTheProblem()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            assertFails(session, "CREATE CATALOG x USING nope", ErrorCode.INVALID_ARGUMENT, "Catalog 'x': unknown connector.name 'nope' (available: [");
            assertFails(session, "CREATE CATALOG x USING recording WITH (\"rowcount\" = 5)", ErrorCode.INVALID_ARGUMENT, "Catalog 'x': unknown property 'rowcount'");
            assertFails(session, "CREATE CATALOG tpch USING memory", ErrorCode.ALREADY_EXISTS, "Catalog 'tpch' already exists");
            assertFails(session, "DROP CATALOG tpch", ErrorCode.INVALID_ARGUMENT, "Catalog 'tpch' is configured in conf/catalogs/tpch.properties or built in");
            assertFails(session, "DROP CATALOG nope", ErrorCode.NOT_FOUND, "line 1:14: Catalog 'nope' does not exist");
            assertFails(session, "CREATE CATALOG x USING recording WITH (row_count = 1, row_count = 2)", ErrorCode.INVALID_ARGUMENT, "line 1:55: Property 'row_count' is given more than once");
            assertFails(session, "CREATE CATALOG x USING recording WITH (row_count = ARRAY[1])", ErrorCode.INVALID_ARGUMENT, "Property 'row_count' must be a single value, not an ARRAY");
            assertFails(session, "CREATE CATALOG x USING recording WITH (row_count = 1 + 1)", ErrorCode.INVALID_ARGUMENT,
                    "line 1:52: Property 'row_count' must be a string, number or boolean literal or an ARRAY of them");
            assertThat(engine.catalogs().names()).doesNotContain("x");
            assertThat(engine.metadata().catalogs().list()).isEmpty();
        }
    }

    @Test
    void catalogSecretsAreEncryptedOnDisk()
            throws Exception
    {
        String password = "s3cr3t-" + System.nanoTime();
        try (Engine engine = engine()) {
            run(engine.createSession("admin"), "CREATE CATALOG numbers USING recording WITH (row_count = 2, password = '" + password + "')");
        }
        try (Engine engine = engine()) {
            assertThat(rows(engine.createSession("admin"), "SELECT count(*) FROM numbers.\"default\".numbers")).containsExactly(List.of(2L));
        }
        List<Path> files;
        try (var paths = java.nio.file.Files.walk(dataDir)) {
            files = paths.filter(java.nio.file.Files::isRegularFile).toList();
        }
        assertThat(files).extracting(path -> path.getFileName().toString()).anyMatch(name -> name.endsWith(".mv.db"));
        for (Path file : files) {
            assertThat(new String(java.nio.file.Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1)).as("%s", file).doesNotContain(password);
        }
    }

    @Test
    void catalogPropertiesAreMaskedInTheQueryHistory()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            run(session, "CREATE CATALOG numbers USING recording WITH (row_count = '4')");
            assertThat(rows(session, "SELECT query FROM system.runtime.queries WHERE query LIKE 'CREATE CATALOG%'"))
                    .containsExactly(List.of("CREATE CATALOG numbers USING recording WITH (row_count = '***')"));
        }
    }

    @Test
    void schemaStatementsAndTablePropertiesReachTheConnector()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            assertFails(session, "CREATE SCHEMA tpch.staging", ErrorCode.NOT_SUPPORTED, "Catalog does not support CREATE SCHEMA");
            assertFails(session, "DROP SCHEMA tpch.tiny", ErrorCode.NOT_SUPPORTED, "Catalog does not support DROP SCHEMA");
            // memory schemas come and go; default stays
            run(session, "CREATE SCHEMA memory.staging");
            assertFails(session, "CREATE SCHEMA memory.staging", ErrorCode.ALREADY_EXISTS, "Schema 'memory.staging' already exists");
            run(session, "CREATE TABLE memory.staging.t AS SELECT 1 AS x");
            assertThat(rows(session, "SELECT x FROM memory.staging.t")).containsExactly(List.of(1L));
            assertThat(rows(session, "SHOW SCHEMAS FROM memory")).contains(List.of("default"), List.of("staging"));
            assertFails(session, "DROP SCHEMA memory.staging", ErrorCode.INVALID_ARGUMENT, "Schema 'memory.staging' is not empty: it has 1 table(s)");
            run(session, "DROP TABLE memory.staging.t");
            run(session, "DROP SCHEMA memory.staging");
            assertFails(session, "CREATE TABLE memory.staging.t (x INTEGER)", ErrorCode.NOT_FOUND, "Schema 'memory.staging' does not exist");
            assertFails(session, "DROP SCHEMA memory.\"default\"", ErrorCode.INVALID_ARGUMENT, "Schema 'memory.default' is the memory catalog's own and cannot be dropped");
            run(session, "CREATE SCHEMA IF NOT EXISTS memory.\"default\"");
            assertFails(session, "DROP SCHEMA memory.nope", ErrorCode.NOT_FOUND, "Schema 'memory.nope' does not exist");
            run(session, "DROP SCHEMA IF EXISTS memory.nope");
            assertFails(session, "CREATE TABLE memory.\"default\".t (x BIGINT) WITH (partitioning = ARRAY['x'], 'format-version' = -2)",
                    ErrorCode.INVALID_ARGUMENT, "Memory tables have no properties: [partitioning, format-version]");
            assertFails(session, "CREATE TABLE memory.\"default\".t WITH (a = true) AS SELECT 1 AS x",
                    ErrorCode.INVALID_ARGUMENT, "Memory tables have no properties: [a]");
            assertFails(session, "SELECT * FROM memory.\"default\".t", ErrorCode.NOT_FOUND, "memory.default.t");
        }
    }

    @Test
    void hiddenColumnsAreLeftOutOfTheStarButSelectableByName()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            run(session, "CREATE CATALOG numbers USING recording WITH (row_count = 3)");
            try (QueryResult result = session.execute("SELECT * FROM numbers.\"default\".numbers")) {
                assertThat(result.schema().getFields()).extracting(field -> field.getName()).containsExactly("n", "twice");
                assertThat(ResultRows.drain(result)).containsExactly(List.of(1L, 2L), List.of(2L, 4L), List.of(3L, 6L));
            }
            assertThat(rows(session, "SELECT _row, n FROM numbers.\"default\".numbers WHERE _row > 0")).containsExactly(List.of(1L, 2L), List.of(2L, 3L));
            assertThat(rows(session, "SELECT count(*) FROM (SELECT * FROM numbers.\"default\".numbers) WHERE n IN (SELECT max(_row) FROM numbers.\"default\".numbers)"))
                    .containsExactly(List.of(1L));
            assertThat(rows(session, "DESCRIBE numbers.\"default\".numbers")).extracting(row -> row.get(0)).contains("_row");
            // a star over a USING join keeps the hidden columns (Calcite lines its columns up by position)
            try (QueryResult result = session.execute("SELECT * FROM numbers.\"default\".numbers a JOIN numbers.\"default\".numbers b USING (n)")) {
                assertThat(result.schema().getFields()).extracting(field -> field.getName()).containsExactly("n", "twice", "_row", "twice0", "_row0");
                assertThat(ResultRows.drain(result)).hasSize(3);
            }

            RecordingConnectorFactory.WRITTEN.clear();
            run(session, "INSERT INTO numbers.\"default\".numbers VALUES (7, 14)");
            run(session, "INSERT INTO numbers.\"default\".numbers (twice, n) SELECT twice, n FROM numbers.\"default\".numbers WHERE n = 1");
            assertThat(RecordingConnectorFactory.WRITTEN).containsExactly("7,14,null", "1,2,null");
            assertFails(session, "INSERT INTO numbers.\"default\".numbers (n, _row) VALUES (1, 2)", ErrorCode.INVALID_ARGUMENT,
                    "line 1:43: Column '_row' of table 'numbers.default.numbers' is hidden and cannot be written");
            assertFails(session, "INSERT INTO numbers.\"default\".numbers VALUES (1, 2, 3)", ErrorCode.INVALID_ARGUMENT,
                    "Number of INSERT target columns (2) does not equal number of source items (3)");
        }
    }

    @Test
    void filtersAndLimitsGoDownToTheScan()
    {
        try (Engine engine = engine()) {
            Session session = engine.createSession("admin");
            run(session, "CREATE CATALOG numbers USING recording");
            ScanSpec scan = scanOf(session, "SELECT n FROM numbers.\"default\".numbers WHERE (n = 1 OR n = 3 OR n = 5) AND (twice < 4 OR _row IS NULL) AND 7 > twice LIMIT 2",
                    List.of(List.of(1L)));
            assertThat(scan.predicates()).containsExactlyInAnyOrder(
                    new ColumnPredicate("n", Operator.IN, List.of(1L, 3L, 5L)),
                    new ColumnPredicate("twice", Operator.LESS_THAN, List.of(7L)));
            assertThat(scan.disjunctions()).containsExactly(List.of(
                    new ColumnPredicate("twice", Operator.LESS_THAN, List.of(4L)),
                    new ColumnPredicate("_row", Operator.IS_NULL, List.of())));
            assertThat(scan.limit()).isEqualTo(OptionalLong.of(2));

            // a filter that cannot all go down keeps the limit in the engine
            scan = scanOf(session, "SELECT n FROM numbers.\"default\".numbers WHERE n + twice > 5 AND n > 1 LIMIT 2", List.of(List.of(2L), List.of(3L)));
            assertThat(scan.predicates()).containsExactly(new ColumnPredicate("n", Operator.GREATER_THAN, List.of(1L)));
            assertThat(scan.limit()).isEmpty();

            scan = scanOf(session, "SELECT n FROM numbers.\"default\".numbers LIMIT 3 OFFSET 4", List.of(List.of(5L), List.of(6L), List.of(7L)));
            assertThat(scan.limit()).isEqualTo(OptionalLong.of(7));
        }
    }

    private static ScanSpec scanOf(Session session, String sql, List<List<Object>> expected)
    {
        RecordingConnectorFactory.SCANS.clear();
        assertThat(rows(session, sql)).containsExactlyElementsOf(expected);
        assertThat(RecordingConnectorFactory.SCANS).hasSize(1);
        return RecordingConnectorFactory.SCANS.get(0);
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
