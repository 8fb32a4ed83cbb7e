package io.ontul.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;

/**
 * Issue 25's permission matrix, over real sockets with both drivers (Ontul's and Arrow's Flight
 * SQL JDBC driver): for a user with no grant, a table grant, a schema grant, a catalog grant, a
 * role's grant and a revoked grant, each statement is allowed or denied as the grants say, with
 * the exact denial, and the metadata calls (Flight SQL's GetCatalogs, GetDbSchemas and GetTables behind
 * {@link DatabaseMetaData}) and SHOW list what the user may see. An allowed read is compared with
 * the administrator's read of the same table.
 * <p>
 * Each user's grants are given alike on three objects: the memory table, a Kafka table (a real
 * broker in this JVM) and an Iceberg table per user and driver, so that CREATE STREAMING JOB
 * from the Kafka table into the Iceberg one is allowed exactly where SELECT and INSERT are. An
 * allowed job's output is compared with the administrator's batch read of the topic.
 */
class TestAccessControlMatrix
{
    private static final String PASSWORD = "matrix-password";
    private static final String TABLE = "memory.default.accounts";

    private static final String SOURCE = "events.default.payments";
    private static final int PAYMENTS = 40;

    private static TestingServer server;
    private static EmbeddedKafka kafka;

    /** All the tables of memory.default, as the administrator sees them. */
    private static final List<String> EVERY_TABLE = List.of("*");

    /** What each user may do: SELECT, INSERT, CTAS, DROP on the schema's tables; the tables it sees. */
    private record Expected(boolean select, boolean insert, boolean ctas, boolean drop, List<String> tablesSeen) {}

    private static final Map<String, Expected> MATRIX = Map.of(
            "nogrant", new Expected(false, false, false, false, List.of()),
            "tablegrant", new Expected(true, true, false, false, List.of("accounts")),
            "schemagrant", new Expected(true, true, true, true, EVERY_TABLE),
            "cataloggrant", new Expected(true, false, false, false, EVERY_TABLE),
            "rolegrant", new Expected(true, false, false, false, List.of("accounts")),
            "revoked", new Expected(false, false, false, false, List.of()));

    @BeforeAll
    static void setUp()
            throws Exception
    {
        kafka = EmbeddedKafka.start();
        kafka.createTopic("payments", 2);
        List<ProducerRecord<String, String>> payments = new ArrayList<>();
        for (int i = 0; i < PAYMENTS; i++) {
            payments.add(new ProducerRecord<>("payments", i % 2, null, "{\"id\": %d, \"owner\": \"customer-%d\"}".formatted(i, i % 7)));
        }
        kafka.produce(payments);
        server = new TestingServer();
        try (Connection admin = DriverManager.getConnection(server.urlWithCredentials()); Statement statement = admin.createStatement()) {
            statement.execute("CREATE TABLE " + TABLE + " (id BIGINT, owner VARCHAR)");
            statement.execute("INSERT INTO " + TABLE + " VALUES (1, 'ann'), (2, 'bob')");
            statement.execute("CREATE CATALOG events USING kafka WITH (\"kafka.bootstrap-servers\" = '" + kafka.bootstrapServers() + "')");
            statement.execute("CREATE TABLE events.\"default\".payments (id BIGINT, owner VARCHAR) WITH ('topic' = 'payments', 'format' = 'json')");
            statement.execute("CREATE CATALOG lake USING iceberg");
            statement.execute("CREATE SCHEMA lake.sink");
            statement.execute("CREATE ROLE readers");
            for (String user : MATRIX.keySet()) {
                statement.execute("CREATE USER " + user + " PASSWORD '" + PASSWORD + "'");
                statement.execute("CREATE TABLE memory.default.victim_" + user + " (x BIGINT)");
                for (String sink : List.of(sink(user, true), sink(user, false))) {
                    statement.execute("CREATE TABLE " + sink + " (id BIGINT, owner VARCHAR)");
                }
            }
            // each user's grants, alike on the memory table, the Kafka source and the user's Iceberg sinks
            for (String user : MATRIX.keySet()) {
                List<String> tables = List.of(TABLE, "events.\"default\".payments", sink(user, true), sink(user, false));
                for (String table : tables) {
                    switch (user) {
                        case "tablegrant" -> statement.execute("GRANT SELECT, INSERT ON TABLE " + table + " TO USER tablegrant");
                        case "rolegrant" -> statement.execute("GRANT SELECT ON TABLE " + table + " TO ROLE readers");
                        case "revoked" -> {
                            statement.execute("GRANT SELECT, INSERT ON TABLE " + table + " TO USER revoked");
                            statement.execute("REVOKE SELECT, INSERT ON TABLE " + table + " FROM USER revoked");
                        }
                        default -> {
                            // granted on schemas and catalogs below
                        }
                    }
                }
            }
            for (String schema : List.of("memory.default", "events.\"default\"", "lake.sink")) {
                statement.execute("GRANT ALL PRIVILEGES ON SCHEMA " + schema + " TO USER schemagrant");
            }
            for (String catalog : List.of("memory", "events", "lake")) {
                statement.execute("GRANT SELECT ON CATALOG " + catalog + " TO USER cataloggrant");
            }
            statement.execute("GRANT readers TO USER rolegrant");
        }
    }

