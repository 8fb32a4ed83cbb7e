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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 25's permission matrix, over real sockets with both drivers (Ontul's and Arrow's Flight
 * SQL JDBC driver): for a user with no grant, a table grant, a schema grant, a catalog grant, a
 * role's grant and a revoked grant, each statement is allowed or denied as the grants say, with
 * the exact denial, and the metadata calls (Flight SQL's GetCatalogs, GetDbSchemas and GetTables behind
 * {@link DatabaseMetaData}) and SHOW list what the user may see. An allowed read is compared with
 * the administrator's read of the same table.
 */
class TestAccessControlMatrix
{
    private static final String PASSWORD = "matrix-password";
    private static final String TABLE = "memory.default.accounts";

    private static TestingServer server;

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
        server = new TestingServer();
        try (Connection admin = DriverManager.getConnection(server.urlWithCredentials()); Statement statement = admin.createStatement()) {
            statement.execute("CREATE TABLE " + TABLE + " (id BIGINT, owner VARCHAR)");
            statement.execute("INSERT INTO " + TABLE + " VALUES (1, 'ann'), (2, 'bob')");
            for (String user : MATRIX.keySet()) {
                statement.execute("CREATE USER " + user + " PASSWORD '" + PASSWORD + "'");
                statement.execute("CREATE TABLE memory.default.victim_" + user + " (x BIGINT)");
            }
            statement.execute("GRANT SELECT, INSERT ON TABLE " + TABLE + " TO USER tablegrant");
            statement.execute("GRANT ALL PRIVILEGES ON SCHEMA memory.default TO USER schemagrant");
            statement.execute("GRANT SELECT ON CATALOG memory TO USER cataloggrant");
            statement.execute("CREATE ROLE readers");
            statement.execute("GRANT SELECT ON TABLE " + TABLE + " TO ROLE readers");
            statement.execute("GRANT readers TO USER rolegrant");
            statement.execute("GRANT SELECT ON TABLE " + TABLE + " TO USER revoked");
            statement.execute("REVOKE SELECT ON TABLE " + TABLE + " FROM USER revoked");
        }
    }

    @AfterAll
    static void tearDown()
    {
        if (server != null) {
            server.close();
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
            assertThat(schemas).as(what + ": GetDbSchemas").isEqualTo(visible.isEmpty() ? List.of() : List.of("default"));
            List<String> catalogs = catalogs(connection.getMetaData());
            assertThat(catalogs).as(what + ": GetCatalogs").isEqualTo(visible.isEmpty() ? List.of("system") : List.of("memory", "system"));
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
