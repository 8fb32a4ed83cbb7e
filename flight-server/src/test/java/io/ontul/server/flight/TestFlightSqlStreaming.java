package io.ontul.server.flight;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * Temporal and decimal values, and a large result streamed under a small query memory budget,
 * through Arrow's Flight SQL JDBC driver (18.3.0).
 * <p>
 * What the driver does with zone-less values, found by running it under several default zones:
 * <ul>
 * <li>{@code getObject(i, LocalDateTime.class)} returns the written TIMESTAMP in every zone.</li>
 * <li>{@code getTimestamp(i)} shifts the value by the JVM's default zone offset unless the
 * connection sets Avatica's {@code timeZone=UTC}; with it the value is exact in every zone.</li>
 * <li>DATE and TIME read right when the JVM's default zone is UTC. In other zones, with
 * {@code timeZone=UTC}, every accessor of them shifts by the zone offset (a DATE can read as the
 * day before or after; with the default {@code timeZone} DATE reads right but TIMESTAMP and TIME
 * shift), so this test checks DATE and TIME values only under UTC.</li>
 * <li>{@code getObject(i, LocalDate.class)} and {@code getObject(i, LocalTime.class)} throw a
 * NullPointerException on NULL; this test avoids them on NULL rows.</li>
 * </ul>
 */
class TestFlightSqlStreaming
{
    private static final String PASSWORD = "test-password-3";
    private static final long MEMORY_BUDGET = 256L * 1024 * 1024;

    // count(*) and sum(l_orderkey) of sf1 lineitem, computed once with io.trino.tpch 1.2's
    // LineItemGenerator(1.0, 1, 1), not through Ontul
    private static final long SF1_LINEITEM_ROWS = 6_001_215L;
    private static final long SF1_LINEITEM_ORDERKEY_SUM = 18_005_322_964_949L;

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;

    @BeforeAll
    static void startServer()
            throws Exception
    {
        EngineConfig config = EngineConfig.embeddedDefaults().withProperty(EngineConfig.QUERY_MAX_MEMORY, "256MB");
        server = OntulServer.start(config, dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
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
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port()
                + "/?useEncryption=false&timeZone=UTC&user=admin&password=" + PASSWORD);
    }

    @Test
    void temporalDecimalAndNullValuesRoundTripInAnyDefaultZone()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE memory.default.ts_t (id INTEGER, ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), d DATE, t TIME, amount DECIMAL(12,3))");
            assertThat(statement.executeUpdate("INSERT INTO memory.default.ts_t VALUES "
                    + "(1, TIMESTAMP '2024-02-29 23:59:59.123', TIMESTAMP '2024-02-29 23:59:59.123456', DATE '2024-02-29', TIME '13:45:30', 12345.678), "
                    + "(2, TIMESTAMP '1969-07-20 20:17:40.500', TIMESTAMP '1901-12-13 20:45:52.000001', DATE '1969-12-31', TIME '00:00:00', -0.001), "
                    + "(3, NULL, NULL, NULL, NULL, NULL)")).isEqualTo(3);

            TimeZone defaultZone = TimeZone.getDefault();
            try {
                for (String zone : List.of("UTC", "America/Los_Angeles", "Asia/Kolkata", defaultZone.getID())) {
                    TimeZone.setDefault(TimeZone.getTimeZone(zone));
                    try (ResultSet result = statement.executeQuery("SELECT id, ts3, ts6, d, t, amount FROM memory.default.ts_t ORDER BY id")) {
                        assertThat(result.next()).isTrue();
                        assertRow(result,
                                LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_000_000),
                                LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000),
                                LocalDate.of(2024, 2, 29),
                                LocalTime.of(13, 45, 30),
                                new BigDecimal("12345.678"));
                        assertThat(result.next()).isTrue();
                        assertRow(result,
                                LocalDateTime.of(1969, 7, 20, 20, 17, 40, 500_000_000),
                                LocalDateTime.of(1901, 12, 13, 20, 45, 52, 1_000),
                                LocalDate.of(1969, 12, 31),
                                LocalTime.MIDNIGHT,
                                new BigDecimal("-0.001"));
                        assertThat(result.next()).isTrue();
                        assertNullRow(result);
                        assertThat(result.next()).isFalse();
                    }
                }
            }
            finally {
                TimeZone.setDefault(defaultZone);
            }
            statement.executeUpdate("DROP TABLE memory.default.ts_t");
        }
    }

    private static void assertRow(ResultSet result, LocalDateTime ts3, LocalDateTime ts6, LocalDate date, LocalTime time, BigDecimal amount)
            throws SQLException
    {
        assertThat(result.getObject(2, LocalDateTime.class)).isEqualTo(ts3);
        assertThat(result.getTimestamp(2).toLocalDateTime()).isEqualTo(ts3);
        assertThat(result.getObject(3, LocalDateTime.class)).isEqualTo(ts6);
        assertThat(result.getTimestamp(3).toLocalDateTime()).isEqualTo(ts6);
        assertThat(result.getTimestamp(3).getNanos()).isEqualTo(ts6.getNano());
        if (TimeZone.getDefault().getID().equals("UTC")) {
            assertThat(result.getDate(4).toLocalDate()).isEqualTo(date);
            assertThat(result.getObject(4, LocalDate.class)).isEqualTo(date);
            assertThat(result.getTime(5).toLocalTime()).isEqualTo(time);
            assertThat(result.getObject(5, LocalTime.class)).isEqualTo(time);
        }
        else {
            assertThat(result.getDate(4)).isNotNull();
            assertThat(result.getTime(5)).isNotNull();
        }
        assertThat(result.getBigDecimal(6)).isEqualTo(amount);
        assertThat(result.getBigDecimal(6).scale()).isEqualTo(3);
    }

    private static void assertNullRow(ResultSet result)
            throws SQLException
    {
        assertThat(result.getObject(2, LocalDateTime.class)).isNull();
        assertThat(result.getTimestamp(2)).isNull();
        assertThat(result.wasNull()).isTrue();
        assertThat(result.getTimestamp(3)).isNull();
        assertThat(result.getDate(4)).isNull();
        assertThat(result.getTime(5)).isNull();
        assertThat(result.getBigDecimal(6)).isNull();
        assertThat(result.wasNull()).isTrue();
    }

    @Test
    void largeResultStreamsUnderASmallMemoryBudget()
            throws SQLException
    {
        long rows = 0;
        long orderKeySum = 0;
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT l_orderkey, l_partkey, l_extendedprice, l_shipdate, l_comment FROM tpch.sf1.lineitem")) {
            while (result.next()) {
                rows++;
                orderKeySum += result.getLong(1);
            }
        }
        long peak = server.engine().rootAllocator().getPeakMemoryAllocation();
        assertThat(rows).isEqualTo(SF1_LINEITEM_ROWS);
        assertThat(orderKeySum).isEqualTo(SF1_LINEITEM_ORDERKEY_SUM);
        // the whole result is about 1 GB in Arrow form; the server never held more than the budget
        assertThat(peak).isLessThan(MEMORY_BUDGET);
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT 1")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getInt(1)).isEqualTo(1);
        }
        assertThat(server.engine().rootAllocator().getAllocatedMemory()).isLessThan(MEMORY_BUDGET);
    }
}
