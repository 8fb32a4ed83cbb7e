package io.ontul.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Connecting, errors, session defaults and the metadata calls DBeaver makes, against a real server. */
class TestOntulDriver
{
    private static TestingServer server;

    @BeforeAll
    static void startServer()
            throws Exception
    {
        server = new TestingServer();
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    private static Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection(server.urlWithCredentials());
    }

    /** Issue 23: closing a connection (a BI tool's tab) while its query runs stops the query on the server. */
    @Test
    void closingAConnectionStopsItsRunningQuery()
            throws Exception
    {
        String marker = "/* closed " + System.nanoTime() + " */";
        Connection connection = DriverManager.getConnection(server.urlWithCredentials());
        Statement statement = connection.createStatement();
        List<Throwable> failures = new ArrayList<>();
        Thread query = new Thread(() -> {
            try (ResultSet rows = statement.executeQuery(marker + " SELECT count(*), sum(l_extendedprice) FROM tpch.sf100.lineitem")) {
                rows.next();
                failures.add(new AssertionError("the query answered instead of being stopped"));
            }
            catch (SQLException expected) {
                // the connection closed under it
            }
        });
        query.start();
        try (Connection admin = DriverManager.getConnection(server.urlWithCredentials()); Statement watch = admin.createStatement()) {
            String state = awaitState(watch, marker, "RUNNING");
            assertThat(state).isEqualTo("RUNNING");
            connection.close();
            assertThat(awaitState(watch, marker, "CANCELLED")).isEqualTo("CANCELLED");
        }
        query.join(Duration.ofSeconds(30).toMillis());
        assertThat(query.isAlive()).as("the closed connection's query still waits").isFalse();
        assertThat(failures).isEmpty();
    }