    /** The Iceberg table a user's streaming job writes, one per driver. */
    private static String sink(String user, boolean ontulDriver)
    {
        return "lake.sink.payments_" + user + (ontulDriver ? "_o" : "_a");
    }

    @AfterAll
    static void tearDown()
    {
        if (server != null) {
            server.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void eachUserMayDoWhatItsGrantsSayThroughTheOntulDriver()
            throws SQLException
    {
        for (Map.Entry<String, Expected> entry : MATRIX.entrySet()) {
            try (Connection connection = DriverManager.getConnection(server.url("?user=" + entry.getKey() + "&password=" + PASSWORD))) {
                check(entry.getKey(), entry.getValue(), connection, true);
            }
        }
    }

    @Test
    void eachUserMayDoWhatItsGrantsSayThroughArrowsDriver()
            throws SQLException
    {
        for (Map.Entry<String, Expected> entry : MATRIX.entrySet()) {
            String url = "jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=" + entry.getKey() + "&password=" + PASSWORD;
            try (Connection connection = DriverManager.getConnection(url)) {
                check(entry.getKey(), entry.getValue(), connection, false);
            }
        }
    }

    private static void check(String user, Expected expected, Connection connection, boolean ontulDriver)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            String what = "user " + user + (ontulDriver ? " (Ontul driver)" : " (Arrow driver)");
            // SELECT
            String select = "SELECT id, owner FROM " + TABLE + " ORDER BY id, owner";
            if (expected.select()) {
                assertThat(rows(statement, select)).as(what).isEqualTo(adminRows(select));
            }
            else {
                assertDenied(statement, select, "Access denied: user '" + user + "' cannot SELECT from table '" + TABLE + "'", ontulDriver);
            }
            // INSERT
            String insert = "INSERT INTO " + TABLE + " VALUES (3, '" + user + "')";
            if (expected.insert()) {
                long before = adminRows(select).size();
                assertThat(statement.executeUpdate(insert)).as(what).isEqualTo(1);
                assertThat(adminRows(select)).as(what).hasSize((int) before + 1).contains(List.of(3L, user));
            }
            else {
                assertDenied(statement, insert, "Access denied: user '" + user + "' cannot INSERT into table '" + TABLE + "'", ontulDriver);
            }
            // CTAS: CREATE where it writes, SELECT where it reads
            String copy = "memory.default.copy_" + user + (ontulDriver ? "_o" : "_a");
            String ctas = "CREATE TABLE " + copy + " AS SELECT * FROM " + TABLE;
            if (expected.ctas()) {
                assertThat(statement.executeUpdate(ctas)).as(what).isEqualTo(adminRows(select).size());
                assertThat(rows(statement, "SELECT id, owner FROM " + copy + " ORDER BY id, owner")).isEqualTo(adminRows(select));
                statement.execute("DROP TABLE " + copy);
            }
            else {
                assertDenied(statement, ctas, "Access denied: user '" + user + "' cannot CREATE in schema 'memory.default'", ontulDriver);
            }
            // DROP (the second driver's run finds the table dropped by the first)
            String victim = "memory.default.victim_" + user;
            if (expected.drop()) {
                statement.execute("DROP TABLE IF EXISTS " + victim);
                adminUpdate("CREATE TABLE " + victim + " (x BIGINT)");
            }
            else {
                assertDenied(statement, "DROP TABLE " + victim, "Access denied: user '" + user + "' cannot DROP table '" + victim + "'", ontulDriver);
            }
            // CREATE STREAMING JOB: SELECT on its Kafka source, INSERT into its Iceberg sink
            String sink = sink(user, ontulDriver);
            String job = "payments_" + user + (ontulDriver ? "_o" : "_a");
            String createJob = "CREATE STREAMING JOB " + job + " WITH ('checkpoint.interval' = '200ms') AS INSERT INTO " + sink
                    + " SELECT id, owner FROM events.\"default\".payments";
            if (expected.select() && expected.insert()) {
                statement.execute(createJob);
                String written = "SELECT id, owner FROM " + sink + " ORDER BY id";
                List<List<Object>> topic = adminRows("SELECT id, owner FROM " + SOURCE + " ORDER BY id");
                assertThat(topic).hasSize(PAYMENTS);
                long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
                while (adminRows(written).size() < PAYMENTS && System.nanoTime() < deadline) {
                    sleep();
                }
                assertThat(adminRows(written)).as(what + ": the job's output").isEqualTo(topic);
                List<List<Object>> jobs = rows(statement, "SHOW STREAMING JOBS").stream().filter(row -> job.equals(row.get(0))).toList();
                assertThat(jobs).as(what).singleElement().satisfies(row -> assertThat(row.get(row.size() - 1)).as("owner").isEqualTo(user));
                statement.execute("DROP STREAMING JOB " + job);
            }
            else {
                assertDenied(statement, createJob, "Access denied: user '" + user + "' cannot INSERT into table '" + sink + "'", ontulDriver);
            }
            // kill_query of another user's statement (a recent one: the registry forgets old ones)
            String adminQueryId = (String) adminRows("SELECT query_id FROM system.runtime.queries WHERE \"user\" = 'admin' ORDER BY created DESC LIMIT 1").get(0).get(0);
            assertDenied(statement, "CALL system.kill_query('" + adminQueryId + "')",
                    "Access denied: user '" + user + "' cannot kill query " + adminQueryId + " of another user; only an administrator can", ontulDriver);
            // listings: SHOW and the Flight SQL metadata calls
            List<String> visible = expected.tablesSeen() == EVERY_TABLE ? adminRows("SHOW TABLES FROM memory.default").stream().map(row -> (String) row.get(0)).sorted().toList()
                    : expected.tablesSeen();
            assertThat(tables(connection.getMetaData())).as(what + ": GetTables").isEqualTo(visible);
            List<String> schemas = new ArrayList<>();
            try (ResultSet rows = connection.getMetaData().getSchemas("memory", "%")) {
                while (rows.next()) {
                    schemas.add(rows.getString("TABLE_SCHEM"));
                }
            }
            assertThat(schemas).as(what + ": GetDbSchemas").isEqualTo(visible.isEmpty() ? List.of() : List.of("default", "information_schema"));
            List<String> catalogs = catalogs(connection.getMetaData());
            assertThat(catalogs).as(what + ": GetCatalogs").isEqualTo(visible.isEmpty() ? List.of("system") : List.of("events", "lake", "memory", "system"));
            if (visible.isEmpty()) {
                assertThatThrownBy(() -> rows(statement, "SHOW TABLES FROM memory.default")).as(what)
                        .isInstanceOf(SQLException.class).hasMessageContaining("Schema 'memory.default' does not exist");
            }
            else {
                assertThat(rows(statement, "SHOW TABLES FROM memory.default")).as(what)
                        .isEqualTo(visible.stream().map(table -> List.<Object>of(table)).toList());
            }
        }
    }

