package io.ontul.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;

/**
 * Values and result columns read through jdbc:ontul:// from a real server. Expected values are
 * written out by hand or come from the TPC-H generator, never from Ontul.
 */
class TestOntulDriverResults
{
    // zones west and east of UTC, one with a half-hour offset
    private static final List<String> ZONES = List.of("UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati");

    private static TestingServer server;
    private static final TimeZone ORIGINAL_ZONE = TimeZone.getDefault();

    @BeforeAll
    static void startServer()
            throws Exception
    {
        server = new TestingServer();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE memory.default.all_types (id BIGINT, amount DECIMAL(12, 3), d DATE, t TIME, ts TIMESTAMP(6), "
                    + "name VARCHAR, score DOUBLE, flag BOOLEAN, small INTEGER)");
            assertThat(statement.executeUpdate("INSERT INTO memory.default.all_types VALUES "
                    + "(1, 12345.678, DATE '2024-02-29', TIME '13:45:30', TIMESTAMP '2024-02-29 23:59:59.123456', 'ada', 2.5, TRUE, 7), "
                    + "(2, -0.001, DATE '1969-12-31', TIME '00:00:01', TIMESTAMP '1901-12-13 20:45:52.000001', 'grace', -1.0E10, FALSE, -7), "
                    + "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")).isEqualTo(3);
        }
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void restoreZone()
    {
        TimeZone.setDefault(ORIGINAL_ZONE);
    }

