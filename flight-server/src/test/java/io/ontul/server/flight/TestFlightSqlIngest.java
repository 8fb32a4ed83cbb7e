package io.ontul.server.flight;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.FlightSqlClient.ExecuteIngestOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.protobuf.Any;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * Bulk ingest (CommandStatementIngest) into memory tables: rows sent are the rows read back,
 * one commit per ingest, failures leave nothing behind.
 */
class TestFlightSqlIngest
{
    private static final String PASSWORD = "test-password-ingest";
    private static final Schema PEOPLE = new Schema(List.of(
            Field.nullable("id", new ArrowType.Int(64, true)),
            Field.nullable("name", ArrowType.Utf8.INSTANCE),
            Field.nullable("price", new ArrowType.Decimal(10, 2, 128)),
            Field.nullable("born", new ArrowType.Date(DateUnit.DAY)),
            Field.nullable("seen", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
            Field.nullable("flag", ArrowType.Bool.INSTANCE),
            Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    private static final TableDefinitionOptions CREATE = options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_FAIL);
    private static final TableDefinitionOptions APPEND = options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL, TableExistsOption.TABLE_EXISTS_OPTION_APPEND);
    private static final TableDefinitionOptions REPLACE = options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_REPLACE);

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static BufferAllocator allocator;
    private static FlightClient client;
    private static FlightSqlClient sql;
    private static CredentialCallOption bearer;