    private static List<String> tables(DatabaseMetaData metadata)
            throws SQLException
    {
        List<String> tables = new ArrayList<>();
        try (ResultSet rows = metadata.getTables("memory", "default", "%", null)) {
            while (rows.next()) {
                tables.add(rows.getString("TABLE_NAME"));
            }
        }
        return tables.stream().sorted().toList();
    }

    private static List<String> catalogs(DatabaseMetaData metadata)
            throws SQLException
    {
        List<String> catalogs = new ArrayList<>();
        try (ResultSet rows = metadata.getCatalogs()) {
            while (rows.next()) {
                catalogs.add(rows.getString(1));
            }
        }
        return catalogs.stream().sorted().toList();
    }

    private static void assertDenied(Statement statement, String sql, String denial, boolean ontulDriver)
    {
        assertThatThrownBy(() -> statement.execute(sql))
                .as(sql)
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    if (ontulDriver) {
                        assertThat(e.getSQLState()).as("SQLState of " + sql).isEqualTo("42501");
                    }
                })
                .hasMessageContaining(denial);
    }

    private static List<List<Object>> rows(Statement statement, String sql)
            throws SQLException
    {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    row.add(result.getObject(column));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static void sleep()
    {
        try {
            Thread.sleep(100);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static List<List<Object>> adminRows(String sql)
            throws SQLException
    {
        try (Connection admin = DriverManager.getConnection(server.urlWithCredentials()); Statement statement = admin.createStatement()) {
            return rows(statement, sql);
        }
    }

    private static void adminUpdate(String... statements)
            throws SQLException
    {
        try (Connection admin = DriverManager.getConnection(server.urlWithCredentials()); Statement statement = admin.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
