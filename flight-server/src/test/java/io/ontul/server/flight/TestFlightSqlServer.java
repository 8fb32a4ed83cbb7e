package io.ontul.server.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;

/**
 * The server over real sockets on a free port, reached by Arrow's Flight SQL JDBC driver and by
 * FlightSqlClient. Expected values come from the TPC-H generator itself, not from Ontul.
 */
class TestFlightSqlServer
{
    private static final String PASSWORD = "test-password-1";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;

    @BeforeAll
    static void startServer()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    private static String url(String password)
    {
        return "jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + password;
    }

    private static Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection(url(PASSWORD));
    }

    @Test
    void jdbcAggregatesDecimalAndBigint()
            throws SQLException
    {
        long count = 0;
        long quantity = 0;
        for (LineItem item : new LineItemGenerator(0.01, 1, 1)) {
            count++;
            quantity += item.getQuantity();
        }
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(*), sum(l_quantity) FROM tpch.tiny.lineitem")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getLong(1)).isEqualTo(count).isEqualTo(60175);
            assertThat(result.getBigDecimal(2)).isEqualByComparingTo(BigDecimal.valueOf(quantity));
            assertThat(result.next()).isFalse();
        }
    }

    @Test
    void jdbcReadsDecimalDateVarcharBigint()
            throws SQLException
    {
        List<Order> expected = new ArrayList<>();
        for (Order order : new OrderGenerator(0.01, 1, 1)) {
            if (expected.size() == 5) {
                break;
            }
            expected.add(order);
        }
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(
                        "SELECT o_orderkey, o_totalprice, o_orderdate, o_orderpriority FROM tpch.tiny.orders ORDER BY o_orderkey LIMIT 5")) {
            for (Order order : expected) {
                assertThat(result.next()).isTrue();
                assertThat(result.getLong(1)).isEqualTo(order.getOrderKey());
                assertThat(result.getBigDecimal(2)).isEqualByComparingTo(BigDecimal.valueOf(order.getTotalPriceInCents(), 2));
                assertThat(result.getDate(3).toLocalDate().toString()).isEqualTo(GenerateUtils.formatDate(order.getOrderDate()));
                assertThat(result.getString(4)).isEqualTo(order.getOrderPriority());
            }
            assertThat(result.next()).isFalse();
        }
    }

    @Test
    void jdbcReadsNulls()
            throws SQLException
    {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(
                        "SELECT CAST(NULL AS VARCHAR), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS DATE), CAST(NULL AS BIGINT), 7")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getString(1)).isNull();
            assertThat(result.getBigDecimal(2)).isNull();
            assertThat(result.getDate(3)).isNull();
            result.getLong(4);
            assertThat(result.wasNull()).isTrue();
            assertThat(result.getInt(5)).isEqualTo(7);
        }
    }

    @Test
    void jdbcDdlAndDmlReturnUpdateCounts()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate("CREATE TABLE memory.default.flight_people (id BIGINT, name VARCHAR)")).isEqualTo(0);
            assertThat(statement.executeUpdate("INSERT INTO memory.default.flight_people VALUES (1, 'ada'), (2, NULL), (3, 'grace')")).isEqualTo(3);
            assertThat(statement.execute("INSERT INTO memory.default.flight_people SELECT id + 10, name FROM memory.default.flight_people")).isFalse();
            assertThat(statement.getUpdateCount()).isEqualTo(3);
            try (ResultSet result = statement.executeQuery("SELECT count(*), count(name) FROM memory.default.flight_people")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getLong(1)).isEqualTo(6);
                assertThat(result.getLong(2)).isEqualTo(4);
            }
            assertThat(statement.executeUpdate("DROP TABLE memory.default.flight_people")).isEqualTo(0);
        }
    }

    @Test
    void jdbcMetadataCallsAnswer()
            throws SQLException
    {
        try (Connection connection = connect()) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertThat(metadata.getDatabaseProductName()).isEqualTo("Ontul");
            assertThat(metadata.getIdentifierQuoteString()).isEqualTo("\"");
            assertThat(metadata.getSQLKeywords()).contains("EXPLAIN");
            assertThat(column(metadata.getCatalogs(), "TABLE_CAT")).contains("memory", "tpch");
            assertThat(column(metadata.getSchemas(), "TABLE_SCHEM")).contains("tiny", "default");
            assertThat(column(metadata.getTables("tpch", "tiny", "line%", null), "TABLE_NAME")).containsExactly("lineitem");
            assertThat(column(metadata.getTableTypes(), "TABLE_TYPE")).containsExactly("TABLE", "VIEW");
            assertThat(column(metadata.getPrimaryKeys("tpch", "tiny", "lineitem"), "COLUMN_NAME")).containsExactly("l_orderkey", "l_linenumber");
            assertThat(column(metadata.getImportedKeys("tpch", "tiny", "lineitem"), "PKTABLE_NAME")).isEmpty();
            assertThat(column(metadata.getExportedKeys("tpch", "tiny", "lineitem"), "FKTABLE_NAME")).isEmpty();
            column(metadata.getTypeInfo(), "TYPE_NAME");

            Map<String, String> types = new HashMap<>();
            Map<String, Integer> sizes = new HashMap<>();
            try (ResultSet columns = metadata.getColumns("tpch", "tiny", "lineitem", null)) {
                while (columns.next()) {
                    types.put(columns.getString("COLUMN_NAME"), columns.getString("TYPE_NAME"));
                    sizes.put(columns.getString("COLUMN_NAME"), columns.getInt("COLUMN_SIZE"));
                }
            }
            assertThat(types).hasSize(16)
                    .containsEntry("l_orderkey", "BIGINT")
                    .containsEntry("l_linenumber", "INTEGER")
                    .containsEntry("l_quantity", "DECIMAL")
                    .containsEntry("l_shipdate", "DATE")
                    .containsEntry("l_comment", "VARCHAR");
            assertThat(sizes).containsEntry("l_quantity", 15).containsEntry("l_comment", 44);
        }
    }

    /** DBeaver shows the keys getPrimaryKeys reports: a memory table's declared PRIMARY KEY. */
    @Test
    void declaredPrimaryKeysAreReported()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE memory.default.flight_keyed (region VARCHAR, id BIGINT, name VARCHAR, PRIMARY KEY (region, id))");
            try {
                assertThat(column(connection.getMetaData().getPrimaryKeys("memory", "default", "flight_keyed"), "COLUMN_NAME")).containsExactly("region", "id");
                assertThat(column(connection.getMetaData().getPrimaryKeys("memory", "default", "flight_keyed"), "PK_NAME")).containsExactly("flight_keyed_pkey", "flight_keyed_pkey");
            }
            finally {
                statement.execute("DROP TABLE memory.default.flight_keyed");
            }
        }
    }

    /** DBeaver lists what getTables calls VIEW under Views, with the columns getColumns gives. */
    @Test
    void viewsAreListedAsViewsWithTheirColumns()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE VIEW memory.default.flight_african_nations AS SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_regionkey = 0");
            try {
                DatabaseMetaData metadata = connection.getMetaData();
                assertThat(column(metadata.getTables("memory", "default", "flight_%", new String[] {"VIEW"}), "TABLE_NAME")).containsExactly("flight_african_nations");
                assertThat(column(metadata.getTables("memory", "default", "flight_%", new String[] {"TABLE"}), "TABLE_NAME")).doesNotContain("flight_african_nations");
                assertThat(column(metadata.getTables("memory", "default", "flight_african%", null), "TABLE_TYPE")).containsExactly("VIEW");
                Map<String, String> types = new HashMap<>();
                try (ResultSet columns = metadata.getColumns("memory", "default", "flight_african_nations", null)) {
                    while (columns.next()) {
                        types.put(columns.getString("COLUMN_NAME"), columns.getString("TYPE_NAME"));
                    }
                }
                assertThat(types).isEqualTo(Map.of("n_nationkey", "BIGINT", "n_name", "VARCHAR"));
                // TPC-H's region 0, AFRICA, has ALGERIA, ETHIOPIA, KENYA, MOROCCO and MOZAMBIQUE
                assertThat(column(statement.executeQuery("SELECT n_name FROM memory.default.flight_african_nations ORDER BY n_name"), "n_name"))
                        .containsExactly("ALGERIA", "ETHIOPIA", "KENYA", "MOROCCO", "MOZAMBIQUE");
            }
            finally {
                statement.execute("DROP VIEW memory.default.flight_african_nations");
            }
        }
    }

    private static List<String> column(ResultSet result, String name)
            throws SQLException
    {
        List<String> values = new ArrayList<>();
        try (result) {
            while (result.next()) {
                values.add(result.getString(name));
            }
        }
        return values;
    }

    @Test
    void jdbcErrorsNameTheProblemAndTheConnectionStaysUsable()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SELEC 1"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 1:");
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM tpch.tiny.no_such_table"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not exist");
            // the message names the query that failed, as system.runtime.queries lists it
            String failed = "SELECT * FROM tpch.tiny.missing_" + System.nanoTime();
            String message = null;
            try {
                statement.executeQuery(failed).close();
            }
            catch (SQLException e) {
                message = e.getMessage();
            }
            java.util.regex.Matcher id = java.util.regex.Pattern.compile("Table 'tpch.tiny.missing_\\d+' does not exist \\(query (\\S+)\\)$").matcher(String.valueOf(message));
            assertThat(id.find()).as(message).isTrue();
            try (ResultSet result = statement.executeQuery("SELECT state, query FROM system.runtime.queries WHERE query_id = '" + id.group(1) + "'")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString(1)).isEqualTo("FAILED");
                assertThat(result.getString(2)).isEqualTo(failed);
            }
            try (ResultSet result = statement.executeQuery("SELECT r_name FROM tpch.tiny.region WHERE r_regionkey = 1")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString(1)).isEqualTo("AMERICA");
            }
        }
    }

    @Test
    void jdbcWrongPasswordFailsToConnect()
    {
        assertThatThrownBy(() -> DriverManager.getConnection(url("wrong")).close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Wrong user name or password");
    }

    @Test
    void sessionPropertiesStayWithTheirConnection()
            throws SQLException
    {
        // a window over all rows keeps them in memory (it cannot spill): 60175 rows do not fit in 1 MB
        String bigWindow = "SELECT l_orderkey, NTILE(4) OVER (ORDER BY l_comment) FROM tpch.tiny.lineitem";
        try (Connection limited = connect(); Connection unlimited = connect();
                Statement limitedStatement = limited.createStatement();
                Statement unlimitedStatement = unlimited.createStatement()) {
            limitedStatement.execute("SET SESSION query_max_memory = '1MB'");
            assertThatThrownBy(() -> countRows(limitedStatement, bigWindow))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("memory");
            assertThat(countRows(unlimitedStatement, bigWindow)).isEqualTo(60175);
        }
    }

    private static long countRows(Statement statement, String sql)
            throws SQLException
    {
        long rows = 0;
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows++;
            }
        }
        return rows;
    }

    @Test
    void flightSqlClientStreamsWithTheAnnouncedSchema()
            throws Exception
    {
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
                FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            FlightInfo info = sql.execute("SELECT l_orderkey, l_quantity, l_shipdate, l_comment FROM tpch.tiny.lineitem", bearer);
            long rows = 0;
            int batches = 0;
            try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
                assertThat(stream.getSchema()).isEqualTo(info.getSchema());
                while (stream.next()) {
                    rows += stream.getRoot().getRowCount();
                    batches++;
                }
            }
            assertThat(rows).isEqualTo(60175);
            assertThat(batches).isGreaterThan(1);

            assertThat(statusOf(() -> sql.execute("SELECT * FROM tpch.tiny.no_such_table", bearer))).isEqualTo(FlightStatusCode.NOT_FOUND);
            assertThat(statusOf(() -> sql.execute("SELEC 1", bearer))).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
            assertThat(statusOf(() -> sql.execute("SELECT 1"))).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
            assertThat(statusOf(() -> client.authenticateBasicToken("admin", "wrong"))).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
        }
    }

    private static FlightStatusCode statusOf(Runnable call)
    {
        try {
            call.run();
        }
        catch (FlightRuntimeException e) {
            assertThat(e.getMessage()).doesNotContain("\tat ");
            return e.status().code();
        }
        return FlightStatusCode.OK;
    }
}