    @BeforeAll
    static void start()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        allocator = new RootAllocator();
        client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
        sql = new FlightSqlClient(client);
        bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
    }

    @AfterAll
    static void stop()
            throws Exception
    {
        if (sql != null) {
            sql.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static TableDefinitionOptions options(TableNotExistOption ifNotExist, TableExistsOption ifExists)
    {
        return TableDefinitionOptions.newBuilder().setIfNotExist(ifNotExist).setIfExists(ifExists).build();
    }

    private static CommandStatementIngest command(String table, TableDefinitionOptions options)
    {
        return CommandStatementIngest.newBuilder().setCatalog("memory").setSchema("default").setTable(table).setTableDefinitionOptions(options).build();
    }

    /** Fills {@code root} with rows {@code first} to {@code first + count - 1} of the people data. */
    private static void people(VectorSchemaRoot root, int first, int count)
    {
        root.allocateNew();
        for (int row = 0; row < count; row++) {
            int id = first + row;
            ((BigIntVector) root.getVector("id")).setSafe(row, id);
            if (id % 7 == 0) {
                ((VarCharVector) root.getVector("name")).setNull(row);
            }
            else {
                ((VarCharVector) root.getVector("name")).setSafe(row, ("name-" + id).getBytes(UTF_8));
            }
            ((DecimalVector) root.getVector("price")).setSafe(row, BigDecimal.valueOf(id * 101L, 2));
            ((DateDayVector) root.getVector("born")).setSafe(row, (int) LocalDate.of(2020, 1, 1).plusDays(id % 1000).toEpochDay());
            ((TimeStampMicroVector) root.getVector("seen")).setSafe(row, id * 1_000_001L);
            ((BitVector) root.getVector("flag")).setSafe(row, id % 2);
            ((org.apache.arrow.vector.Float8Vector) root.getVector("score")).setSafe(row, id / 3.0);
        }
        root.setRowCount(count);
    }

    /** The rows of a root as Java values (text as String). */
    private static List<List<Object>> values(VectorSchemaRoot root)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (int row = 0; row < root.getRowCount(); row++) {
            List<Object> values = new ArrayList<>();
            for (FieldVector vector : root.getFieldVectors()) {
                Object value = vector.getObject(row);
                values.add(value instanceof Text text ? text.toString() : value);
            }
            rows.add(values);
        }
        return rows;
    }

    private static List<List<Object>> expectedPeople(int first, int count)
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(PEOPLE, allocator)) {
            people(root, first, count);
            return values(root);
        }
    }

    private static List<List<Object>> query(String query)
            throws Exception
    {
        FlightInfo info = sql.execute(query, bearer);
        List<List<Object>> rows = new ArrayList<>();
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
            while (stream.next()) {
                rows.addAll(values(stream.getRoot()));
            }
        }
        return rows;
    }

    private static boolean tableExists(String table)
            throws Exception
    {
        return query("SHOW TABLES FROM memory.default").stream().anyMatch(row -> row.get(0).equals(table));
    }

    /**
     * Sends {@code batches} batches of {@code rows} people each over one DoPut; when
     * {@code failAfter} is not negative the client aborts the stream after that many batches.
     */
    private static long put(CommandStatementIngest command, int batches, int rows, int failAfter)
            throws Exception
    {
        FlightDescriptor descriptor = FlightDescriptor.command(Any.pack(command).toByteArray());
        try (VectorSchemaRoot root = VectorSchemaRoot.create(PEOPLE, allocator); SyncPutListener result = new SyncPutListener()) {
            FlightClient.ClientStreamListener listener = client.startPut(descriptor, root, result, bearer);
            for (int batch = 0; batch < batches; batch++) {
                if (batch == failAfter) {
                    listener.error(CallStatus.CANCELLED.withDescription("client gave up").toRuntimeException());
                    listener.getResult();
                    throw new AssertionError("the put should have failed");
                }
                people(root, batch * rows, rows);
                listener.putNext();
            }
            listener.completed();
            listener.getResult();
            try (PutResult put = result.read()) {
                return DoPutUpdateResult.parseFrom(put.getApplicationMetadata().nioBuffer()).getRecordCount();
            }
        }
    }

    @Test
    void ingestCreatesAppendsAndReplaces()
            throws Exception
    {
        assertThat(put(command("ingested", CREATE), 3, 1000, -1)).isEqualTo(3000);
        assertThat(query("SELECT * FROM memory.default.ingested ORDER BY id")).isEqualTo(expectedPeople(0, 3000));
        assertThat(query("DESCRIBE memory.default.ingested")).extracting(row -> row.get(1))
                .containsExactly("BIGINT", "VARCHAR", "DECIMAL(10,2)", "DATE", "TIMESTAMP(6)", "BOOLEAN", "DOUBLE");

        // one batch through FlightSqlClient.executeIngest, appended
        try (VectorSchemaRoot root = VectorSchemaRoot.create(PEOPLE, allocator)) {
            people(root, 3000, 500);
            assertThat(sql.executeIngest(root, new ExecuteIngestOptions("ingested", APPEND, "memory", "default", null), bearer)).isEqualTo(500);
        }
        assertThat(query("SELECT * FROM memory.default.ingested ORDER BY id")).isEqualTo(expectedPeople(0, 3500));

        assertThatThrownBy(() -> put(command("ingested", CREATE), 1, 10, -1))
                .isInstanceOf(FlightRuntimeException.class)
                .hasMessageContaining("Table 'memory.default.ingested' already exists");
        assertThat(query("SELECT count(*) FROM memory.default.ingested")).containsExactly(List.of(3500L));

        Schema replacement = new Schema(List.of(Field.nullable("word", ArrowType.Utf8.INSTANCE)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(replacement, allocator)) {
            VarCharVector words = (VarCharVector) root.getVector(0);
            words.setSafe(0, "alpha".getBytes(UTF_8));
            words.setSafe(1, "beta".getBytes(UTF_8));
            root.setRowCount(2);
            assertThat(sql.executeIngest(root, new ExecuteIngestOptions("ingested", REPLACE, "memory", "default", null), bearer)).isEqualTo(2);
        }
        assertThat(query("SELECT * FROM memory.default.ingested ORDER BY word")).containsExactly(List.of("alpha"), List.of("beta"));
        sql.executeUpdate("DROP TABLE memory.default.ingested", bearer);
    }

    @Test
    void ingestUsesTheSessionCatalog()
            throws Exception
    {
        client.setSessionOptions(new SetSessionOptionsRequest(Map.of("catalog", SessionOptionValueFactory.makeSessionOptionValue("memory"))), bearer);
        try {
            CommandStatementIngest command = CommandStatementIngest.newBuilder().setTable("session_ingested").setTableDefinitionOptions(CREATE).build();
            assertThat(put(command, 2, 10, -1)).isEqualTo(20);
            assertThat(query("SELECT * FROM memory.default.session_ingested ORDER BY id")).isEqualTo(expectedPeople(0, 20));
            sql.executeUpdate("DROP TABLE memory.default.session_ingested", bearer);
        }
        finally {
            client.setSessionOptions(new SetSessionOptionsRequest(Map.of("catalog", SessionOptionValueFactory.makeEmptySessionOptionValue())), bearer);
        }
        CommandStatementIngest unqualified = CommandStatementIngest.newBuilder().setTable("nowhere").setTableDefinitionOptions(CREATE).build();
        assertThatThrownBy(() -> put(unqualified, 1, 10, -1))
                .isInstanceOf(FlightRuntimeException.class)
                .hasMessageContaining("names no catalog");
    }

    @Test
    void ingestIntoReadOnlyCatalogFails()
    {
        CommandStatementIngest append = CommandStatementIngest.newBuilder().setCatalog("tpch").setSchema("tiny").setTable("nation").setTableDefinitionOptions(APPEND).build();
        assertThatThrownBy(() -> put(append, 1, 10, -1))
                .isInstanceOf(FlightRuntimeException.class)
                .hasMessageContaining("Cannot ingest into 'tpch.tiny.nation'")
                .satisfies(e -> assertThat(((FlightRuntimeException) e).status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT));
        CommandStatementIngest create = CommandStatementIngest.newBuilder().setCatalog("tpch").setSchema("tiny").setTable("people").setTableDefinitionOptions(CREATE).build();
        assertThatThrownBy(() -> put(create, 1, 10, -1))
                .isInstanceOf(FlightRuntimeException.class)
                .hasMessageContaining("Cannot ingest into 'tpch.tiny.people'");
        CommandStatementIngest missing = command("no_such_table", APPEND);
        assertThatThrownBy(() -> put(missing, 1, 10, -1))
                .isInstanceOf(FlightRuntimeException.class)
                .hasMessageContaining("Table 'memory.default.no_such_table' does not exist");
    }

    @Test
    void failedStreamLeavesNothing()
            throws Exception
    {
        assertThatThrownBy(() -> put(command("half_created", CREATE), 3, 1000, 2)).isInstanceOf(FlightRuntimeException.class);
        awaitTableGone("half_created");

        assertThat(put(command("kept", CREATE), 1, 100, -1)).isEqualTo(100);
        assertThatThrownBy(() -> put(command("kept", APPEND), 3, 1000, 2)).isInstanceOf(FlightRuntimeException.class);
        assertThatThrownBy(() -> put(command("kept", REPLACE), 3, 1000, 2)).isInstanceOf(FlightRuntimeException.class);
        // the server may still be unwinding the failed put: its sink aborts, nothing commits
        Thread.sleep(500);
        assertThat(query("SELECT * FROM memory.default.kept ORDER BY id")).isEqualTo(expectedPeople(0, 100));
        sql.executeUpdate("DROP TABLE memory.default.kept", bearer);
    }

    private static void awaitTableGone(String table)
            throws Exception
    {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (tableExists(table)) {
            assertThat(System.nanoTime()).as("table %s still exists", table).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void ingestConvertsClientTypes()
            throws Exception
    {
        Schema schema = new Schema(List.of(
                Field.nullable("label", ArrowType.LargeUtf8.INSTANCE),
                Field.nullable("amount", new ArrowType.Int(16, false)),
                Field.nullable("born", new ArrowType.Date(DateUnit.MILLISECOND)),
                Field.nullable("seen_at", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null))));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            ((LargeVarCharVector) root.getVector(0)).setSafe(0, "large".getBytes(UTF_8));
            ((UInt2Vector) root.getVector(1)).setSafe(0, 65535);
            ((DateMilliVector) root.getVector(2)).setSafe(0, LocalDate.of(2024, 2, 29).toEpochDay() * 86_400_000L);
            ((TimeStampNanoVector) root.getVector(3)).setSafe(0, 1_700_000_000_123_456_789L);
            root.setRowCount(1);
            assertThat(sql.executeIngest(root, new ExecuteIngestOptions("converted", CREATE, "memory", "default", null), bearer)).isEqualTo(1);
        }
        assertThat(query("DESCRIBE memory.default.converted")).extracting(row -> row.get(1)).containsExactly("VARCHAR", "INTEGER", "DATE", "TIMESTAMP(6)");
        List<Object> row = query("SELECT label, amount, CAST(born AS VARCHAR), seen_at FROM memory.default.converted").get(0);
        assertThat(row).containsExactly("large", 65535, "2024-02-29", LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_456_000));

        // an INTEGER stream appends to the table's BIGINT column
        sql.executeUpdate("CREATE TABLE memory.default.wide (id BIGINT, name VARCHAR(5))", bearer);
        Schema narrow = new Schema(List.of(Field.nullable("id", new ArrowType.Int(32, true)), Field.nullable("name", ArrowType.Utf8.INSTANCE)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(narrow, allocator)) {
            ((IntVector) root.getVector(0)).setSafe(0, 42);
            ((VarCharVector) root.getVector(1)).setSafe(0, "ada".getBytes(UTF_8));
            root.setRowCount(1);
            assertThat(sql.executeIngest(root, new ExecuteIngestOptions("wide", APPEND, "memory", "default", null), bearer)).isEqualTo(1);
            ((VarCharVector) root.getVector(1)).setSafe(0, "too long".getBytes(UTF_8));
            assertThatThrownBy(() -> sql.executeIngest(root, new ExecuteIngestOptions("wide", APPEND, "memory", "default", null), bearer))
                    .hasMessageContaining("too long for column 'name'");
        }
        assertThat(query("SELECT id, name FROM memory.default.wide")).containsExactly(List.of(42L, "ada"));

        Schema zoned = new Schema(List.of(Field.nullable("seen_at", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"))));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(zoned, allocator)) {
            root.setRowCount(0);
            assertThatThrownBy(() -> sql.executeIngest(root, new ExecuteIngestOptions("zoned", CREATE, "memory", "default", null), bearer))
                    .hasMessageContaining("TIMESTAMP WITH TIME ZONE is not supported");
        }
        assertThat(tableExists("zoned")).isFalse();
        sql.executeUpdate("DROP TABLE memory.default.converted", bearer);
        sql.executeUpdate("DROP TABLE memory.default.wide", bearer);
    }
}