    @Test
    void cancelStopsTheRunningQueryAndTheStatementRunsTheNextOne()
            throws Exception
    {
        String marker = "/* cancelled " + System.nanoTime() + " */";
        try (Connection connection = DriverManager.getConnection(server.urlWithCredentials()); Statement statement = connection.createStatement()) {
            List<SQLException> failures = new ArrayList<>();
            List<String> answers = new ArrayList<>();
            Thread query = new Thread(() -> {
                try (ResultSet rows = statement.executeQuery(marker + " SELECT count(*), sum(l_extendedprice) FROM tpch.sf100.lineitem")) {
                    rows.next();
                    answers.add("answered");
                }
                catch (SQLException e) {
                    failures.add(e);
                }
            });
            query.start();
            try (Connection admin = DriverManager.getConnection(server.urlWithCredentials()); Statement watch = admin.createStatement()) {
                assertThat(awaitState(watch, marker, "RUNNING")).isEqualTo("RUNNING");
                statement.cancel();
                assertThat(awaitState(watch, marker, "CANCELLED")).isEqualTo("CANCELLED");
            }
            query.join(Duration.ofSeconds(30).toMillis());
            assertThat(query.isAlive()).as("the cancelled query still waits").isFalse();
            assertThat(answers).isEmpty();
            assertThat(failures).singleElement().satisfies(e -> assertThat(e.getSQLState()).isEqualTo("57014"));
            try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM tpch.tiny.nation")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).as("the statement after its cancel").isEqualTo(25);
            }
        }
    }

    /** Polls system.runtime.queries (up to 30 s) until the statement marked so is in {@code wanted}; returns its last state. */
    private static String awaitState(Statement watch, String marker, String wanted)
            throws Exception
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String state = null;
        while (System.nanoTime() < deadline) {
            try (ResultSet rows = watch.executeQuery("SELECT state FROM system.runtime.queries WHERE position('" + marker + "' IN query) = 1")) {
                state = rows.next() ? rows.getString(1) : null;
            }
            if (wanted.equals(state)) {
                return state;
            }
            Thread.sleep(50);
        }
        return state;
    }

    @Test
    void registersAsAServiceAndAcceptsOnlyOntulUrls()
            throws SQLException
    {
        List<Class<?>> drivers = new ArrayList<>();
        ServiceLoader.load(Driver.class).forEach(driver -> drivers.add(driver.getClass()));
        assertThat(drivers).contains(OntulDriver.class);
        Driver driver = DriverManager.getDriver("jdbc:ontul://localhost");
        assertThat(driver).isInstanceOf(OntulDriver.class);
        assertThat(driver.acceptsURL("jdbc:arrow-flight-sql://localhost:47470")).isFalse();
        assertThat(driver.connect("jdbc:postgresql://localhost/db", new Properties())).isNull();
        assertThat(driver.jdbcCompliant()).isFalse();
        // the version Maven wrote into driver.properties
        assertThat(OntulDriver.VERSION).startsWith(driver.getMajorVersion() + "." + driver.getMinorVersion() + ".").doesNotContain("$").isNotEqualTo("0.0.0");
        Properties given = new Properties();
        given.setProperty("user", "admin");
        DriverPropertyInfo[] properties = driver.getPropertyInfo("jdbc:ontul://localhost", given);
        assertThat(Arrays.stream(properties).map(property -> property.name))
                .contains("user", "password", "tls", "disableCertificateVerification", "trustStore", "trustStorePassword");
        assertThat(Arrays.stream(properties).filter(property -> property.name.equals("user")).findFirst().orElseThrow().value).isEqualTo("admin");
        assertThat(Arrays.stream(properties).filter(property -> property.name.equals("tls")).findFirst().orElseThrow().choices).containsExactly("true", "false");
    }

    @Test
    void connectsWithCredentialsAsUrlParametersOrProperties()
            throws SQLException
    {
        try (Connection connection = connect()) {
            assertThat(singleValue(connection, "SELECT r_name FROM tpch.tiny.region WHERE r_regionkey = 1")).isEqualTo("AMERICA");
        }
        Properties properties = new Properties();
        properties.setProperty("user", "admin");
        properties.setProperty("password", TestingServer.PASSWORD);
        try (Connection connection = DriverManager.getConnection(server.url(""), properties)) {
            assertThat(singleValue(connection, "SELECT r_name FROM tpch.tiny.region WHERE r_regionkey = 2")).isEqualTo("ASIA");
        }
        try (Connection connection = DriverManager.getConnection(server.url("/"), "admin", TestingServer.PASSWORD)) {
            assertThat(singleValue(connection, "SELECT r_name FROM tpch.tiny.region WHERE r_regionkey = 3")).isEqualTo("EUROPE");
            assertThat(connection.isValid(5)).isTrue();
            assertThat(connection.isReadOnly()).isFalse();
        }
    }

    @Test
    void wrongPasswordNamesTheProblem()
    {
        assertThatThrownBy(() -> DriverManager.getConnection(server.url(""), "admin", "wrong-password").close())
                .isInstanceOf(SQLException.class)
                .hasMessageStartingWith("Cannot log in to Ontul at 127.0.0.1:" + server.port() + " as 'admin': ")
                .hasMessageContaining("Wrong user name or password")
                .extracting(exception -> ((SQLException) exception).getSQLState()).isEqualTo("28000");
    }

    @Test
    void unreachableServerFailsFastWithAConnectionError()
            throws IOException
    {
        int freePort;
        try (ServerSocket socket = new ServerSocket(0)) {
            freePort = socket.getLocalPort();
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:ontul://127.0.0.1:" + freePort, "admin", "x").close())
                .isInstanceOf(SQLException.class)
                .hasMessageStartingWith("Cannot reach Ontul at 127.0.0.1:" + freePort + " without TLS: io exception (ConnectException: Connection refused)")
                .extracting(exception -> ((SQLException) exception).getSQLState()).isEqualTo("08001");
        // a TLS client in front of this plain-text server
        assertThatThrownBy(() -> DriverManager.getConnection(server.url("?tls=true"), "admin", TestingServer.PASSWORD).close())
                .isInstanceOf(SQLException.class)
                .hasMessageStartingWith("Cannot reach Ontul at 127.0.0.1:" + server.port() + " with TLS: ")
                .hasMessageEndingWith("Is the server running there, and does it serve TLS?")
                .extracting(exception -> ((SQLException) exception).getSQLState()).isEqualTo("08001");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void errorsCarryTheServerMessageAndASqlState()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SELEC 1"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 1:")
                    .extracting(exception -> ((SQLException) exception).getSQLState()).isEqualTo("42000");
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM tpch.tiny.no_such_table"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not exist")
                    .extracting(exception -> ((SQLException) exception).getSQLState()).isEqualTo("42000");
            assertThatThrownBy(() -> connection.prepareStatement("SELECT * FROM tpch.tiny.no_such_table"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not exist");
            assertThat(singleValue(connection, "SELECT r_name FROM tpch.tiny.region WHERE r_regionkey = 0")).isEqualTo("AFRICA");
        }
    }

    @Test
    void urlPathSelectsCatalogAndSchema()
            throws SQLException
    {
        try (Connection connection = DriverManager.getConnection(server.url("/tpch/tiny"), "admin", TestingServer.PASSWORD)) {
            assertThat(connection.getCatalog()).isEqualTo("tpch");
            assertThat(connection.getSchema()).isEqualTo("tiny");
            assertThat(singleValue(connection, "SELECT count(*) FROM nation")).isEqualTo("25");
            connection.setSchema("sf1");
            assertThat(connection.getSchema()).isEqualTo("sf1");
            assertThat(singleValue(connection, "SELECT count(*) FROM region")).isEqualTo("5");
            connection.setCatalog("memory");
            connection.setSchema("default");
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("CREATE TABLE unqualified (x BIGINT)");
            }
            assertThat(singleValue(connection, "SELECT count(*) FROM memory.default.unqualified")).isEqualTo("0");
            assertThatThrownBy(() -> connection.setCatalog("no_such_catalog"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageStartingWith("Catalog 'no_such_catalog' does not exist");
        }
        assertThatThrownBy(() -> DriverManager.getConnection(server.url("/nope/tiny"), "admin", TestingServer.PASSWORD))
                .isInstanceOf(SQLException.class)
                .hasMessageStartingWith("Catalog 'nope' does not exist");
    }

    @Test
    void readsVarbinaryAsBytesUuidAsTextAndArraysAsArrays()
            throws SQLException
    {
        try (Connection connection = DriverManager.getConnection(server.url(""), "admin", TestingServer.PASSWORD);
                Statement statement = connection.createStatement();
                java.sql.ResultSet result = statement.executeQuery("SELECT X'00ff7f', UUID 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', CAST(NULL AS VARBINARY)")) {
            assertThat(result.getMetaData().getColumnType(1)).isEqualTo(java.sql.Types.VARBINARY);
            assertThat(result.getMetaData().getColumnType(2)).as("a UUID reaches Arrow clients as its text").isEqualTo(java.sql.Types.VARCHAR);
            assertThat(result.next()).isTrue();
            assertThat(result.getBytes(1)).containsExactly(0, 0xff, 0x7f);
            assertThat(result.getString(2)).isEqualTo("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
            assertThat(result.getBytes(3)).isNull();
            assertThat(result.wasNull()).isTrue();
        }
        try (Connection connection = DriverManager.getConnection(server.url(""), "admin", TestingServer.PASSWORD);
                Statement statement = connection.createStatement();
                java.sql.ResultSet result = statement.executeQuery("SELECT ARRAY[3, NULL, 1], ARRAY['a', 'b']")) {
            assertThat(result.getMetaData().getColumnType(1)).isEqualTo(java.sql.Types.ARRAY);
            assertThat(result.next()).isTrue();
            assertThat((Object[]) result.getArray(1).getArray()).containsExactly(3, null, 1);
            assertThat((Object[]) result.getArray(2).getArray()).extracting(String::valueOf).containsExactly("a", "b");
        }
    }

    @Test
    void objectsLeadBackToTheOntulConnection()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.getConnection()).isSameAs(connection);
            assertThat(connection.getMetaData().getConnection()).isSameAs(connection);
            assertThat(connection.prepareStatement("SELECT 1").getConnection()).isSameAs(connection);
            try (ResultSet result = statement.executeQuery("SELECT 1")) {
                assertThat(result.getStatement()).isSameAs(statement);
            }
            assertThat(connection.isWrapperFor(Connection.class)).isTrue();
            assertThat(connection.unwrap(Connection.class)).isSameAs(connection);
        }
    }

    @Test
    void metadataCallsAnswerWithTheirColumns()
            throws SQLException
    {
        try (Connection connection = connect()) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertThat(metadata.getDatabaseProductName()).isEqualTo("Ontul");
            assertThat(metadata.getDriverName()).isEqualTo("Ontul JDBC Driver");
            assertThat(metadata.getDriverVersion()).isEqualTo(OntulDriver.VERSION);
            assertThat(metadata.getDriverMajorVersion()).isEqualTo(OntulDriver.MAJOR_VERSION);
            assertThat(metadata.getURL()).isEqualTo("jdbc:ontul://127.0.0.1:" + server.port());
            assertThat(metadata.getUserName()).isEqualTo("admin");
            assertThat(metadata.getIdentifierQuoteString()).isEqualTo("\"");
            // issue 23: what generic clients (sqlline's !columns, !dbinfo) ask before they look names up
            assertThat(metadata.storesLowerCaseIdentifiers()).isTrue();
            assertThat(metadata.storesUpperCaseIdentifiers()).isFalse();
            assertThat(metadata.storesMixedCaseIdentifiers()).isFalse();
            assertThat(metadata.storesMixedCaseQuotedIdentifiers()).isTrue();
            assertThat(metadata.getDefaultTransactionIsolation()).isEqualTo(Connection.TRANSACTION_NONE);
            assertThat(metadata.supportsTransactions()).isFalse();
            assertThat(metadata.getSQLKeywords()).isNotBlank();
            assertThat(column(metadata.getCatalogs(), "TABLE_CAT")).contains("memory", "tpch");
            assertThat(column(metadata.getSchemas(), "TABLE_SCHEM")).contains("tiny", "default");
            assertThat(column(metadata.getSchemas("tpch", "ti%"), "TABLE_SCHEM")).containsExactly("tiny");
            assertThat(column(metadata.getTables("tpch", "tiny", "line%", null), "TABLE_NAME")).containsExactly("lineitem");
            assertThat(column(metadata.getTables("tpch", "tiny", "%", new String[] {"TABLE"}), "TABLE_NAME"))
                    .containsExactlyInAnyOrder("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier");
            assertThat(column(metadata.getTableTypes(), "TABLE_TYPE")).contains("TABLE");
            assertThat(column(metadata.getPrimaryKeys("tpch", "tiny", "lineitem"), "COLUMN_NAME")).containsExactly("l_orderkey", "l_linenumber");
            assertThat(column(metadata.getImportedKeys("tpch", "tiny", "lineitem"), "PKTABLE_NAME")).isEmpty();
            assertThat(column(metadata.getExportedKeys("tpch", "tiny", "lineitem"), "FKTABLE_NAME")).isEmpty();
            // from the server's system.jdbc.types, ordered by DATA_TYPE as JDBC asks
            assertThat(column(metadata.getTypeInfo(), "TYPE_NAME"))
                    .containsExactly("TINYINT", "BIGINT", "VARBINARY", "CHAR", "DECIMAL", "INTEGER", "SMALLINT", "REAL", "DOUBLE", "VARCHAR", "BOOLEAN", "DATE", "TIME", "TIMESTAMP", "UUID", "ARRAY",
                            "TIMESTAMP WITH TIME ZONE");
            try (ResultSet typeInfo = metadata.getTypeInfo()) {
                assertThat(typeInfo.next()).isTrue();
                assertThat(typeInfo.getInt("DATA_TYPE")).isEqualTo(java.sql.Types.TINYINT);
                assertThat(typeInfo.getInt("PRECISION")).isEqualTo(3);
                assertThat(typeInfo.getShort("NULLABLE")).isEqualTo((short) DatabaseMetaData.typeNullable);
                assertThat(typeInfo.getInt("NUM_PREC_RADIX")).isEqualTo(10);
            }

            Map<String, String> types = new HashMap<>();
            Map<String, Integer> sizes = new HashMap<>();
            Map<String, Integer> digits = new HashMap<>();
            try (ResultSet columns = metadata.getColumns("tpch", "tiny", "lineitem", null)) {
                while (columns.next()) {
                    String name = columns.getString("COLUMN_NAME");
                    types.put(name, columns.getString("TYPE_NAME"));
                    sizes.put(name, columns.getInt("COLUMN_SIZE"));
                    digits.put(name, columns.getInt("DECIMAL_DIGITS"));
                }
            }
            // lineitem as the TPC-H specification defines it
            assertThat(types).hasSize(16)
                    .containsEntry("l_orderkey", "BIGINT")
                    .containsEntry("l_linenumber", "INTEGER")
                    .containsEntry("l_quantity", "DECIMAL")
                    .containsEntry("l_shipdate", "DATE")
                    .containsEntry("l_comment", "VARCHAR");
            assertThat(sizes).containsEntry("l_quantity", 15).containsEntry("l_comment", 44);
            assertThat(digits).containsEntry("l_quantity", 2);
        }
    }

    /**
     * Every method of DatabaseMetaData a generic client may call, with both drivers, with plain
     * arguments (null patterns, TYPE_FORWARD_ONLY...): each answers, or refuses with
     * SQLFeatureNotSupportedException; result sets can be read to the end. Arrow's driver leaves
     * ten methods to Avatica, which throws "todo: implement this method" (ownUpdatesAreVisible and
     * the like) and reads the ANSI-92 level from a SqlInfo that Arrow Java's server side cannot
     * send (a NullPointerException); Ontul's driver answers them all.
     */
    @Test
    void everyDatabaseMetaDataMethodAnswers()
            throws Exception
    {
        for (String url : List.of(server.urlWithCredentials(), server.arrowUrl())) {
            try (Connection connection = DriverManager.getConnection(url)) {
                DatabaseMetaData metadata = connection.getMetaData();
                List<String> called = new ArrayList<>();
                List<String> failed = new ArrayList<>();
                for (java.lang.reflect.Method method : DatabaseMetaData.class.getMethods()) {
                    if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
                        continue;
                    }
                    // string arguments null (any catalog, schema, pattern), but tables named where JDBC wants a name
                    boolean namesTable = java.util.Set.of("getPrimaryKeys", "getImportedKeys", "getExportedKeys", "getBestRowIdentifier", "getVersionColumns",
                            "getIndexInfo", "getCrossReference").contains(method.getName());
                    List<String> names = List.of("tpch", "tiny", "nation");
                    Class<?>[] parameters = method.getParameterTypes();
                    Object[] arguments = new Object[parameters.length];
                    for (int i = 0; i < parameters.length; i++) {
                        arguments[i] = namesTable && parameters[i] == String.class ? names.get(i % 3) : plainArgument(parameters[i]);
                        if (method.getName().equals("supportsTransactionIsolationLevel")) {
                            arguments[i] = Connection.TRANSACTION_NONE;
                        }
                    }
                    Object result;
                    try {
                        result = method.invoke(metadata, arguments);
                    }
                    catch (java.lang.reflect.InvocationTargetException e) {
                        boolean arrows = url.startsWith("jdbc:arrow-flight-sql:");
                        boolean avaticaTodo = arrows && String.valueOf(e.getCause().getMessage()).contains("todo: implement this method");
                        boolean ansi92 = arrows && method.getName().startsWith("supportsANSI92");
                        if (!(e.getCause() instanceof java.sql.SQLFeatureNotSupportedException) && !avaticaTodo && !ansi92) {
                            failed.add(method.getName() + ": " + e.getCause());
                        }
                        continue;
                    }
                    if (result instanceof ResultSet resultSet) {
                        try (resultSet) {
                            int columns = resultSet.getMetaData().getColumnCount();
                            while (resultSet.next()) {
                                for (int column = 1; column <= columns; column++) {
                                    resultSet.getObject(column);
                                }
                            }
                        }
                    }
                    called.add(method.getName());
                }
                assertThat(failed).as("methods that failed with %s", url).isEmpty();
                assertThat(called).as("methods that answered with %s", url).hasSizeGreaterThan(150);
                if (url.startsWith("jdbc:ontul:")) {
                    assertThatThrownBy(() -> metadata.getPrimaryKeys(null, null, null))
                            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("HY009"))
                            .hasMessageContaining("getPrimaryKeys needs a table name");
                }
            }
        }
    }

    private static Object plainArgument(Class<?> type)
    {
        if (type == int.class) {
            // the one int most methods take: a result set type (others accept it as a plain number)
            return ResultSet.TYPE_FORWARD_ONLY;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == String[].class) {
            return null;
        }
        return null;
    }

    @Test
    void emptyMetadataResultsStillHaveTheirColumns()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE memory.default.without_key (x BIGINT)");
            DatabaseMetaData metadata = connection.getMetaData();
            assertEmptyWithColumns(metadata.getTables("tpch", "tiny", "no_such_table%", null), "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE");
            assertEmptyWithColumns(metadata.getColumns("tpch", "tiny", "no_such_table", null), "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE");
            assertEmptyWithColumns(metadata.getPrimaryKeys("memory", "default", "without_key"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
            assertEmptyWithColumns(metadata.getImportedKeys("tpch", "tiny", "lineitem"), "PKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ");
            assertEmptyWithColumns(metadata.getExportedKeys("tpch", "tiny", "lineitem"), "PKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ");
            assertEmptyWithColumns(metadata.getSchemas("tpch", "no_such_schema"), "TABLE_SCHEM", "TABLE_CATALOG");
            for (ResultSet result : List.of(metadata.getIndexInfo("tpch", "tiny", "lineitem", false, true),
                    metadata.getProcedures(null, null, "%"),
                    metadata.getFunctions(null, null, "%"),
                    metadata.getTablePrivileges(null, null, "%"),
                    metadata.getVersionColumns("tpch", "tiny", "lineitem"))) {
                try (result) {
                    assertThat(result.getMetaData().getColumnCount()).isPositive();
                    while (result.next()) {
                        result.getString(1);
                    }
                }
            }
        }
    }

    private static void assertEmptyWithColumns(ResultSet result, String... someColumns)
            throws SQLException
    {
        try (result) {
            List<String> names = new ArrayList<>();
            for (int column = 1; column <= result.getMetaData().getColumnCount(); column++) {
                names.add(result.getMetaData().getColumnLabel(column));
            }
            assertThat(names).contains(someColumns);
            assertThat(result.findColumn(someColumns[0])).isEqualTo(names.indexOf(someColumns[0]) + 1);
            assertThat(result.next()).isFalse();
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

    private static String singleValue(Connection connection, String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            assertThat(result.next()).isTrue();
            String value = result.getString(1);
            assertThat(result.next()).isFalse();
            return value;
        }
    }
}
