package io.ontul.server.flight;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.util.TableRef;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * GetXdbcTypeInfo and the key listings, through FlightSqlClient and Arrow's JDBC driver.
 */
class TestFlightSqlMetadata
{
    private static final String PASSWORD = "test-password-metadata";
    private static final List<String> TYPE_NAMES = List.of(
            "TINYINT", "BIGINT", "VARBINARY", "CHAR", "DECIMAL", "INTEGER", "SMALLINT", "REAL", "DOUBLE", "VARCHAR", "BOOLEAN", "DATE", "TIME", "TIMESTAMP",
            "UUID", "ARRAY", "TIMESTAMP WITH TIME ZONE");

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

    /** The rows of a metadata result, each value as the vector returns it (Text as String). */
    private static List<List<Object>> fetch(FlightInfo info)
            throws Exception
    {
        List<List<Object>> rows = new ArrayList<>();
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
            assertThat(stream.getSchema()).isEqualTo(info.getSchema());
            while (stream.next()) {
                VectorSchemaRoot root = stream.getRoot();
                for (int row = 0; row < root.getRowCount(); row++) {
                    List<Object> values = new ArrayList<>();
                    for (int column = 0; column < root.getFieldVectors().size(); column++) {
                        Object value = root.getVector(column).getObject(row);
                        values.add(value instanceof org.apache.arrow.vector.util.Text text ? text.toString() : value);
                    }
                    rows.add(values);
                }
            }
        }
        return rows;
    }

    @Test
    void typeInfoListsEveryTypeInSpecOrder()
            throws Exception
    {
        FlightInfo info = sql.getXdbcTypeInfo(bearer);
        assertThat(info.getSchema()).isEqualTo(FlightSqlProducer.Schemas.GET_TYPE_INFO_SCHEMA);
        List<List<Object>> rows = fetch(info);
        assertThat(rows).extracting(row -> row.get(0)).containsExactlyElementsOf(TYPE_NAMES);
        assertThat(rows).extracting(row -> (Integer) row.get(1)).isSorted();

        List<Object> decimal = rows.stream().filter(row -> row.get(0).equals("DECIMAL")).findFirst().orElseThrow();
        assertThat(decimal.get(1)).isEqualTo(Types.DECIMAL);
        assertThat(decimal.get(2)).isEqualTo(38);
        assertThat(decimal.get(5).toString()).isEqualTo("[\"precision\",\"scale\"]");
        assertThat(decimal.get(13)).isEqualTo(0);
        assertThat(decimal.get(14)).isEqualTo(38);
        assertThat(decimal.get(17)).isEqualTo(10);

        List<Object> varchar = rows.stream().filter(row -> row.get(0).equals("VARCHAR")).findFirst().orElseThrow();
        assertThat(varchar.subList(1, 5)).containsExactly(Types.VARCHAR, 1 << 20, "'", "'");
        assertThat(varchar.get(7)).isEqualTo(true);

        List<Object> timestamp = rows.stream().filter(row -> row.get(0).equals("TIMESTAMP")).findFirst().orElseThrow();
        assertThat(timestamp.get(3)).isEqualTo("TIMESTAMP '");
        assertThat(timestamp.get(15)).isEqualTo(9);
        assertThat(timestamp.get(16)).isEqualTo(3);
    }

    @Test
    void typeInfoHonoursTheDataTypeFilter()
            throws Exception
    {
        assertThat(fetch(sql.getXdbcTypeInfo(Types.BIGINT, bearer))).extracting(row -> row.get(0)).containsExactly("BIGINT");
        assertThat(fetch(sql.getXdbcTypeInfo(Types.TIMESTAMP, bearer))).extracting(row -> row.get(0)).containsExactly("TIMESTAMP");
        assertThat(fetch(sql.getXdbcTypeInfo(Types.BLOB, bearer))).isEmpty();
    }

    @Test
    void primaryKeysComeFromTheCatalog()
            throws Exception
    {
        FlightInfo info = sql.getPrimaryKeys(TableRef.of("tpch", "tiny", "lineitem"), bearer);
        assertThat(info.getSchema()).isEqualTo(FlightSqlProducer.Schemas.GET_PRIMARY_KEYS_SCHEMA);
        assertThat(fetch(info)).containsExactly(
                List.of("tpch", "tiny", "lineitem", "l_orderkey", 1, "lineitem_pkey"),
                List.of("tpch", "tiny", "lineitem", "l_linenumber", 2, "lineitem_pkey"));
        assertThat(fetch(sql.getPrimaryKeys(TableRef.of("tpch", "tiny", "no_such_table"), bearer))).isEmpty();
        assertThat(fetch(sql.getPrimaryKeys(TableRef.of("no_such_catalog", "tiny", "orders"), bearer))).isEmpty();
    }

    @Test
    void foreignKeyListingsAreEmptyWithTheSpecSchemas()
            throws Exception
    {
        TableRef orders = TableRef.of("tpch", "tiny", "orders");
        FlightInfo exported = sql.getExportedKeys(orders, bearer);
        assertThat(exported.getSchema()).isEqualTo(FlightSqlProducer.Schemas.GET_EXPORTED_KEYS_SCHEMA);
        assertThat(fetch(exported)).isEmpty();
        FlightInfo imported = sql.getImportedKeys(orders, bearer);
        assertThat(imported.getSchema()).isEqualTo(FlightSqlProducer.Schemas.GET_IMPORTED_KEYS_SCHEMA);
        assertThat(fetch(imported)).isEmpty();
        FlightInfo cross = sql.getCrossReference(TableRef.of("tpch", "tiny", "customer"), orders, bearer);
        assertThat(cross.getSchema()).isEqualTo(FlightSqlProducer.Schemas.GET_CROSS_REFERENCE_SCHEMA);
        assertThat(fetch(cross)).isEmpty();
    }

    @Test
    void jdbcPrimaryKeys()
            throws SQLException
    {
        try (Connection connection = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD)) {
            DatabaseMetaData metadata = connection.getMetaData();
            List<String> keys = new ArrayList<>();
            try (ResultSet result = metadata.getPrimaryKeys("tpch", "tiny", "orders")) {
                while (result.next()) {
                    keys.add(result.getString("TABLE_NAME") + "." + result.getString("COLUMN_NAME") + ":" + result.getInt("KEY_SEQ") + ":" + result.getString("PK_NAME"));
                }
            }
            assertThat(keys).containsExactly("orders.o_orderkey:1:orders_pkey");
            try (ResultSet result = metadata.getPrimaryKeys("tpch", "tiny", "partsupp")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString("COLUMN_NAME")).isEqualTo("ps_partkey");
                assertThat(result.next()).isTrue();
                assertThat(result.getString("COLUMN_NAME")).isEqualTo("ps_suppkey");
                assertThat(result.getShort("KEY_SEQ")).isEqualTo((short) 2);
                assertThat(result.next()).isFalse();
            }
            try (ResultSet result = metadata.getImportedKeys("tpch", "tiny", "orders")) {
                assertThat(result.next()).isFalse();
            }
            try (ResultSet result = metadata.getCrossReference("tpch", "tiny", "customer", "tpch", "tiny", "orders")) {
                assertThat(result.next()).isFalse();
            }
            // Arrow's JDBC driver 18.3.0 does not forward getTypeInfo to the server (Avatica's empty default)
            try (ResultSet result = metadata.getTypeInfo()) {
                assertThat(result.next()).isFalse();
            }
        }
    }
}
