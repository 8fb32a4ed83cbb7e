package io.ontul.catalog.jdbc;

import static io.ontul.catalog.jdbc.JdbcTesting.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.TableHandle;

/**
 * Every PostgreSQL type the connector maps, NULLs, and the types it leaves out, read through the
 * SPI and through SQL.
 */
class TestJdbcTypeMapping
{
    private static final String SCHEMA = "types_test";

    private static TestingPostgres postgres;
    private static BufferAllocator allocator;
    private static Connector connector;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE",
                "CREATE SCHEMA " + SCHEMA,
                "CREATE TYPE " + SCHEMA + ".mood AS ENUM ('sad', 'happy')",
                """
                CREATE TABLE types_test.all_types (
                    id integer PRIMARY KEY,
                    c_smallint smallint,
                    c_integer integer,
                    c_bigint bigint,
                    c_numeric numeric(12, 3),
                    c_numeric_plain numeric,
                    c_real real,
                    c_double double precision,
                    c_text text,
                    c_varchar varchar(20),
                    c_char char(5),
                    c_bool boolean,
                    c_date date,
                    c_timestamp timestamp,
                    c_timestamp3 timestamp(3),
                    c_timestamptz timestamptz,
                    c_time time,
                    c_uuid uuid,
                    c_int_array integer[],
                    c_json json,
                    c_jsonb jsonb,
                    c_bytea bytea,
                    c_interval interval,
                    c_money money,
                    c_mood types_test.mood)
                """,
                """
                INSERT INTO types_test.all_types VALUES (
                    1, -32768, 2147483647, 9223372036854775807, 123456789.123, 12345.678901234567, 1.5, 2.25,
                    'hello ✓', 'varchar', 'ab', true, DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:05.123456',
                    TIMESTAMP '2024-01-02 03:04:05.123', TIMESTAMPTZ '2024-01-02 03:04:05.123456+02', TIME '13:14:15.678',
                    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ARRAY[1, 2], '{"a": 1}', '{"b": 2}', '\\x0102', INTERVAL '1 day', 12.5, 'happy')
                """,
                "INSERT INTO types_test.all_types (id) VALUES (2)",
                "CREATE TABLE types_test.huge (id integer, amount numeric)",
                "INSERT INTO types_test.huge VALUES (1, 12345678901234567890123456789.5)");
        allocator = new RootAllocator();
        connector = JdbcTesting.createConnector(postgres, allocator);
    }

    @AfterAll
    static void tearDown()
    {
        connector.close();
        allocator.close();
    }

    @Test
    void mapsColumnTypesAndLeavesOutUnsupportedOnes()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "all_types").orElseThrow();
        List<Field> fields = table.columns().getFields();
        assertThat(fields.stream().map(Field::getName)).containsExactly(
                "id", "c_smallint", "c_integer", "c_bigint", "c_numeric", "c_numeric_plain", "c_real", "c_double", "c_text", "c_varchar", "c_char",
                "c_bool", "c_date", "c_timestamp", "c_timestamp3", "c_timestamptz", "c_time", "c_uuid", "c_int_array", "c_bytea", "c_mood");
        assertThat(fields.stream().map(Field::getType)).containsExactly(
                new ArrowType.Int(32, true),
                new ArrowType.Int(16, true),
                new ArrowType.Int(32, true),
                new ArrowType.Int(64, true),
                new ArrowType.Decimal(12, 3, 128),
                new ArrowType.Decimal(38, 10, 128),
                new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
                new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
                ArrowType.Utf8.INSTANCE,
                ArrowType.Utf8.INSTANCE,
                ArrowType.Utf8.INSTANCE,
                ArrowType.Bool.INSTANCE,
                new ArrowType.Date(DateUnit.DAY),
                new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
                new ArrowType.Timestamp(TimeUnit.MILLISECOND, null),
                new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
                new ArrowType.Time(TimeUnit.MILLISECOND, 32),
                ArrowType.Utf8.INSTANCE,
                ArrowType.List.INSTANCE,
                ArrowType.Binary.INSTANCE,
                ArrowType.Utf8.INSTANCE);
        assertThat(fields.get(0).isNullable()).isFalse();
        assertThat(fields.get(1).isNullable()).isTrue();
        assertThat(fields.get(8).getMetadata()).isEmpty();
        assertThat(fields.get(9).getMetadata()).containsEntry("ontul.type", "VARCHAR(20)");
        assertThat(fields.get(10).getMetadata()).containsEntry("ontul.type", "CHAR(5)");
        assertThat(fields.get(17).getMetadata()).as("uuid is Ontul's UUID").containsEntry("ontul.type", "UUID");
        assertThat(fields.get(18).getChildren()).as("integer[] is ARRAY(INTEGER)").containsExactly(Field.nullable("element", new ArrowType.Int(32, true)));
        assertThat(table.statistics().uniqueKeys()).containsExactly(List.of("id"));
    }

    @Test
    void readsValuesAndNulls()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "all_types").orElseThrow();
        List<String> columns = table.columns().getFields().stream().map(Field::getName).toList();
        List<List<Object>> rows = JdbcTesting.read(connector, table, new ScanSpec(columns, List.of()), 1, allocator);
        rows.sort((left, right) -> Long.compare((Long) left.get(0), (Long) right.get(0)));
        assertThat(rows.get(0)).containsExactly(
                1L, -32768L, 2147483647L, Long.MAX_VALUE, new BigDecimal("123456789.123"), new BigDecimal("12345.6789012346"), 1.5, 2.25,
                "hello ✓", "varchar", "ab   ", true, LocalDate.of(2024, 2, 29),
                LocalDateTime.parse("2024-01-02T03:04:05.123456"),
                LocalDateTime.parse("2024-01-02T03:04:05.123"),
                // timestamptz is TIMESTAMP WITH TIME ZONE: the instant
                java.time.Instant.parse("2024-01-02T01:04:05.123456Z"),
                LocalDateTime.parse("1970-01-01T13:14:15.678"),
                "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                List.of(1L, 2L),
                new byte[] {1, 2},
                "happy");
        Object[] nulls = new Object[columns.size()];
        nulls[0] = 2L;
        assertThat(rows.get(1)).containsExactly(nulls);
    }

    @Test
    void pushesPredicatesOfEveryComparableType()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "all_types").orElseThrow();
        Map<String, Object> pushed = new LinkedHashMap<>();
        pushed.put("c_smallint", -32768L);
        pushed.put("c_integer", 2147483647L);
        pushed.put("c_bigint", Long.MAX_VALUE);
        pushed.put("c_numeric", new BigDecimal("123456789.123"));
        pushed.put("c_real", 1.5);
        pushed.put("c_double", 2.25);
        pushed.put("c_text", "hello ✓");
        pushed.put("c_varchar", "varchar");
        pushed.put("c_bool", true);
        pushed.put("c_date", LocalDate.of(2024, 2, 29));
        pushed.put("c_timestamp", LocalDateTime.parse("2024-01-02T03:04:05.123456"));
        pushed.put("c_timestamp3", LocalDateTime.parse("2024-01-02T03:04:05.123"));
        pushed.put("c_timestamptz", java.time.Instant.parse("2024-01-02T01:04:05.123456Z"));
        pushed.forEach((column, value) -> {
            ScanSpec scan = new ScanSpec(List.of("id"), List.of(new ColumnPredicate(column, Operator.EQUAL, List.of(value))));
            assertThat(sql(table, scan)).as(column).endsWith(" WHERE \"" + column + "\" = ?");
            assertThat(JdbcTesting.read(connector, table, scan, 1, allocator)).as(column).containsExactly(List.of(1L));
        });
        // values the engine sees rounded or cut (numeric without precision, time), padded (char) or only as text (uuid) stay in the engine
        Map<String, Object> kept = new LinkedHashMap<>();
        kept.put("c_numeric_plain", new BigDecimal("12345.6789012346"));
        kept.put("c_char", "ab   ");
        kept.put("c_time", LocalTime.parse("13:14:15.678"));
        kept.put("c_uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        kept.put("c_mood", "happy");
        kept.forEach((column, value) -> assertThat(sql(table, new ScanSpec(List.of("id"), List.of(new ColumnPredicate(column, Operator.EQUAL, List.of(value))))))
                .as(column).doesNotContain("WHERE"));
    }

    private static String sql(TableHandle table, ScanSpec scan)
    {
        try (JdbcBatchSource source = (JdbcBatchSource) connector.createSource(connector.splits(table, scan, 1).get(0), scan, allocator)) {
            return source.query().sql();
        }
    }

    @Test
    void readsTypesThroughSql()
    {
        try (Engine engine = JdbcTesting.createEngine(postgres)) {
            Session session = engine.createSession("test");
            List<List<Object>> rows = JdbcTesting.execute(session,
                    "SELECT id, c_numeric + 1, c_varchar, c_timestamptz, c_uuid, c_bool, to_hex(c_bytea) FROM " + CATALOG + "." + SCHEMA + ".all_types ORDER BY id");
            assertThat(rows).containsExactly(
                    List.of(1L, new BigDecimal("123456790.123"), "varchar", java.time.Instant.parse("2024-01-02T01:04:05.123456Z"), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", true, "0102"),
                    Arrays.asList(2L, null, null, null, null, null, null));
            assertThat(JdbcTesting.execute(session, "SELECT count(*) FROM " + CATALOG + "." + SCHEMA + ".all_types WHERE c_uuid = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'"))
                    .containsExactly(List.of(1L));
        }
    }

    @Test
    void decimalWithoutPrecisionThatDoesNotFitFailsClearly()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "huge").orElseThrow();
        assertThatThrownBy(() -> JdbcTesting.read(connector, table, new ScanSpec(List.of("id", "amount"), List.of()), 1, allocator))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW))
                .hasMessage("Cannot read column 'amount' of table 'pg.types_test.huge': value 12345678901234567890123456789.5 does not fit DECIMAL(38,10)");
    }

    @Test
    void describesColumnsThroughSql()
    {
        try (Engine engine = JdbcTesting.createEngine(Map.copyOf(postgres.catalogProperties()))) {
            Session session = engine.createSession("test");
            List<List<Object>> rows = JdbcTesting.execute(session, "DESCRIBE " + CATALOG + "." + SCHEMA + ".all_types");
            assertThat(rows.stream().map(row -> row.get(0))).doesNotContain("c_json", "c_jsonb", "c_interval").contains("c_uuid", "c_timestamptz", "c_bytea");
            assertThat(rows).contains(List.of("c_uuid", "UUID", "YES"), List.of("c_bytea", "VARBINARY", "YES"), List.of("c_int_array", "ARRAY(INTEGER)", "YES"));
        }
    }
}