    private static Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection(server.urlWithCredentials());
    }

    @Test
    void readsEveryTypeExactlyInEveryDefaultZone()
            throws SQLException
    {
        for (String zoneAtConnect : List.of("UTC", "Asia/Kolkata")) {
            TimeZone.setDefault(TimeZone.getTimeZone(zoneAtConnect));
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                for (String zone : ZONES) {
                    TimeZone.setDefault(TimeZone.getTimeZone(zone));
                    try (ResultSet result = statement.executeQuery("SELECT id, amount, d, t, ts, name, score, flag, small FROM memory.default.all_types ORDER BY id")) {
                        assertThat(result.next()).isTrue();
                        assertRow(result, 1, new BigDecimal("12345.678"), LocalDate.of(2024, 2, 29), LocalTime.of(13, 45, 30),
                                LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000), "ada", 2.5, true, 7);
                        assertThat(result.next()).isTrue();
                        assertRow(result, 2, new BigDecimal("-0.001"), LocalDate.of(1969, 12, 31), LocalTime.of(0, 0, 1),
                                LocalDateTime.of(1901, 12, 13, 20, 45, 52, 1_000), "grace", -1.0E10, false, -7);
                        assertThat(result.next()).isTrue();
                        assertNullRow(result);
                        assertThat(result.next()).isFalse();
                    }
                }
            }
        }
    }

    private static void assertRow(ResultSet result, long id, BigDecimal amount, LocalDate date, LocalTime time, LocalDateTime timestamp,
            String name, double score, boolean flag, int small)
            throws SQLException
    {
        String zone = TimeZone.getDefault().getID();
        assertThat(result.getLong(1)).isEqualTo(id);
        assertThat(result.getObject(1)).isEqualTo(id);
        assertThat(result.getBigDecimal(2)).isEqualTo(amount);
        assertThat(result.getBigDecimal("amount").scale()).isEqualTo(3);

        assertThat(result.getDate(3)).as("getDate in %s", zone).isEqualTo(Date.valueOf(date));
        assertThat(result.getDate("d").toLocalDate()).isEqualTo(date);
        assertThat(result.getObject(3)).isEqualTo(Date.valueOf(date));
        assertThat(result.getObject(3, LocalDate.class)).isEqualTo(date);
        assertThat(result.getString(3)).isEqualTo(date.toString());
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        assertThat(result.getDate(3, utc).getTime()).isEqualTo(date.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());

        assertThat(result.getTime(4)).as("getTime in %s", zone).isEqualTo(Time.valueOf(time));
        assertThat(result.getTime(4).toString()).isEqualTo(time.toString().length() == 5 ? time + ":00" : time.toString());
        assertThat(result.getObject(4, LocalTime.class)).isEqualTo(time);
        assertThat(result.getObject(4)).isEqualTo(Time.valueOf(time));
        assertThat(result.getString(4)).isEqualTo(Time.valueOf(time).toString());
        assertThat(result.getTime(4, utc).getTime()).isEqualTo(time.toNanoOfDay() / 1_000_000);

        assertThat(result.getTimestamp(5)).as("getTimestamp in %s", zone).isEqualTo(Timestamp.valueOf(timestamp));
        assertThat(result.getTimestamp(5).getNanos()).isEqualTo(timestamp.getNano());
        assertThat(result.getObject(5)).isEqualTo(Timestamp.valueOf(timestamp));
        assertThat(result.getObject(5, LocalDateTime.class)).isEqualTo(timestamp);
        assertThat(result.getString(5)).isEqualTo(Timestamp.valueOf(timestamp).toString());
        assertThat(result.getTimestamp(5, utc).toInstant()).isEqualTo(timestamp.toInstant(ZoneOffset.UTC));
        assertThat(result.getDate(5).toLocalDate()).isEqualTo(timestamp.toLocalDate());

        assertThat(result.getString(6)).isEqualTo(name);
        assertThat(result.getDouble(7)).isEqualTo(score);
        assertThat(result.getBoolean(8)).isEqualTo(flag);
        assertThat(result.getObject(8)).isEqualTo(flag);
        assertThat(result.getInt(9)).isEqualTo(small);
        assertThat(result.wasNull()).isFalse();
    }

    private static void assertNullRow(ResultSet result)
            throws SQLException
    {
        assertThat(result.getLong(1)).isEqualTo(3);
        for (int column = 2; column <= 9; column++) {
            assertThat(result.getObject(column)).as("column %s", column).isNull();
            assertThat(result.wasNull()).isTrue();
            assertThat(result.getString(column)).isNull();
        }
        assertThat(result.getDate(3)).isNull();
        assertThat(result.getObject(3, LocalDate.class)).isNull();
        assertThat(result.getTime(4)).isNull();
        assertThat(result.getObject(4, LocalTime.class)).isNull();
        assertThat(result.getTimestamp(5)).isNull();
        assertThat(result.getObject(5, LocalDateTime.class)).isNull();
        assertThat(result.getBigDecimal(2)).isNull();
        assertThat(result.getDouble(7)).isZero();
        assertThat(result.wasNull()).isTrue();
        assertThat(result.getBoolean(8)).isFalse();
        assertThat(result.wasNull()).isTrue();
    }

    @Test
    void readsTpchOrdersAsGenerated()
            throws SQLException
    {
        List<Order> expected = new ArrayList<>();
        for (Order order : new OrderGenerator(0.01, 1, 1)) {
            if (expected.size() == 20) {
                break;
            }
            expected.add(order);
        }
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(
                        "SELECT o_orderkey, o_totalprice, o_orderdate, o_orderpriority FROM tpch.tiny.orders ORDER BY o_orderkey LIMIT 20")) {
            for (Order order : expected) {
                assertThat(result.next()).isTrue();
                assertThat(result.getLong(1)).isEqualTo(order.getOrderKey());
                assertThat(result.getBigDecimal(2)).isEqualTo(BigDecimal.valueOf(order.getTotalPriceInCents(), 2));
                assertThat(result.getDate(3).toLocalDate().toString()).isEqualTo(GenerateUtils.formatDate(order.getOrderDate()));
                assertThat(result.getString(4)).isEqualTo(order.getOrderPriority());
            }
            assertThat(result.next()).isFalse();
        }
    }

    @Test
    void streamsAllOfLineitemAsGenerated()
            throws SQLException
    {
        long rows = 0;
        long orderKeys = 0;
        BigDecimal quantity = BigDecimal.ZERO;
        long shipDays = 0;
        for (LineItem item : new LineItemGenerator(0.01, 1, 1)) {
            rows++;
            orderKeys += item.getOrderKey();
            quantity = quantity.add(BigDecimal.valueOf(item.getQuantity()));
            shipDays += LocalDate.parse(GenerateUtils.formatDate(item.getShipDate())).toEpochDay();
        }
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata"));
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT l_orderkey, l_quantity, l_shipdate FROM tpch.tiny.lineitem")) {
            long readRows = 0;
            long readOrderKeys = 0;
            BigDecimal readQuantity = BigDecimal.ZERO;
            long readShipDays = 0;
            while (result.next()) {
                readRows++;
                readOrderKeys += result.getLong(1);
                readQuantity = readQuantity.add(result.getBigDecimal(2));
                readShipDays += result.getDate(3).toLocalDate().toEpochDay();
            }
            assertThat(readRows).isEqualTo(rows).isEqualTo(60_175);
            assertThat(readOrderKeys).isEqualTo(orderKeys);
            assertThat(readQuantity).isEqualByComparingTo(quantity);
            assertThat(readShipDays).isEqualTo(shipDays);
        }
    }

    @Test
    void arrowDriverDoublesTheColumnsOfAnEmptyResult()
            throws SQLException
    {
        // the upstream bug (apache/arrow-java#44) that OntulStatement works around
        try (Connection connection = DriverManager.getConnection(server.arrowUrl());
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_nationkey < 0")) {
            assertThat(columnNames(result.getMetaData())).containsExactly("n_nationkey", "n_name", "n_nationkey", "n_name");
            assertThat(result.next()).isFalse();
        }
    }

    @Test
    void emptyResultsHaveTheirColumnsOnce()
            throws SQLException
    {
        String sql = "SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_nationkey < 0";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            try (ResultSet result = statement.executeQuery(sql)) {
                assertEmptyNationResult(result);
                assertThat(result.getStatement()).isSameAs(statement);
            }
            assertThat(statement.execute(sql)).isTrue();
            try (ResultSet result = statement.getResultSet()) {
                assertEmptyNationResult(result);
            }
            try (PreparedStatement prepared = connection.prepareStatement("SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_nationkey < ?")) {
                assertThat(columnNames(prepared.getMetaData())).containsExactly("n_nationkey", "n_name");
                prepared.setLong(1, 0);
                try (ResultSet result = prepared.executeQuery()) {
                    assertEmptyNationResult(result);
                    assertThat(result.getStatement()).isSameAs(prepared);
                }
            }
            // the same statement with rows afterwards still has two columns
            try (ResultSet result = statement.executeQuery("SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_nationkey = 1")) {
                assertThat(columnNames(result.getMetaData())).containsExactly("n_nationkey", "n_name");
                assertThat(result.next()).isTrue();
                assertThat(result.getString("n_name")).isEqualTo("ARGENTINA");
            }
        }
    }

    private static void assertEmptyNationResult(ResultSet result)
            throws SQLException
    {
        ResultSetMetaData metadata = result.getMetaData();
        assertThat(columnNames(metadata)).containsExactly("n_nationkey", "n_name");
        assertThat(metadata.getColumnType(1)).isEqualTo(Types.BIGINT);
        assertThat(metadata.getColumnType(2)).isEqualTo(Types.VARCHAR);
        assertThat(metadata.getColumnClassName(1)).isEqualTo(Long.class.getName());
        assertThat(result.findColumn("n_name")).isEqualTo(2);
        assertThat(result.next()).isFalse();
    }

    private static List<String> columnNames(ResultSetMetaData metadata)
            throws SQLException
    {
        List<String> names = new ArrayList<>();
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            names.add(metadata.getColumnLabel(column));
        }
        return names;
    }

    @Test
    void statementSettingsApplyToEveryExecution()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.setMaxRows(5);
            statement.setFetchSize(2);
            statement.setQueryTimeout(30);
            for (int execution = 0; execution < 2; execution++) {
                try (ResultSet result = statement.executeQuery("SELECT n_nationkey FROM tpch.tiny.nation ORDER BY n_nationkey")) {
                    long rows = 0;
                    while (result.next()) {
                        assertThat(result.getLong(1)).isEqualTo(rows);
                        rows++;
                    }
                    assertThat(rows).isEqualTo(5);
                }
            }
            assertThat(statement.getMaxRows()).isEqualTo(5);
            assertThat(statement.getUpdateCount()).isEqualTo(-1);
            assertThat(statement.getMoreResults()).isFalse();
            statement.cancel();
            statement.close();
            assertThat(statement.isClosed()).isTrue();
        }
    }

    @Test
    void preparedStatementsBindValuesAndNulls()
            throws SQLException
    {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT n_name, n_regionkey FROM tpch.tiny.nation WHERE n_regionkey = ? AND n_name LIKE ? ORDER BY n_name")) {
            statement.setInt(1, 1);
            statement.setString(2, "%A%");
            try (ResultSet result = statement.executeQuery()) {
                List<String> names = new ArrayList<>();
                while (result.next()) {
                    names.add(result.getString(1));
                }
                // TPC-H nations of region 1 (AMERICA) whose name contains an A
                assertThat(names).containsExactly("ARGENTINA", "BRAZIL", "CANADA", "UNITED STATES");
            }
            statement.setNull(1, Types.INTEGER);
            statement.setString(2, "%");
            try (ResultSet result = statement.executeQuery()) {
                assertThat(result.next()).isFalse();
                assertThat(result.getMetaData().getColumnCount()).isEqualTo(2);
            }
        }
    }

    /** Issue 23: parameters bind as mainstream drivers (PostgreSQL's) bind them. */
    @Test
    void parametersAreCheckedAndConvertedAsTheyAreBound()
            throws SQLException
    {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement("SELECT n_name FROM tpch.tiny.nation WHERE n_nationkey = ? AND n_regionkey >= ?")) {
            statement.setLong(1, 3);
            assertSqlState(statement::executeQuery, "07001", "No value specified for parameter 2 (of 2)");
            // numeric text converts, blanks around it allowed
            statement.setString(1, "3");
            statement.setString(2, " 0 ");
            assertThat(names(statement)).containsExactly("CANADA");
            statement.setBigDecimal(1, new BigDecimal("3.000"));
            statement.setObject(2, "1");
            assertThat(names(statement)).containsExactly("CANADA");
            // refused, naming the parameter, and nothing bound: the earlier value stays
            assertSqlState(() -> statement.setBigDecimal(1, new BigDecimal("1E+50")), "22003", "Parameter 1: 1E+50 is out of range for BIGINT");
            assertSqlState(() -> statement.setString(1, "3x"), "22018", "Parameter 1: '3x' is not a number, and the parameter is BIGINT");
            assertSqlState(() -> statement.setBigDecimal(1, new BigDecimal("3.5")), "22018", "Parameter 1: 3.5 is not a whole number");
            assertSqlState(() -> statement.setDouble(2, Double.NaN), "22003", "Parameter 2: NaN is out of range for BIGINT");
            assertSqlState(() -> statement.setLong(3, 1), "07009", "Parameter index 3 is out of range: the statement has 2 parameters");
            assertThat(names(statement)).containsExactly("CANADA");
            statement.clearParameters();
            assertSqlState(statement::executeQuery, "07001", "No value specified for parameter 1 (of 2)");
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE memory.default.amounts (id INTEGER, amount DECIMAL(5, 2), ratio REAL)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO memory.default.amounts VALUES (?, ?, ?)")) {
                insert.setString(1, "1");
                insert.setString(2, "123.456");
                insert.setString(3, "0.5");
                assertThat(insert.executeUpdate()).isEqualTo(1);
                insert.setInt(1, 2);
                assertSqlState(() -> insert.setBigDecimal(2, new BigDecimal("12345")), "22003", "Parameter 2: 12345 is out of range for DECIMAL(5, 2)");
                assertSqlState(() -> insert.setLong(1, 1L << 40), "22003", "Parameter 1: 1099511627776 is out of range for INTEGER");
                assertSqlState(() -> insert.setObject(3, new BigDecimal("1e300")), "22003", "Parameter 3: 1E+300 is out of range for REAL");
            }
            try (ResultSet rows = statement.executeQuery("SELECT id, amount, ratio FROM memory.default.amounts ORDER BY id")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(1);
                assertThat(rows.getBigDecimal(2)).isEqualByComparingTo("123.46");
                assertThat(rows.getFloat(3)).isEqualTo(0.5f);
                assertThat(rows.next()).isFalse();
            }
        }
    }

    private static List<String> names(PreparedStatement statement)
            throws SQLException
    {
        List<String> names = new ArrayList<>();
        try (ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                names.add(result.getString(1));
            }
        }
        return names;
    }

    private interface SqlCall
    {
        void run()
                throws SQLException;
    }

    private static void assertSqlState(SqlCall call, String sqlState, String message)
    {
        assertThatThrownBy(call::run)
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(sqlState))
                .hasMessageContaining(message);
    }

    @Test
    void preparedStatementsBindTemporalValuesInEveryDefaultZone()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE memory.default.temporal_parameters (zone VARCHAR, way VARCHAR, d DATE, t TIME, ts3 TIMESTAMP(3), ts6 TIMESTAMP(6))");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO memory.default.temporal_parameters VALUES (?, ?, ?, ?, ?, ?)")) {
                for (String zone : ZONES) {
                    TimeZone.setDefault(TimeZone.getTimeZone(zone));
                    insert.setString(1, zone);
                    insert.setString(2, "jdbc");
                    insert.setDate(3, Date.valueOf("2024-02-29"));
                    insert.setTime(4, Time.valueOf("13:45:30"));
                    insert.setTimestamp(5, Timestamp.valueOf("2024-02-29 23:59:59.123"));
                    insert.setTimestamp(6, Timestamp.valueOf("2024-02-29 23:59:59.123456"));
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                    insert.setString(2, "java.time");
                    insert.setObject(3, LocalDate.of(2024, 2, 29));
                    insert.setObject(4, LocalTime.of(13, 45, 30));
                    insert.setObject(5, LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_000_000));
                    insert.setObject(6, LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000));
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                    insert.setString(2, "null");
                    insert.setNull(3, Types.DATE);
                    insert.setNull(4, Types.TIME);
                    insert.setTimestamp(5, null);
                    insert.setObject(6, null);
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
            }
            TimeZone.setDefault(ORIGINAL_ZONE);
            // read back as text, so that the check does not depend on the reading side
            try (ResultSet result = statement.executeQuery("SELECT zone, way, CAST(d AS VARCHAR), CAST(t AS VARCHAR), CAST(ts3 AS VARCHAR), CAST(ts6 AS VARCHAR) "
                    + "FROM memory.default.temporal_parameters")) {
                int rows = 0;
                while (result.next()) {
                    rows++;
                    String row = result.getString(1) + " " + result.getString(2);
                    if (result.getString(2).equals("null")) {
                        assertThat(List.of(result.getObject(3) == null, result.getObject(4) == null, result.getObject(5) == null, result.getObject(6) == null))
                                .as(row).containsOnly(true);
                        continue;
                    }
                    assertThat(result.getString(3)).as(row).isEqualTo("2024-02-29");
                    assertThat(result.getString(4)).as(row).isEqualTo("13:45:30");
                    assertThat(result.getString(5)).as(row).isEqualTo("2024-02-29 23:59:59.123");
                    assertThat(result.getString(6)).as(row).isEqualTo("2024-02-29 23:59:59.123456");
                }
                assertThat(rows).isEqualTo(3 * ZONES.size());
            }
            statement.executeUpdate("DROP TABLE memory.default.temporal_parameters");
        }
    }

    @Test
    void ddlAndDmlReturnUpdateCounts()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate("CREATE TABLE memory.default.people (id BIGINT, name VARCHAR)")).isEqualTo(0);
            assertThat(statement.executeUpdate("INSERT INTO memory.default.people VALUES (1, 'ada'), (2, NULL), (3, 'grace')")).isEqualTo(3);
            assertThat(statement.execute("INSERT INTO memory.default.people SELECT id + 10, name FROM memory.default.people")).isFalse();
            assertThat(statement.getUpdateCount()).isEqualTo(3);
            assertThat(statement.getResultSet()).isNull();
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO memory.default.people VALUES (?, ?)")) {
                insert.setLong(1, 20);
                insert.setNull(2, Types.VARCHAR);
                assertThat(insert.executeUpdate()).isEqualTo(1);
                insert.setLong(1, 21);
                insert.setString(2, "grâce");
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            statement.addBatch("INSERT INTO memory.default.people VALUES (30, 'x')");
            statement.addBatch("INSERT INTO memory.default.people VALUES (31, 'y'), (32, 'z')");
            assertThat(statement.executeBatch()).containsExactly(1, 2);
            try (ResultSet result = statement.executeQuery("SELECT count(*), count(name) FROM memory.default.people")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getLong(1)).isEqualTo(11);
                assertThat(result.getLong(2)).isEqualTo(8);
            }
            try (ResultSet result = statement.executeQuery("SELECT name FROM memory.default.people WHERE id = 21")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString(1)).isEqualTo("grâce");
            }
            assertThat(statement.executeUpdate("DROP TABLE memory.default.people")).isEqualTo(0);
        }
    }
}
