package io.ontul.catalog.jdbc;

import static io.ontul.catalog.jdbc.JdbcTesting.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * Schemas, tables, views, columns, primary keys and row count estimates as PostgreSQL reports
 * them, names matched exactly or else ignoring case, and schema DDL.
 */
class TestJdbcMetadata
{
    private static final String SCHEMA = "meta_test";

    private static TestingPostgres postgres;
    private static BufferAllocator allocator;
    private static Connector connector;
    private static ConnectorMetadata metadata;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE",
                "DROP SCHEMA IF EXISTS \"Sales\" CASCADE",
                "DROP SCHEMA IF EXISTS created_schema CASCADE",
                "CREATE SCHEMA " + SCHEMA,
                "CREATE TABLE meta_test.customers (id integer PRIMARY KEY, name varchar(30) NOT NULL, city text)",
                "INSERT INTO meta_test.customers VALUES (1, 'Ada', 'London'), (2, 'Grace', NULL), (3, 'Edsger', 'Austin')",
                "ANALYZE meta_test.customers",
                // 1,000 events: 100 days from 2024-01-01, 50 amounts 0.00..73.50, kind NULL in every fourth row, else k0..k2
                "CREATE TABLE meta_test.events (day date, amount numeric(10,2), kind text)",
                "INSERT INTO meta_test.events SELECT DATE '2024-01-01' + (i % 100), (i % 50) * 1.5, CASE WHEN i % 4 = 0 THEN NULL ELSE 'k' || (i % 3) END FROM generate_series(1, 1000) AS i",
                "ANALYZE meta_test.events",
                "CREATE TABLE meta_test.order_lines (order_id integer, line integer, quantity integer, PRIMARY KEY (order_id, line))",
                "CREATE VIEW meta_test.customer_names AS SELECT id, name FROM meta_test.customers",
                "CREATE MATERIALIZED VIEW meta_test.cities AS SELECT DISTINCT city FROM meta_test.customers",
                "CREATE TABLE meta_test.\"MixedCase\" (\"CamelColumn\" integer)",
                "INSERT INTO meta_test.\"MixedCase\" VALUES (42)",
                "CREATE TABLE meta_test.\"Dup\" (id integer)",
                "CREATE TABLE meta_test.\"DUP\" (id integer)",
                "CREATE TABLE meta_test.under_score (id integer)",
                "CREATE TABLE meta_test.underxscore (id integer)",
                "CREATE SEQUENCE meta_test.not_a_table",
                "CREATE SCHEMA \"Sales\"",
                "CREATE TABLE \"Sales\".deals (id integer)");
        allocator = new RootAllocator();
        connector = JdbcTesting.createConnector(postgres, allocator);
        metadata = connector.metadata();
    }

    @AfterAll
    static void tearDown()
    {
        connector.close();
        allocator.close();
    }

    @Test
    void listsSchemasWithoutSystemSchemas()
    {
        assertThat(metadata.listSchemas()).contains("public", SCHEMA, "Sales").doesNotContain("pg_catalog", "information_schema", "pg_toast");
    }

    @Test
    void listsTablesAndViews()
    {
        assertThat(metadata.listTables(SCHEMA)).containsExactly("DUP", "Dup", "MixedCase", "cities", "customer_names", "customers", "events", "order_lines", "under_score", "underxscore");
        assertThat(metadata.listTables("sales")).containsExactly("deals");
        assertThat(metadata.listTables("no_such_schema")).isEmpty();
    }

    @Test
    void describesColumnsPrimaryKeysAndRowCounts()
    {
        TableHandle customers = metadata.getTable(SCHEMA, "customers").orElseThrow();
        assertThat(customers.qualifiedName()).isEqualTo("pg.meta_test.customers");
        assertThat(customers.columns()).isEqualTo(new Schema(List.of(
                new Field("id", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                new Field("name", new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of("ontul.type", "VARCHAR(30)")), null),
                new Field("city", FieldType.nullable(ArrowType.Utf8.INSTANCE), null))));
        assertThat(customers.statistics().uniqueKeys()).containsExactly(List.of("id"));
        assertThat(customers.statistics().rowCount()).isEqualTo(3);

        // pg_stats after ANALYZE: id's n_distinct is -1 (every row), city NULL in one of three rows
        assertThat(customers.statistics().column("id")).isEqualTo(new io.ontul.spi.ColumnStatistics(3, 0, 1, 3));
        assertThat(customers.statistics().column("city").distinctCount()).isEqualTo(2);
        assertThat(customers.statistics().column("city").nullFraction()).isCloseTo(1 / 3.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(customers.statistics().column("city").hasRange()).isFalse();
        TableHandle events = metadata.getTable(SCHEMA, "events").orElseThrow();
        assertThat(events.statistics().column("day")).isEqualTo(new io.ontul.spi.ColumnStatistics(
                100, 0, java.time.LocalDate.of(2024, 1, 1).toEpochDay(), java.time.LocalDate.of(2024, 1, 1).plusDays(99).toEpochDay()));
        assertThat(events.statistics().column("amount")).isEqualTo(new io.ontul.spi.ColumnStatistics(50, 0, 0, 73.5));
        assertThat(events.statistics().column("kind").distinctCount()).isEqualTo(3);
        assertThat(events.statistics().column("kind").nullFraction()).isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-6));

        TableHandle lines = metadata.getTable(SCHEMA, "order_lines").orElseThrow();
        // never analyzed: no column statistics either
        assertThat(lines.statistics().columns()).isEmpty();
        assertThat(lines.statistics().uniqueKeys()).containsExactly(List.of("order_id", "line"));
        // never analyzed: PostgreSQL has no estimate
        assertThat(lines.statistics().isKnown()).isFalse();

        TableHandle view = metadata.getTable(SCHEMA, "customer_names").orElseThrow();
        assertThat(view.statistics().uniqueKeys()).isEmpty();
        assertThat(view.statistics().isKnown()).isFalse();
        assertThat(metadata.getTable(SCHEMA, "cities")).isPresent();
    }

    @Test
    void matchesNamesExactlyOrElseIgnoringCase()
    {
        assertThat(metadata.getTable(SCHEMA, "mixedcase").orElseThrow().table()).isEqualTo("MixedCase");
        assertThat(metadata.getTable(SCHEMA, "MixedCase").orElseThrow().columns().getFields().get(0).getName()).isEqualTo("CamelColumn");
        assertThat(metadata.getTable(SCHEMA, "Dup").orElseThrow().table()).isEqualTo("Dup");
        // two tables match ignoring case: neither is chosen
        assertThat(metadata.getTable(SCHEMA, "dup")).isEmpty();
        assertThat(metadata.getTable("sales", "deals").orElseThrow().schema()).isEqualTo("Sales");
        // '_' is no wildcard
        assertThat(metadata.getTable(SCHEMA, "under_score").orElseThrow().table()).isEqualTo("under_score");
        assertThat(metadata.getTable(SCHEMA, "not_a_table")).isEmpty();
        assertThat(metadata.getTable(SCHEMA, "missing")).isEmpty();
        assertThat(metadata.getTable("missing", "customers")).isEmpty();
    }

    @Test
    void createsAndDropsSchemas()
    {
        metadata.createSchema("created_schema", Map.of());
        assertThat(metadata.listSchemas()).contains("created_schema");
        assertThatThrownBy(() -> metadata.createSchema("created_schema", Map.of()))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS))
                .hasMessage("Schema 'pg.created_schema' already exists");
        assertThatThrownBy(() -> metadata.createSchema("other", Map.of("location", "x")))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Unknown schema property 'location': the jdbc connector takes none");
        metadata.createTable("created_schema", "t", new Schema(List.of(new Field("x", FieldType.nullable(new ArrowType.Int(64, true)), null))));
        assertThatThrownBy(() -> metadata.dropSchema("created_schema"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Schema 'pg.created_schema' is not empty: drop its tables first");
        metadata.dropTable("created_schema", "t");
        metadata.dropSchema("created_schema");
        assertThat(metadata.listSchemas()).doesNotContain("created_schema");
        assertThatThrownBy(() -> metadata.dropSchema("created_schema"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessage("Schema 'pg.created_schema' does not exist");
    }

    @Test
    void sqlSeesSchemasTablesAndViews()
    {
        try (Engine engine = JdbcTesting.createEngine(postgres)) {
            Session session = engine.createSession("test");
            assertThat(JdbcTesting.execute(session, "SHOW SCHEMAS FROM " + CATALOG)).contains(List.of(SCHEMA), List.of("public"));
            assertThat(JdbcTesting.execute(session, "SHOW TABLES FROM " + CATALOG + "." + SCHEMA)).contains(List.of("customers"), List.of("customer_names"));
            assertThat(JdbcTesting.execute(session, "SELECT name FROM " + CATALOG + "." + SCHEMA + ".customer_names WHERE id = 2")).containsExactly(List.of("Grace"));
            assertThat(JdbcTesting.execute(session, "SELECT \"CamelColumn\" FROM " + CATALOG + "." + SCHEMA + ".mixedcase")).containsExactly(List.of(42L));
            assertThat(JdbcTesting.execute(session, "SELECT count(*) FROM " + CATALOG + ".sales.deals")).containsExactly(List.of(0L));
        }
    }
}
