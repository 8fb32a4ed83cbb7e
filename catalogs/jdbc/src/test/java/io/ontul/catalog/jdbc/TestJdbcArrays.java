package io.ontul.catalog.jdbc;

import static io.ontul.catalog.jdbc.JdbcTesting.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.spi.BatchSink;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.TableHandle;

/**
 * PostgreSQL arrays both ways, each checked against PostgreSQL itself: arrays PostgreSQL wrote
 * (from literals) read through the SPI and through SQL, against the literals and against
 * PostgreSQL's own {@code cardinality}, subscripts and {@code unnest}; arrays Ontul wrote read by
 * PostgreSQL's {@code ::text}, {@code array_to_string} and {@code cardinality}, and a copy Ontul
 * made compared with its source by PostgreSQL's own array equality.
 */
class TestJdbcArrays
{
    private static final String SCHEMA = "array_test";
    private static final String TABLE = CATALOG + "." + SCHEMA;
    /** Every mapped element type, and two that are not (json, an enum). Row 1 values, 2 empty arrays, 3 NULL arrays, 4 arrays of one NULL. */
    private static final List<String> COLUMNS = List.of("a_bool", "a_smallint", "a_integer", "a_bigint", "a_real", "a_double", "a_numeric", "a_text", "a_varchar", "a_char",
            "a_date", "a_time", "a_timestamp", "a_timestamp3", "a_timestamptz", "a_uuid", "a_bytea");

