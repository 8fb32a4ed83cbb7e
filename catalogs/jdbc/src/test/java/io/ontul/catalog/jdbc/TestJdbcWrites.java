package io.ontul.catalog.jdbc;

import static io.ontul.catalog.jdbc.JdbcTesting.CATALOG;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
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
import io.ontul.spi.BatchSink;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * CREATE TABLE, CREATE TABLE AS and INSERT into PostgreSQL: column types, one transaction per
 * statement (all rows or none), clear errors for bad data.
 */
class TestJdbcWrites
{
    private static final String SCHEMA = "write_test";
    private static final Schema ID_NAME = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

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
                "CREATE TABLE write_test.checked (o_orderkey bigint, o_totalprice numeric(12, 2), CHECK (o_orderkey < 50000))",
                "CREATE TABLE write_test.short (id bigint NOT NULL, name varchar(3))");
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
    void writesVarbinaryAsByteaAndUuidAsUuid()
    {
        JdbcTesting.execute(session, "CREATE TABLE " + CATALOG + "." + SCHEMA + ".blobs (id INTEGER, b VARBINARY, u UUID)");
        assertThat(postgres.query("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'write_test' AND table_name = 'blobs' ORDER BY ordinal_position"))
                .containsExactly(List.of("id", "integer"), List.of("b", "bytea"), List.of("u", "uuid"));
        JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".blobs VALUES (1, X'00ff10', UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), (2, NULL, NULL), "
                + "(3, X'', CAST('{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12}' AS UUID))");
        // PostgreSQL's own reading of what Ontul wrote
        assertThat(postgres.query("SELECT id, encode(b, 'hex'), u::text FROM write_test.blobs ORDER BY id"))
                .containsExactly(
                        List.of(1L, "00ff10", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
                        Arrays.asList(2L, null, null),
                        List.of(3L, "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12"));
        // and Ontul's, with grouping and comparison in the engine
        assertThat(JdbcTesting.execute(session, "SELECT id, to_hex(b), u FROM " + CATALOG + "." + SCHEMA + ".blobs WHERE u > UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' OR b = X'00ff10' ORDER BY id"))
                .containsExactly(List.of(1L, "00FF10", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), List.of(3L, "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12"));
        JdbcTesting.execute(session, "DROP TABLE " + CATALOG + "." + SCHEMA + ".blobs");
    }

    @Test
    void createTableMapsEngineTypesToPostgresTypes()
    {
        JdbcTesting.execute(session, "CREATE TABLE " + CATALOG + "." + SCHEMA + ".typed (id BIGINT NOT NULL, name VARCHAR(10), code CHAR(3), note VARCHAR, "
                + "price DECIMAL(10, 2), day DATE, at3 TIMESTAMP(3), at6 TIMESTAMP(6), flag BOOLEAN, r REAL, f DOUBLE, t TIME, small SMALLINT, tiny TINYINT, i INTEGER)");
        assertThat(postgres.query("SELECT column_name, data_type, character_maximum_length, numeric_precision, numeric_scale, datetime_precision, is_nullable "
                + "FROM information_schema.columns WHERE table_schema = 'write_test' AND table_name = 'typed' ORDER BY ordinal_position"))
                .containsExactly(
                        Arrays.asList("id", "bigint", null, 64L, 0L, null, "NO"),
                        Arrays.asList("name", "character varying", 10L, null, null, null, "YES"),
                        Arrays.asList("code", "character", 3L, null, null, null, "YES"),
                        Arrays.asList("note", "text", null, null, null, null, "YES"),
                        Arrays.asList("price", "numeric", null, 10L, 2L, null, "YES"),
                        Arrays.asList("day", "date", null, null, null, 0L, "YES"),
                        Arrays.asList("at3", "timestamp without time zone", null, null, null, 3L, "YES"),
                        Arrays.asList("at6", "timestamp without time zone", null, null, null, 6L, "YES"),
                        Arrays.asList("flag", "boolean", null, null, null, null, "YES"),
                        Arrays.asList("r", "real", null, 24L, null, null, "YES"),
                        Arrays.asList("f", "double precision", null, 53L, null, null, "YES"),
                        Arrays.asList("t", "time without time zone", null, null, null, 3L, "YES"),
                        Arrays.asList("small", "smallint", null, 16L, 0L, null, "YES"),
                        Arrays.asList("tiny", "smallint", null, 16L, 0L, null, "YES"),
                        Arrays.asList("i", "integer", null, 32L, 0L, null, "YES"));

        JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".typed VALUES (1, 'abc', 'xy', 'long text', 12.34, DATE '2024-03-01', "
                + "TIMESTAMP '2024-03-01 10:11:12.345', TIMESTAMP '2024-03-01 10:11:12.345678', true, 1.5, 2.5, TIME '10:11:12.345', 7, 8, 9)");
        // INSERT with a column list that leaves columns out fails in the engine's code generation today, so the NULLs are explicit
        JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".typed VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
        assertThat(postgres.query("SELECT id, name, code, note, price, day, at3, at6, flag, r, f, t::text, small, tiny, i FROM write_test.typed ORDER BY id"))
                .containsExactly(
                        Arrays.asList(1L, "abc", "xy ", "long text", new BigDecimal("12.34"), LocalDate.of(2024, 3, 1), LocalDateTime.parse("2024-03-01T10:11:12.345"),
                                LocalDateTime.parse("2024-03-01T10:11:12.345678"), true, 1.5, 2.5, "10:11:12.345", 7L, 8L, 9L),
                        Arrays.asList(2L, null, null, null, null, null, null, null, null, null, null, null, null, null, null));
        assertThat(JdbcTesting.execute(session, "SELECT id, price, at3, at6, t FROM " + CATALOG + "." + SCHEMA + ".typed WHERE id = 1"))
                .containsExactly(List.of(1L, new BigDecimal("12.34"), LocalDateTime.parse("2024-03-01T10:11:12.345"), LocalDateTime.parse("2024-03-01T10:11:12.345678"),
                        LocalDateTime.parse("1970-01-01T10:11:12.345")));
        assertThatThrownBy(() -> JdbcTesting.execute(session, "CREATE TABLE " + CATALOG + "." + SCHEMA + ".typed (x INTEGER)"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS));
        JdbcTesting.execute(session, "DROP TABLE " + CATALOG + "." + SCHEMA + ".typed");
        assertThat(postgres.query("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'write_test' AND table_name = 'typed'")).containsExactly(List.of(0L));
    }

    /** TIMESTAMP WITH TIME ZONE is PostgreSQL's timestamptz both ways: the instant, whatever the sessions' zones. */
    @Test
    void timestampsWithTimeZoneAreTimestamptz()
    {
        JdbcTesting.execute(session, "CREATE TABLE " + CATALOG + "." + SCHEMA + ".zoned (id BIGINT, at TIMESTAMP(6) WITH TIME ZONE, at3 TIMESTAMP(3) WITH TIME ZONE)");
        assertThat(postgres.query("SELECT column_name, data_type, datetime_precision FROM information_schema.columns WHERE table_schema = 'write_test' AND table_name = 'zoned' ORDER BY ordinal_position"))
                .containsExactly(Arrays.asList("id", "bigint", null), Arrays.asList("at", "timestamp with time zone", 6L), Arrays.asList("at3", "timestamp with time zone", 3L));
        JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".zoned VALUES (1, TIMESTAMP WITH TIME ZONE '2024-03-01 10:11:12.345678 +02:00', "
                + "TIMESTAMP WITH TIME ZONE '2024-03-01 10:11:12.345 UTC'), (2, NULL, NULL)");
        assertThat(postgres.query("SELECT id, extract(epoch FROM at)::text, extract(epoch FROM at3)::text FROM write_test.zoned ORDER BY id"))
                .containsExactly(Arrays.asList(1L, "1709280672.345678", "1709287872.345000"), Arrays.asList(2L, null, null));
        String select = "SELECT id, at, at3 FROM " + CATALOG + "." + SCHEMA + ".zoned WHERE at > TIMESTAMP WITH TIME ZONE '2024-03-01 09:00:00 +01:00'";
        assertThat(JdbcTesting.execute(session, select))
                .containsExactly(List.of(1L, java.time.Instant.parse("2024-03-01T08:11:12.345678Z"), java.time.Instant.parse("2024-03-01T10:11:12.345Z")));
        // the comparison ran in PostgreSQL, on the instant
        assertThat(String.valueOf(JdbcTesting.execute(session, "EXPLAIN " + select))).contains("values=[2024-03-01T08:00:00Z]");
        JdbcTesting.execute(session, "DROP TABLE " + CATALOG + "." + SCHEMA + ".zoned");
    }

    @Test
    void createTableAsSelectCopiesTpchData()
    {
        JdbcTesting.execute(session, "CREATE TABLE " + CATALOG + "." + SCHEMA + ".customer AS SELECT * FROM tpch.tiny.customer");
        String sums = "SELECT count(*), sum(c_custkey), sum(c_acctbal), min(c_name), max(c_phone) FROM ";
        assertThat(postgres.query(sums.replace("min(c_name)", "min(c_name COLLATE \"C\")").replace("max(c_phone)", "max(c_phone COLLATE \"C\")").replace("sum(c_custkey)", "sum(c_custkey)::bigint") + "write_test.customer"))
                .isEqualTo(JdbcTesting.execute(session, sums + "tpch.tiny.customer"));
        assertThat(JdbcTesting.execute(session, sums + CATALOG + "." + SCHEMA + ".customer")).isEqualTo(JdbcTesting.execute(session, sums + "tpch.tiny.customer"));
        assertThatThrownBy(() -> JdbcTesting.execute(session, "CREATE TABLE " + CATALOG + "." + SCHEMA + ".customer AS SELECT * FROM tpch.tiny.nation"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS));
    }

    @Test
    void failingInsertLeavesNoRows()
    {
        // orders with keys of 50000 and more arrive last, after many rows were already sent
        assertThatThrownBy(() -> JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".checked SELECT o_orderkey, o_totalprice FROM tpch.tiny.orders"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageStartingWith("Cannot insert into table 'pg.write_test.checked': new row for relation \"checked\" violates check constraint \"checked_o_orderkey_check\"");
        assertThat(postgres.query("SELECT count(*) FROM write_test.checked")).containsExactly(List.of(0L));

        JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".checked SELECT o_orderkey, o_totalprice FROM tpch.tiny.orders WHERE o_orderkey < 50000");
        assertThat(postgres.query("SELECT count(*), sum(o_totalprice) FROM write_test.checked"))
                .isEqualTo(JdbcTesting.execute(session, "SELECT count(*), sum(o_totalprice) FROM tpch.tiny.orders WHERE o_orderkey < 50000"));
    }

    /**
     * DELETE and UPDATE through Ontul, and the same statements run by PostgreSQL itself on a twin
     * table: the same update counts and rows; MERGE against the statements PostgreSQL 14 (without
     * MERGE) needs for it. A statement failing half way leaves the table as it was.
     */
    @Test
    void rowLevelChangesMatchPostgres()
    {
        for (String name : List.of("dml_orders", "dml_twin")) {
            postgres.execute("CREATE TABLE write_test." + name + " (o_orderkey bigint NOT NULL, o_custkey bigint, o_orderstatus varchar(1), o_totalprice numeric(12, 2), o_clerk text)");
        }
        JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".dml_orders SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_clerk FROM tpch.tiny.orders");
        postgres.execute("INSERT INTO write_test.dml_twin SELECT * FROM write_test.dml_orders");
        String ontulTable = CATALOG + "." + SCHEMA + ".dml_orders";
        String contents = "SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_clerk FROM %s ORDER BY o_orderkey";

        List<String> statements = List.of(
                "DELETE FROM %s WHERE o_orderstatus = 'F' AND o_totalprice < 100000",
                "UPDATE %s SET o_totalprice = o_totalprice + 1.25, o_clerk = upper(o_clerk) WHERE o_custkey < 300");
        for (String statement : statements) {
            long expected = postgres.update(statement.formatted("write_test.dml_twin"));
            assertThat(JdbcTesting.execute(session, statement.formatted(ontulTable))).as(statement).containsExactly(List.of(expected));
            assertThat(expected).isPositive();
            assertThat(postgres.query(contents.formatted("write_test.dml_orders"))).isEqualTo(postgres.query(contents.formatted("write_test.dml_twin")));
        }

        // the orders of customers 1 to 9: those with status 'P' deleted, the others' clerk set, and deleted ones put back
        String source = "(SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice FROM tpch.tiny.orders WHERE o_custkey < 10)";
        List<List<Object>> merged = JdbcTesting.execute(session, "MERGE INTO " + ontulTable + " t USING " + source + " s ON t.o_orderkey = s.o_orderkey "
                + "WHEN MATCHED AND s.o_orderstatus = 'P' THEN DELETE WHEN MATCHED THEN UPDATE SET o_clerk = 'merged' "
                + "WHEN NOT MATCHED THEN INSERT VALUES (s.o_orderkey, s.o_custkey, s.o_orderstatus, s.o_totalprice, 'reinserted')");
        postgres.execute("CREATE TABLE write_test.dml_source AS SELECT o_orderkey, o_custkey, o_orderstatus, o_totalprice FROM write_test.dml_orders WHERE false");
        JdbcTesting.execute(session, "INSERT INTO " + CATALOG + "." + SCHEMA + ".dml_source SELECT * FROM " + source + " AS src");
        long deleted = postgres.update("DELETE FROM write_test.dml_twin t USING write_test.dml_source s WHERE t.o_orderkey = s.o_orderkey AND s.o_orderstatus = 'P'");
        long inserted = postgres.update("INSERT INTO write_test.dml_twin SELECT s.o_orderkey, s.o_custkey, s.o_orderstatus, s.o_totalprice, 'reinserted' FROM write_test.dml_source s "
                + "WHERE s.o_orderstatus <> 'P' AND NOT EXISTS (SELECT 1 FROM write_test.dml_twin t WHERE t.o_orderkey = s.o_orderkey)");
        long updated = postgres.update("UPDATE write_test.dml_twin t SET o_clerk = 'merged' FROM write_test.dml_source s WHERE t.o_orderkey = s.o_orderkey AND t.o_clerk <> 'reinserted'");
        assertThat(merged).containsExactly(List.of(deleted + inserted + updated));
        assertThat(inserted).isPositive();
        assertThat(postgres.query(contents.formatted("write_test.dml_orders"))).isEqualTo(postgres.query(contents.formatted("write_test.dml_twin")));

        // a failure half way (a cast of 'x') rolls the transaction back: the table is as it was
        assertThatThrownBy(() -> JdbcTesting.execute(session, "UPDATE " + ontulTable + " SET o_custkey = CAST(CASE WHEN o_orderkey > 50000 THEN 'x' ELSE '1' END AS BIGINT)"))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("'x'");
        assertThat(postgres.query(contents.formatted("write_test.dml_orders"))).isEqualTo(postgres.query(contents.formatted("write_test.dml_twin")));
    }

    /** Keys go into PostgreSQL's DDL and PostgreSQL enforces them; indexes are PostgreSQL's. */
    @Test
    void keysAndIndexesArePostgresOwn()
    {
        String table = CATALOG + "." + SCHEMA + ".keyed";
        JdbcTesting.execute(session, "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, code VARCHAR(10) UNIQUE, name VARCHAR)");
        assertThat(postgres.query("SELECT constraint_type FROM information_schema.table_constraints WHERE table_schema = 'write_test' AND table_name = 'keyed' "
                + "AND constraint_type IN ('PRIMARY KEY', 'UNIQUE') ORDER BY 1"))
                .containsExactly(List.of("PRIMARY KEY"), List.of("UNIQUE"));
        assertThat(JdbcTesting.execute(session, "SELECT column_name FROM " + CATALOG + ".information_schema.key_column_usage WHERE table_schema = '" + SCHEMA + "' AND table_name = 'keyed'"))
                .containsExactly(List.of("id"));
        JdbcTesting.execute(session, "INSERT INTO " + table + " VALUES (1, 'a', 'ann')");
        assertThatThrownBy(() -> JdbcTesting.execute(session, "INSERT INTO " + table + " VALUES (1, 'b', 'bob')"))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("duplicate key value violates unique constraint \"keyed_pkey\"");
        assertThatThrownBy(() -> JdbcTesting.execute(session, "INSERT INTO " + table + " VALUES (2, 'a', 'bob')"))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("duplicate key value violates unique constraint \"keyed_code_key\"");
        assertThat(postgres.query("SELECT count(*) FROM write_test.keyed")).containsExactly(List.of(1L));

        JdbcTesting.execute(session, "CREATE INDEX keyed_name ON " + table + " (name)");
        assertThat(postgres.query("SELECT indexdef FROM pg_indexes WHERE schemaname = 'write_test' AND indexname = 'keyed_name'"))
                .containsExactly(List.of("CREATE INDEX keyed_name ON write_test.keyed USING btree (name)"));
        JdbcTesting.execute(session, "DROP INDEX keyed_name ON " + table);
        assertThat(postgres.query("SELECT count(*) FROM pg_indexes WHERE schemaname = 'write_test' AND indexname = 'keyed_name'")).containsExactly(List.of(0L));
        assertThatThrownBy(() -> JdbcTesting.execute(session, "CREATE TABLE " + table + "_defaulted (id BIGINT DEFAULT 1)"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("Catalog 'pg' does not support DEFAULT in CREATE TABLE");
    }

    @Test
    void rowsBecomeVisibleAtCommitAndAbortDiscardsThem()
    {
        postgres.execute("CREATE TABLE write_test.visible (id bigint NOT NULL, name text)");
        TableHandle table = connector.metadata().getTable(SCHEMA, "visible").orElseThrow();

        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(0, 3000)) {
            sink.append(batch);
        }
        assertThat(postgres.query("SELECT count(*) FROM write_test.visible")).containsExactly(List.of(0L));
        assertThat(sink.commit()).isEqualTo(3000);
        assertThat(postgres.query("SELECT count(*), count(name) FROM write_test.visible")).containsExactly(List.of(3000L, 2000L));

        BatchSink aborted = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(3000, 2500)) {
            aborted.append(batch);
        }
        aborted.abort();
        assertThat(postgres.query("SELECT count(*) FROM write_test.visible")).containsExactly(List.of(3000L));
    }

    @Test
    void appendsFromSeveralThreadsGoIntoOneTransaction()
            throws Exception
    {
        postgres.execute("CREATE TABLE write_test.threads (id bigint NOT NULL, name text)");
        TableHandle table = connector.metadata().getTable(SCHEMA, "threads").orElseThrow();
        BatchSink sink = connector.createSink(table);
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> appends = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                int first = thread * 5000;
                appends.add(executor.submit(() -> {
                    for (int part = 0; part < 5; part++) {
                        try (VectorSchemaRoot batch = batch(first + part * 1000, 1000)) {
                            sink.append(batch);
                        }
                    }
                }));
            }
            for (Future<?> append : appends) {
                append.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(sink.commit()).isEqualTo(20000);
        assertThat(postgres.query("SELECT count(*), count(DISTINCT id), sum(id)::bigint FROM write_test.threads")).containsExactly(List.of(20000L, 20000L, 199990000L));
    }

    @Test
    void badDataIsAClearError()
    {
        TableHandle table = connector.metadata().getTable(SCHEMA, "short").orElseThrow();
        BatchSink sink = connector.createSink(table);
        try (VectorSchemaRoot batch = batch(0, 10)) {
            // rows go to the database in batches: the error may come with the append or at commit
            assertThatThrownBy(() -> {
                sink.append(batch);
                sink.commit();
            })
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TYPE_MISMATCH))
                    .hasMessage("Cannot insert into table 'pg.write_test.short': value too long for type character varying(3) (PostgreSQL at 127.0.0.1:" + postgres.port() + ")");
        }
        finally {
            sink.abort();
        }
        BatchSink nulls = connector.createSink(table);
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(ID_NAME, allocator)) {
            batch.allocateNew();
            ((BigIntVector) batch.getVector(0)).setNull(0);
            batch.setRowCount(1);
            assertThatThrownBy(() -> nulls.append(batch))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage("NULL value not allowed for NOT NULL column 'id' of table 'pg.write_test.short'");
        }
        finally {
            nulls.abort();
        }
        assertThat(postgres.query("SELECT count(*) FROM write_test.short")).containsExactly(List.of(0L));
        assertThatThrownBy(() -> connector.metadata().createTable(SCHEMA, "with_properties", ID_NAME, Map.of("format", "orc")))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Unknown table property 'format': the jdbc connector takes none");
    }

    /** Rows id = first .. first + count - 1, name NULL for every third row. */
    private static VectorSchemaRoot batch(int first, int count)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(ID_NAME, allocator);
        batch.allocateNew();
        BigIntVector ids = (BigIntVector) batch.getVector(0);
        VarCharVector names = (VarCharVector) batch.getVector(1);
        for (int row = 0; row < count; row++) {
            ids.setSafe(row, first + row);
            if ((first + row) % 3 == 0) {
                names.setNull(row);
            }
            else {
                names.setSafe(row, ("name " + (first + row)).getBytes(UTF_8));
            }
        }
        batch.setRowCount(count);
        return batch;
    }
}