    private static TestingPostgres postgres;
    private static BufferAllocator allocator;
    private static Connector connector;
    private static Engine engine;
    private static Session session;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE",
                "CREATE SCHEMA " + SCHEMA,
                "CREATE TYPE " + SCHEMA + ".mood AS ENUM ('sad', 'happy')",
                """
                CREATE TABLE array_test.arrays (
                    id integer PRIMARY KEY,
                    a_bool boolean[],
                    a_smallint smallint[],
                    a_integer integer[],
                    a_bigint bigint[],
                    a_real real[],
                    a_double double precision[],
                    a_numeric numeric(10, 2)[],
                    a_text text[],
                    a_varchar varchar(20)[],
                    a_char char(3)[],
                    a_date date[],
                    a_time time[],
                    a_timestamp timestamp[],
                    a_timestamp3 timestamp(3)[],
                    a_timestamptz timestamptz[],
                    a_uuid uuid[],
                    a_bytea bytea[],
                    a_json json[],
                    a_mood array_test.mood[])
                """,
                """
                INSERT INTO array_test.arrays VALUES (1, '{true,NULL,false}', '{-32768,32767}', '{1,NULL,3}', '{9223372036854775807,-1}', '{1.5,NULL}',
                    '{2.25,-0.5,NaN,-Infinity}', '{12.5,-0.01,NULL}', ARRAY['grüße ✓', NULL, 'a,"b\\c', '', 'NULL'], '{abc,NULL}', '{ab,NULL}',
                    '{2024-02-29,NULL,0044-03-15 BC}', '{13:14:15.678,NULL}', '{"2024-01-02 03:04:05.123456",NULL,"0001-01-01 10:00:00 BC"}',
                    '{"2024-01-02 03:04:05.123"}', '{"2024-01-02 03:04:05.123456+02",NULL}', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}',
                    ARRAY['\\x00ff'::bytea, NULL, '\\x'::bytea], ARRAY['{"a": 1}'::json], '{happy}')
                """,
                "INSERT INTO array_test.arrays VALUES (2, " + "'{}', ".repeat(18) + "'{}')",
                "INSERT INTO array_test.arrays (id) VALUES (3)",
                "INSERT INTO array_test.arrays VALUES (4, " + "'{NULL}', ".repeat(18) + "'{NULL}')",
                "CREATE TABLE array_test.matrix (id integer, m integer[])",
                "INSERT INTO array_test.matrix VALUES (1, '{1,2}'), (2, '{{1,2},{3,4}}')",
                "CREATE TABLE array_test.bounded (id integer, b integer[])",
                "INSERT INTO array_test.bounded VALUES (1, '[0:2]={5,6,7}')");
        allocator = new RootAllocator();
        connector = JdbcTesting.createConnector(postgres, allocator);
        engine = JdbcTesting.createEngine(postgres);
        session = engine.createSession("test");
    }

    @AfterAll
    static void tearDown()
    {
        engine.close();
        connector.close();
        allocator.close();
    }

    @Test
    void mapsArraysOfMappedTypesAndLeavesOutTheOthers()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "arrays").orElseThrow();
        List<Field> fields = table.columns().getFields();
        assertThat(fields.stream().map(Field::getName).toList()).isEqualTo(concat(List.of("id"), COLUMNS));
        assertThat(fields.stream().skip(1).map(Field::getType)).allMatch(ArrowType.List.INSTANCE::equals);
        assertThat(fields.stream().skip(1).map(field -> field.getChildren().get(0).getType())).containsExactly(
                ArrowType.Bool.INSTANCE,
                new ArrowType.Int(16, true),
                new ArrowType.Int(32, true),
                new ArrowType.Int(64, true),
                new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
                new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
                new ArrowType.Decimal(10, 2, 128),
                ArrowType.Utf8.INSTANCE,
                ArrowType.Utf8.INSTANCE,
                ArrowType.Utf8.INSTANCE,
                new ArrowType.Date(DateUnit.DAY),
                new ArrowType.Time(TimeUnit.MILLISECOND, 32),
                new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
                new ArrowType.Timestamp(TimeUnit.MILLISECOND, null),
                new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
                ArrowType.Utf8.INSTANCE,
                ArrowType.Binary.INSTANCE);
        assertThat(fields.stream().skip(1).map(field -> field.getChildren().get(0))).allMatch(Field::isNullable);

        assertThat(JdbcTesting.execute(session, "DESCRIBE " + TABLE + ".arrays").stream().map(row -> row.subList(0, 2)).toList()).containsExactly(
                List.of("id", "INTEGER"),
                List.of("a_bool", "ARRAY(BOOLEAN)"),
                List.of("a_smallint", "ARRAY(SMALLINT)"),
                List.of("a_integer", "ARRAY(INTEGER)"),
                List.of("a_bigint", "ARRAY(BIGINT)"),
                List.of("a_real", "ARRAY(REAL)"),
                List.of("a_double", "ARRAY(DOUBLE)"),
                List.of("a_numeric", "ARRAY(DECIMAL(10,2))"),
                List.of("a_text", "ARRAY(VARCHAR)"),
                List.of("a_varchar", "ARRAY(VARCHAR(20))"),
                List.of("a_char", "ARRAY(CHAR(3))"),
                List.of("a_date", "ARRAY(DATE)"),
                List.of("a_time", "ARRAY(TIME)"),
                List.of("a_timestamp", "ARRAY(TIMESTAMP(6))"),
                List.of("a_timestamp3", "ARRAY(TIMESTAMP(3))"),
                List.of("a_timestamptz", "ARRAY(TIMESTAMP(6) WITH TIME ZONE)"),
                List.of("a_uuid", "ARRAY(UUID)"),
                List.of("a_bytea", "ARRAY(VARBINARY)"));
    }

    @Test
    void readsArraysAsPostgresWroteThem()
    {
        List<List<Object>> rows = readArrays();
        // the literals of row 1, by hand (byte arrays as hex, compared below)
        assertThat(rows.get(0).subList(0, COLUMNS.size())).containsExactly(
                1L,
                Arrays.asList(true, null, false),
                List.of(-32768L, 32767L),
                Arrays.asList(1L, null, 3L),
                List.of(Long.MAX_VALUE, -1L),
                Arrays.asList(1.5, null),
                List.of(2.25, -0.5, Double.NaN, Double.NEGATIVE_INFINITY),
                Arrays.asList(new BigDecimal("12.50"), new BigDecimal("-0.01"), null),
                Arrays.asList("grüße ✓", null, "a,\"b\\c", "", "NULL"),
                Arrays.asList("abc", null),
                Arrays.asList("ab ", null),
                Arrays.asList(LocalDate.of(2024, 2, 29), null, LocalDate.of(-43, 3, 15)),
                Arrays.asList(LocalDateTime.parse("1970-01-01T13:14:15.678"), null),
                Arrays.asList(LocalDateTime.parse("2024-01-02T03:04:05.123456"), null, LocalDateTime.of(0, 1, 1, 10, 0)),
                List.of(LocalDateTime.parse("2024-01-02T03:04:05.123")),
                Arrays.asList(Instant.parse("2024-01-02T01:04:05.123456Z"), null),
                Arrays.asList("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", null));
        assertThat(hex(rows.get(0).get(COLUMNS.size()))).containsExactly("00ff", null, "");
        // empty arrays, NULL arrays, arrays of one NULL
        assertThat(rows.get(1).subList(1, COLUMNS.size() + 1)).allMatch(List.of()::equals);
        assertThat(rows.get(2).subList(1, COLUMNS.size() + 1)).allMatch(value -> value == null);
        assertThat(rows.get(3).subList(1, COLUMNS.size() + 1)).allMatch(Arrays.asList((Object) null)::equals);
    }

    /** The driver sends arrays in binary once a statement is prepared on the server (at once with prepareThreshold=-1); the values are the same. */
    @Test
    void readsTheSameValuesInBinaryTransfer()
    {
        List<List<Object>> text = readArrays(connector);
        Map<String, String> properties = JdbcTesting.connectorProperties(postgres, changes -> changes.put("connection-url", postgres.jdbcUrl() + "?prepareThreshold=-1"));
        try (Connector binary = JdbcTesting.createConnector(properties, allocator)) {
            List<List<Object>> read = readArrays(binary);
            // byte arrays compare by identity inside lists
            int bytea = COLUMNS.indexOf("a_bytea") + 1;
            assertThat(read.stream().map(row -> row.subList(0, bytea)).toList()).isEqualTo(text.stream().map(row -> row.subList(0, bytea)).toList());
            assertThat(read.stream().map(row -> row.get(bytea) == null ? null : hex(row.get(bytea))).toList())
                    .isEqualTo(text.stream().map(row -> row.get(bytea) == null ? null : hex(row.get(bytea))).toList());
        }
    }

    @Test
    void readsWhatPostgresCountsAndUnnests()
    {
        List<List<Object>> rows = readArrays();
        // every array's length, and NULL for NULL arrays, is PostgreSQL's cardinality
        String cardinalities = COLUMNS.stream().map(column -> "cardinality(" + column + ")").collect(Collectors.joining(", "));
        List<List<Object>> expected = postgres.query("SELECT id, " + cardinalities + " FROM array_test.arrays ORDER BY id");
        List<List<Object>> lengths = rows.stream()
                .map(row -> row.stream().map(value -> value instanceof List<?> list ? (Object) (long) list.size() : value).toList())
                .toList();
        assertThat(lengths).isEqualTo(expected);

        // the elements, in order, are those unnest gives PostgreSQL's own driver
        for (String column : List.of("a_bool", "a_smallint", "a_integer", "a_bigint", "a_real", "a_double", "a_numeric", "a_text", "a_varchar", "a_char", "a_uuid")) {
            int index = COLUMNS.indexOf(column) + 1;
            List<List<Object>> elements = new ArrayList<>();
            for (List<Object> row : rows) {
                if (row.get(index) instanceof List<?> list) {
                    list.forEach(element -> elements.add(Arrays.asList(row.get(0), element)));
                }
            }
            String value = column.equals("a_uuid") ? "x::text" : "x";
            assertThat(elements).as(column).isEqualTo(postgres.query("SELECT id, " + value + " FROM array_test.arrays, unnest(" + column + ") WITH ORDINALITY AS u(x, n) ORDER BY id, n"));
        }
        // instants as PostgreSQL's epoch seconds
        List<List<Object>> instants = new ArrayList<>();
        for (List<Object> row : rows) {
            if (row.get(COLUMNS.indexOf("a_timestamptz") + 1) instanceof List<?> list) {
                list.forEach(element -> instants.add(Arrays.asList(row.get(0),
                        element == null ? null : new BigDecimal(((Instant) element).getEpochSecond()).add(new BigDecimal(((Instant) element).getNano()).movePointLeft(9)).setScale(6))));
            }
        }
        assertThat(instants).isEqualTo(postgres.query("SELECT id, extract(epoch FROM x) FROM array_test.arrays, unnest(a_timestamptz) WITH ORDINALITY AS u(x, n) ORDER BY id, n"));
    }

    @Test
    void arrayFunctionsAndUnnestThroughSql()
    {
        assertThat(JdbcTesting.execute(session, "SELECT id, cardinality(a_integer), element_at(a_integer, 1), element_at(a_text, -1), cardinality(a_numeric) FROM "
                + TABLE + ".arrays ORDER BY id"))
                .isEqualTo(postgres.query("SELECT id, cardinality(a_integer), a_integer[1], a_text[cardinality(a_text)], cardinality(a_numeric) FROM array_test.arrays ORDER BY id"));
        assertThat(JdbcTesting.execute(session, "SELECT id, a_integer[1], a_numeric[1] FROM " + TABLE + ".arrays WHERE cardinality(a_integer) > 0 ORDER BY id"))
                .isEqualTo(postgres.query("SELECT id, a_integer[1], a_numeric[1] FROM array_test.arrays WHERE cardinality(a_integer) > 0 ORDER BY id"));
        assertThat(JdbcTesting.execute(session, "SELECT t.id, u.x, u.n FROM " + TABLE + ".arrays t CROSS JOIN UNNEST(t.a_text) WITH ORDINALITY AS u(x, n) ORDER BY t.id, u.n"))
                .isEqualTo(postgres.query("SELECT id, x, n FROM array_test.arrays, unnest(a_text) WITH ORDINALITY AS u(x, n) ORDER BY id, n"));
        assertThat(JdbcTesting.execute(session, "SELECT sum(x), count(x), count(*) FROM " + TABLE + ".arrays t CROSS JOIN UNNEST(t.a_bigint) AS u(x) WHERE x < 0"))
                .isEqualTo(postgres.query("SELECT sum(x)::bigint, count(x), count(*) FROM array_test.arrays, unnest(a_bigint) AS x WHERE x < 0"));
        assertThat(JdbcTesting.execute(session, "SELECT count(a_integer), count(DISTINCT a_integer) FROM " + TABLE + ".arrays"))
                .isEqualTo(postgres.query("SELECT count(a_integer), count(DISTINCT a_integer) FROM array_test.arrays"));
        assertThat(JdbcTesting.execute(session, "SELECT a_numeric, a_timestamptz FROM " + TABLE + ".arrays WHERE id = 1"))
                .containsExactly(List.of(Arrays.asList(new BigDecimal("12.50"), new BigDecimal("-0.01"), null), Arrays.asList(Instant.parse("2024-01-02T01:04:05.123456Z"), null)));
        assertThat(JdbcTesting.execute(session, "SELECT id FROM " + TABLE + ".arrays WHERE a_integer IS NULL")).containsExactly(List.of(3L));
        assertThat(JdbcTesting.execute(session, "SELECT id FROM " + TABLE + ".bounded WHERE b = ARRAY[5, 6, 7]")).as("lower bounds are not kept").containsExactly(List.of(1L));
    }

    @Test
    void comparisonsOnArraysStayInOntul()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "arrays").orElseThrow();
        ScanSpec equal = new ScanSpec(List.of("id"), List.of(new ColumnPredicate("a_integer", Operator.EQUAL, List.of(List.of(1L)))));
        try (JdbcBatchSource source = (JdbcBatchSource) connector.createSource(connector.splits(table, equal, 1).get(0), equal, allocator)) {
            assertThat(source.query().sql()).doesNotContain("WHERE");
        }
    }

    @Test
    void multiDimensionalValueFailsNamingTheColumn()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "matrix").orElseThrow();
        String message = "Cannot read column 'm' of table 'pg.array_test.matrix': a row holds a multi-dimensional array, and only one-dimensional arrays can be read";
        assertThatThrownBy(() -> JdbcTesting.read(connector, table, new ScanSpec(List.of("id", "m"), List.of()), 1, allocator))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessage(message);
        assertThatThrownBy(() -> JdbcTesting.execute(session, "SELECT cardinality(m) FROM " + TABLE + ".matrix"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining(message);
        assertThat(JdbcTesting.execute(session, "SELECT count(*), sum(id) FROM " + TABLE + ".matrix")).containsExactly(List.of(2L, 3L));
    }

    @Test
    void createsAndInsertsArraysThatPostgresReads()
    {
        String written = TABLE + ".written";
        JdbcTesting.execute(session, "CREATE TABLE " + written + " (id INTEGER, ints INTEGER ARRAY, bigints ARRAY(BIGINT), texts VARCHAR[], names VARCHAR(10)[], "
                + "decimals DECIMAL(10, 2)[], dates DATE[], stamps TIMESTAMP(6)[], stamps3 TIMESTAMP(3)[], zoned ARRAY(TIMESTAMP(6) WITH TIME ZONE), flags BOOLEAN[], "
                + "bytes VARBINARY[], uuids UUID[], doubles DOUBLE[], reals REAL[], smalls SMALLINT[], times TIME[])");
        assertThat(postgres.query("SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'array_test.written'::regclass AND attnum > 0 ORDER BY attnum"))
                .containsExactly(
                        List.of("id", "integer"),
                        List.of("ints", "integer[]"),
                        List.of("bigints", "bigint[]"),
                        List.of("texts", "text[]"),
                        List.of("names", "character varying(10)[]"),
                        List.of("decimals", "numeric(10,2)[]"),
                        List.of("dates", "date[]"),
                        List.of("stamps", "timestamp(6) without time zone[]"),
                        List.of("stamps3", "timestamp(3) without time zone[]"),
                        List.of("zoned", "timestamp(6) with time zone[]"),
                        List.of("flags", "boolean[]"),
                        List.of("bytes", "bytea[]"),
                        List.of("uuids", "uuid[]"),
                        List.of("doubles", "double precision[]"),
                        List.of("reals", "real[]"),
                        List.of("smalls", "smallint[]"),
                        List.of("times", "time(3) without time zone[]"));

        JdbcTesting.execute(session, "INSERT INTO " + written + " VALUES (1, ARRAY[1, NULL, 3], ARRAY[9223372036854775807, -1], "
                + "ARRAY['grüße ✓', NULL, 'a,\"b\\c', '', 'NULL'], ARRAY['abc'], ARRAY[12.5, -0.01], ARRAY[DATE '2024-02-29', NULL], "
                + "ARRAY[TIMESTAMP '2024-01-02 03:04:05.123456'], ARRAY[TIMESTAMP '2024-01-02 03:04:05.123'], ARRAY[TIMESTAMP WITH TIME ZONE '2024-01-02 03:04:05.5 +02:00'], "
                + "ARRAY[true, NULL, false], ARRAY[X'00ff', X''], ARRAY[UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'], ARRAY[2.5E0, -0.5E0], ARRAY[CAST(1.5 AS REAL)], "
                + "ARRAY[CAST(7 AS SMALLINT)], ARRAY[TIME '10:11:12.345']), "
                + "(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
        JdbcTesting.execute(session, "INSERT INTO " + written + " SELECT 3, ARRAY[CAST(NULL AS INTEGER)], ARRAY[CAST(x AS BIGINT)], ARRAY[CAST(x AS VARCHAR)], NULL, NULL, NULL, NULL, NULL, NULL, "
                + "NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM (VALUES 42) AS t(x)");

        assertThat(postgres.query("SELECT id, ints::text, cardinality(ints), ints[2] IS NULL, bigints::text, array_to_string(texts, '|', '<null>'), texts[5], names::text, "
                + "decimals::text, dates::text, stamps::text, stamps3::text, (SELECT string_agg(extract(epoch FROM z)::text, ',') FROM unnest(zoned) z), flags::text, "
                + "(SELECT string_agg(coalesce(encode(b, 'hex'), '<null>'), ',') FROM unnest(bytes) b), uuids::text, doubles::text, reals::text, smalls::text, times::text "
                + "FROM array_test.written ORDER BY id"))
                .containsExactly(
                        List.of(1L, "{1,NULL,3}", 3L, true, "{9223372036854775807,-1}", "grüße ✓|<null>|a,\"b\\c||NULL", "NULL", "{abc}",
                                "{12.50,-0.01}", "{2024-02-29,NULL}", "{\"2024-01-02 03:04:05.123456\"}", "{\"2024-01-02 03:04:05.123\"}", "1704157445.500000", "{t,NULL,f}",
                                "00ff,", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "{2.5,-0.5}", "{1.5}", "{7}", "{10:11:12.345}"),
                        Arrays.asList(2L, null, null, true, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null),
                        Arrays.asList(3L, "{NULL}", 1L, true, "{42}", "42", null, null, null, null, null, null, null, null, null, null, null, null, null, null));

        // UPDATE rewrites every row of the table: the other rows' arrays come back as they were
        String everything = "SELECT id, ints::text, bigints::text, texts::text, names::text, decimals::text, dates::text, stamps::text, stamps3::text, zoned::text, "
                + "flags::text, bytes::text, uuids::text, doubles::text, reals::text, smalls::text, times::text FROM array_test.written ORDER BY id";
        List<List<Object>> before = postgres.query(everything);
        assertThat(JdbcTesting.execute(session, "UPDATE " + written + " SET ints = ARRAY[9, 8] WHERE id = 2")).containsExactly(List.of(1L));
        List<List<Object>> expected = new ArrayList<>(before);
        List<Object> updated = new ArrayList<>(before.get(1));
        updated.set(1, "{9,8}");
        expected.set(1, updated);
        assertThat(postgres.query(everything)).isEqualTo(expected);
    }

    /** CREATE TABLE AS of the arrays PostgreSQL wrote: PostgreSQL finds the copy equal to its source, empty arrays, NULLs, NaN and BC dates included. */
    @Test
    void copyThroughOntulEqualsTheSource()
    {
        JdbcTesting.execute(session, "CREATE TABLE " + TABLE + ".copied AS SELECT * FROM " + TABLE + ".arrays");
        String differs = COLUMNS.stream().map(column -> "s." + column + " IS DISTINCT FROM c." + column).collect(Collectors.joining(" OR "));
        assertThat(postgres.query("SELECT count(*), count(c.id) FROM array_test.arrays s LEFT JOIN array_test.copied c ON s.id = c.id")).containsExactly(List.of(4L, 4L));
        assertThat(postgres.query("SELECT s.id FROM array_test.arrays s JOIN array_test.copied c ON s.id = c.id WHERE " + differs)).isEmpty();
        assertThat(postgres.query("SELECT a_date::text, a_timestamp::text FROM array_test.copied WHERE id = 1"))
                .containsExactly(List.of("{2024-02-29,NULL,\"0044-03-15 BC\"}", "{\"2024-01-02 03:04:05.123456\",NULL,\"0001-01-01 10:00:00 BC\"}"));
    }

    /** Through the SPI: empty arrays (which SQL cannot write yet), years before 1 and instants before 1 whatever the zones. */
    @Test
    void sinkWritesEmptyArraysAndEarlyDates()
    {
        postgres.execute("CREATE TABLE array_test.sunk (id bigint, ints integer[], dates date[], stamps timestamp[], zoned timestamptz[])");
        TableHandle table = connector.metadata().getTable(SCHEMA, "sunk").orElseThrow();
        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(table.columns(), allocator)) {
            batch.allocateNew();
            ((BigIntVector) batch.getVector("id")).setSafe(0, 1);
            ((BigIntVector) batch.getVector("id")).setSafe(1, 2);
            ListVector ints = (ListVector) batch.getVector("ints");
            ints.startNewValue(0);
            ints.endValue(0, 0);
            ints.setNull(1);
            ListVector dates = (ListVector) batch.getVector("dates");
            int start = dates.startNewValue(0);
            ((DateDayVector) dates.getDataVector()).setSafe(start, (int) LocalDate.of(-43, 3, 15).toEpochDay());
            ((DateDayVector) dates.getDataVector()).setNull(start + 1);
            dates.endValue(0, 2);
            start = dates.startNewValue(1);
            ((DateDayVector) dates.getDataVector()).setSafe(start, (int) LocalDate.of(12345, 6, 7).toEpochDay());
            dates.endValue(1, 1);
            ListVector stamps = (ListVector) batch.getVector("stamps");
            start = stamps.startNewValue(0);
            ((TimeStampMicroVector) stamps.getDataVector()).setSafe(start, micros(LocalDateTime.of(-100, 6, 1, 12, 30, 0, 123_456_000)));
            stamps.endValue(0, 1);
            stamps.setNull(1);
            ListVector zoned = (ListVector) batch.getVector("zoned");
            start = zoned.startNewValue(0);
            ((TimeStampMicroTZVector) zoned.getDataVector()).setSafe(start, micros(LocalDateTime.of(0, 1, 1, 10, 0)));
            zoned.endValue(0, 1);
            zoned.setNull(1);
            batch.setRowCount(2);
            sink.append(batch);
        }
        sink.commit();
        assertThat(postgres.query("SELECT id, ints::text, cardinality(ints), dates::text, stamps::text, "
                + "(SELECT string_agg(extract(epoch FROM z)::text, ',') FROM unnest(zoned) z) FROM array_test.sunk ORDER BY id"))
                .containsExactly(
                        List.of(1L, "{}", 0L, "{\"0044-03-15 BC\",NULL}", "{\"0101-06-01 12:30:00.123456 BC\"}", "-62167183200.000000"),
                        Arrays.asList(2L, null, null, "{12345-06-07}", null, null));
    }

    @Test
    void arraysOfArraysAreRefusedNamingTheColumn()
    {
        assertThatThrownBy(() -> JdbcTesting.execute(session, "CREATE TABLE " + TABLE + ".nested (id INTEGER, grid ARRAY(ARRAY(INTEGER)))"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("Column 'grid' is an array of arrays, which cannot be stored in PostgreSQL: only arrays of scalar types are");
        assertThatThrownBy(() -> JdbcTesting.execute(session, "CREATE TABLE " + TABLE + ".nested AS SELECT ARRAY[ARRAY[1, 2]] AS grid"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("Column 'grid' is an array of arrays");
        assertThat(postgres.query("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'array_test' AND table_name = 'nested'")).containsExactly(List.of(0L));
    }

    private static List<List<Object>> readArrays()
    {
        return readArrays(connector);
    }

    private static List<List<Object>> readArrays(Connector connector)
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "arrays").orElseThrow();
        List<List<Object>> rows = new ArrayList<>(JdbcTesting.read(connector, table, new ScanSpec(concat(List.of("id"), COLUMNS), List.of()), 1, allocator));
        rows.sort((left, right) -> Long.compare((Long) left.get(0), (Long) right.get(0)));
        return rows;
    }

    private static List<String> hex(Object byteArrays)
    {
        return ((List<?>) byteArrays).stream().map(bytes -> bytes == null ? null : HexFormat.of().formatHex((byte[]) bytes)).toList();
    }

    private static long micros(LocalDateTime dateTime)
    {
        return dateTime.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + dateTime.getNano() / 1000;
    }

    private static List<String> concat(List<String> first, List<String> second)
    {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
