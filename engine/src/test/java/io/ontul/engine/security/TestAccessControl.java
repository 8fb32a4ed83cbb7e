package io.ontul.engine.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Grants and roles in an engine that keeps users ({@link Engine#createWithAccounts}): what each
 * user may read, write, create and drop, and see in listings, as the grants say. Every allowed
 * read is compared with what the administrator reads of the same table.
 */
class TestAccessControl
{
    @TempDir
    Path dataDirectory;

    private Engine engine;
    private Session admin;

    @BeforeEach
    void setUp()
    {
        engine = Engine.createWithAccounts(config(), "admin");
        admin = engine.createSession("admin");
        for (String user : List.of("bob", "carol", "dave", "erin")) {
            run(admin, "CREATE USER " + user + " PASSWORD '" + user + "-password'");
        }
        run(admin, "CREATE TABLE memory.default.orders (id BIGINT, amount BIGINT)");
        run(admin, "INSERT INTO memory.default.orders VALUES (1, 10), (2, 20), (3, 30)");
        run(admin, "CREATE TABLE memory.default.salaries (id BIGINT, salary BIGINT)");
        run(admin, "INSERT INTO memory.default.salaries VALUES (1, 1000), (2, 2000)");
    }

    private EngineConfig config()
    {
        return EngineConfig.embeddedDefaults().withProperty(EngineConfig.DATA_DIRECTORY, dataDirectory.toString());
    }

    @AfterEach
    void tearDown()
    {
        engine.close();
    }

    @Test
    void aUserWithoutGrantsReadsNothingButTheSystemCatalog()
    {
        Session bob = engine.createSession("bob");
        assertDenied(bob, "SELECT * FROM memory.default.orders", "Access denied: user 'bob' cannot SELECT from table 'memory.default.orders'");
        assertDenied(bob, "SELECT count(*) FROM tpch.tiny.nation", "Access denied: user 'bob' cannot SELECT from table 'tpch.tiny.nation'");
        assertDenied(bob, "INSERT INTO memory.default.orders VALUES (4, 40)", "line 1:13: Access denied: user 'bob' cannot INSERT into table 'memory.default.orders'");
        assertDenied(bob, "DROP TABLE memory.default.orders", "line 1:12: Access denied: user 'bob' cannot DROP table 'memory.default.orders'");
        assertDenied(bob, "CREATE TABLE memory.default.mine (x BIGINT)", "line 1:14: Access denied: user 'bob' cannot CREATE in schema 'memory.default'");
        assertDenied(bob, "CREATE SCHEMA memory.bobs", "line 1:15: Access denied: user 'bob' cannot CREATE in catalog 'memory'");
        // the system catalog: everyone, each seeing their own queries
        assertThat(column(bob, "SHOW CATALOGS")).containsExactly("system");
        assertThat(column(bob, "SELECT DISTINCT \"user\" FROM system.runtime.queries")).containsExactly("bob");
        assertThat(column(admin, "SHOW CATALOGS")).contains("memory", "system", "tpch");
        assertFails(bob, "DESCRIBE memory.default.salaries", ErrorCode.NOT_FOUND, "line 1:10: Table 'memory.default.salaries' does not exist");
        assertFails(bob, "SHOW TABLES FROM memory.default", ErrorCode.NOT_FOUND, "line 1:18: Schema 'memory.default' does not exist");
    }

    @Test
    void aTableGrantAllowsThatTableOnlyThroughJoinsSubqueriesAndCtas()
    {
        run(admin, "GRANT SELECT ON TABLE memory.default.orders TO USER bob");
        Session bob = engine.createSession("bob");
        assertThat(rows(bob, "SELECT id, amount FROM memory.default.orders ORDER BY id")).isEqualTo(rows(admin, "SELECT id, amount FROM memory.default.orders ORDER BY id"));
        assertThat(column(bob, "SHOW TABLES FROM memory.default")).containsExactly("orders");
        assertThat(column(bob, "SHOW CATALOGS")).containsExactly("memory", "system");

        String salaries = "Access denied: user 'bob' cannot SELECT from table 'memory.default.salaries'";
        assertDenied(bob, "SELECT o.id FROM memory.default.orders o JOIN memory.default.salaries s ON o.id = s.id", salaries);
        assertDenied(bob, "SELECT id FROM memory.default.orders WHERE id IN (SELECT id FROM memory.default.salaries)", salaries);
        assertDenied(bob, "SELECT id FROM memory.default.orders WHERE EXISTS (SELECT 1 FROM memory.default.salaries s WHERE s.id = orders.id)", salaries);
        assertDenied(bob, "SELECT (SELECT max(salary) FROM memory.default.salaries) FROM memory.default.orders", salaries);
        // a read the optimizer would drop is still a read
        assertDenied(bob, "SELECT id FROM memory.default.salaries WHERE 1 = 0", salaries);
        assertDenied(bob, "WITH s AS (SELECT * FROM memory.default.salaries) SELECT count(*) FROM s", salaries);
        assertDenied(bob, "EXPLAIN SELECT * FROM memory.default.salaries", salaries);
        // a CTAS needs CREATE where it writes and SELECT where it reads
        run(admin, "GRANT CREATE ON SCHEMA memory.default TO USER bob");
        assertDenied(bob, "CREATE TABLE memory.default.copy AS SELECT * FROM memory.default.salaries", salaries);
        assertThat(column(admin, "SHOW TABLES FROM memory.default")).doesNotContain("copy");
    }

    @Test
    void schemaCatalogAndRoleGrantsCoverWhatIsInsideIncludingLaterTables()
    {
        run(admin, "CREATE ROLE analysts");
        run(admin, "GRANT SELECT ON SCHEMA memory.default TO ROLE analysts");
        run(admin, "GRANT analysts TO USER carol");
        run(admin, "GRANT SELECT ON CATALOG tpch TO USER dave");
        Session carol = engine.createSession("carol");
        Session dave = engine.createSession("dave");

        assertThat(rows(carol, "SELECT o.id, s.salary FROM memory.default.orders o JOIN memory.default.salaries s ON o.id = s.id ORDER BY 1"))
                .isEqualTo(List.of(List.of(1L, 1000L), List.of(2L, 2000L)));
        run(admin, "CREATE TABLE memory.default.later AS SELECT 7 AS x");
        assertThat(rows(carol, "SELECT x FROM memory.default.later")).isEqualTo(List.of(List.of(7L)));
        assertThat(column(carol, "SHOW CURRENT ROLES")).containsExactly("analysts", "public");
        assertDenied(carol, "SELECT count(*) FROM tpch.tiny.nation", "Access denied: user 'carol' cannot SELECT from table 'tpch.tiny.nation'");

        assertThat(rows(dave, "SELECT count(*) FROM tpch.tiny.nation")).isEqualTo(List.of(List.of(25L)));
        assertThat(column(dave, "SHOW SCHEMAS FROM tpch")).contains("tiny", "sf1");
        assertDenied(dave, "SELECT * FROM memory.default.orders", "Access denied: user 'dave' cannot SELECT from table 'memory.default.orders'");
        assertDenied(dave, "INSERT INTO memory.default.orders SELECT n_nationkey, n_regionkey FROM tpch.tiny.nation",
                "line 1:13: Access denied: user 'dave' cannot INSERT into table 'memory.default.orders'");

        // revoked: denied again at the next statement
        run(admin, "REVOKE analysts FROM USER carol");
        assertDenied(carol, "SELECT * FROM memory.default.orders", "Access denied: user 'carol' cannot SELECT from table 'memory.default.orders'");
        assertThat(column(carol, "SHOW CURRENT ROLES")).containsExactly("public");
        run(admin, "REVOKE SELECT ON CATALOG tpch FROM USER dave");
        assertDenied(dave, "SELECT count(*) FROM tpch.tiny.nation", "Access denied: user 'dave' cannot SELECT from table 'tpch.tiny.nation'");
        assertThat(column(dave, "SHOW CATALOGS")).containsExactly("system");
    }

    @Test
    void insertNeedsInsertAndACreatorOwnsWhatItCreates()
    {
        run(admin, "GRANT INSERT ON TABLE memory.default.orders TO USER bob");
        Session bob = engine.createSession("bob");
        run(bob, "INSERT INTO memory.default.orders VALUES (4, 40)");
        assertThat(rows(admin, "SELECT sum(amount) FROM memory.default.orders")).isEqualTo(List.of(List.of(100L)));
        assertDenied(bob, "INSERT INTO memory.default.orders SELECT id, salary FROM memory.default.salaries",
                "Access denied: user 'bob' cannot SELECT from table 'memory.default.salaries'");

        run(admin, "GRANT CREATE ON SCHEMA memory.default TO USER bob");
        run(bob, "CREATE TABLE memory.default.bobs (x BIGINT)");
        run(bob, "INSERT INTO memory.default.bobs VALUES (5)");
        assertThat(rows(bob, "SELECT x FROM memory.default.bobs")).isEqualTo(List.of(List.of(5L)));
        Session carol = engine.createSession("carol");
        assertDenied(carol, "SELECT x FROM memory.default.bobs", "Access denied: user 'carol' cannot SELECT from table 'memory.default.bobs'");
        // bob holds the grant option on his table
        run(bob, "GRANT SELECT ON TABLE memory.default.bobs TO USER carol");
        assertThat(rows(carol, "SELECT x FROM memory.default.bobs")).isEqualTo(List.of(List.of(5L)));
        assertDenied(carol, "GRANT SELECT ON TABLE memory.default.bobs TO USER dave",
                "line 1:1: Access denied: user 'carol' cannot grant SELECT on table 'memory.default.bobs' (it needs the privilege WITH GRANT OPTION, or the admin role)");
        run(bob, "DROP TABLE memory.default.bobs");
        // a table created again under the name starts without the old grants
        run(admin, "CREATE TABLE memory.default.bobs (x BIGINT)");
        assertDenied(carol, "SELECT x FROM memory.default.bobs", "Access denied: user 'carol' cannot SELECT from table 'memory.default.bobs'");
        assertDenied(bob, "SELECT x FROM memory.default.bobs", "Access denied: user 'bob' cannot SELECT from table 'memory.default.bobs'");
    }

    @Test
    void grantsAreListedAndOnlyAdministratorsManageRoles()
    {
        run(admin, "CREATE ROLE analysts");
        run(admin, "GRANT SELECT, INSERT ON TABLE memory.default.orders TO USER bob WITH GRANT OPTION");
        run(admin, "GRANT SELECT ON SCHEMA memory.default TO ROLE analysts");
        run(admin, "GRANT analysts TO USER bob");
        Session bob = engine.createSession("bob");
        assertThat(rows(bob, "SHOW GRANTS")).containsExactly(
                List.of("ROLE", "analysts", "SELECT", "SCHEMA", "memory.default", "NO", "admin"),
                List.of("USER", "bob", "SELECT", "TABLE", "memory.default.orders", "YES", "admin"),
                List.of("USER", "bob", "INSERT", "TABLE", "memory.default.orders", "YES", "admin"));
        assertThat(rows(admin, "SHOW GRANTS ON TABLE memory.default.orders FOR USER bob")).hasSize(2);
        assertThat(column(admin, "SHOW ROLES")).containsExactly("admin", "analysts", "public");
        assertDenied(bob, "SHOW GRANTS FOR USER carol", "line 1:1: Access denied: user 'bob' can see only its own grants and those of its roles");
        assertDenied(bob, "CREATE ROLE mine", "line 1:1: Permission denied: CREATE ROLE needs an administrator; user 'bob' is not one");
        assertDenied(bob, "GRANT analysts TO USER carol", "line 1:1: Permission denied: GRANT of a role needs an administrator; user 'bob' is not one");

        assertFails(admin, "GRANT SELECT ON TABLE memory.default.nothing TO USER bob", ErrorCode.NOT_FOUND, "line 1:23: Table 'memory.default.nothing' does not exist");
        assertFails(admin, "GRANT SELECT ON TABLE memory.default.orders TO USER nobody", ErrorCode.NOT_FOUND, "line 1:53: User 'nobody' does not exist");
        assertFails(admin, "GRANT SELECT ON TABLE memory.default.orders TO ROLE nobody", ErrorCode.NOT_FOUND, "line 1:53: Role 'nobody' does not exist");
        assertFails(admin, "REVOKE DELETE ON TABLE memory.default.orders FROM USER carol", ErrorCode.NOT_FOUND,
                "line 1:1: user 'carol' holds no DELETE privilege granted on table 'memory.default.orders'");
        assertFails(admin, "DROP ROLE admin", ErrorCode.INVALID_ARGUMENT, "line 1:11: Role 'admin' is built in and cannot be dropped");

        // the admin role makes an administrator
        run(admin, "GRANT admin TO USER erin");
        Session erin = engine.createSession("erin");
        assertThat(rows(erin, "SELECT count(*) FROM memory.default.salaries")).isEqualTo(List.of(List.of(2L)));
        run(erin, "CREATE ROLE auditors");
        // a dropped role's members lose what it gave
        run(admin, "DROP ROLE analysts");
        assertDenied(bob, "SELECT * FROM memory.default.salaries", "Access denied: user 'bob' cannot SELECT from table 'memory.default.salaries'");
        // a dropped user's grants do not pass to a user created later under its name
        run(admin, "DROP USER bob");
        run(admin, "CREATE USER bob PASSWORD 'bob-password-2'");
        assertDenied(engine.createSession("bob"), "SELECT * FROM memory.default.orders", "Access denied: user 'bob' cannot SELECT from table 'memory.default.orders'");
    }

    @Test
    void grantsSurviveARestartAndDefaultGrantsComeFromTheConfiguration()
    {
        run(admin, "GRANT SELECT ON TABLE memory.default.orders TO USER bob");
        engine.close();
        engine = Engine.createWithAccounts(config().withProperty(Grants.DEFAULT_GRANTS, "SELECT ON CATALOG tpch; select, insert on schema memory.default"), "admin");
        Session bob = engine.createSession("bob");
        // memory tables do not survive a restart, their grants in the metadata store do
        assertThat(rows(engine.createSession("admin"), "SHOW GRANTS FOR USER bob"))
                .containsExactly(List.of("USER", "bob", "SELECT", "TABLE", "memory.default.orders", "NO", "admin"));
        assertThat(rows(bob, "SELECT count(*) FROM tpch.tiny.region")).isEqualTo(List.of(List.of(5L)));
        run(engine.createSession("admin"), "CREATE TABLE memory.default.events (id BIGINT)");
        run(bob, "INSERT INTO memory.default.events VALUES (9)");
        assertThat(rows(bob, "SELECT id FROM memory.default.events")).isEqualTo(List.of(List.of(9L)));
        assertDenied(bob, "DROP SCHEMA memory.default", "line 1:13: Access denied: user 'bob' cannot DROP schema 'memory.default'");
        engine.close();
        assertThatThrownBy(() -> Engine.createWithAccounts(config().withProperty(Grants.DEFAULT_GRANTS, "SELEKT ON CATALOG tpch"), "admin"))
                .hasMessage("Invalid ontul.security.default-grants entry 'SELEKT ON CATALOG tpch': unknown privilege 'SELEKT' (SELECT, INSERT, UPDATE, DELETE, CREATE, DROP or ALL PRIVILEGES)");
        engine = Engine.createWithAccounts(config(), "admin");
    }

    @Test
    void ddlGrantsAndDenialsAreAuditedForAdministratorsToRead()
    {
        run(admin, "CREATE ROLE auditors");
        run(admin, "GRANT SELECT ON TABLE memory.default.orders TO ROLE auditors");
        Session bob = engine.createSession("bob");
        assertDenied(bob, "SELECT * FROM memory.default.salaries", "Access denied: user 'bob' cannot SELECT from table 'memory.default.salaries'");
        assertDenied(bob, "SELECT * FROM system.audit.events", "Access denied: user 'bob' cannot SELECT from table 'system.audit.events'");
        assertThat(column(bob, "SHOW SCHEMAS FROM system")).doesNotContain("audit").contains("runtime");
        run(admin, "DROP TABLE memory.default.salaries");
        assertFails(admin, "DROP TABLE memory.default.salaries", ErrorCode.NOT_FOUND, "line 1:12: Table 'memory.default.salaries' does not exist");

        List<List<Object>> events = rows(admin, "SELECT kind, \"user\", outcome, statement FROM system.audit.events WHERE kind <> 'LOGIN'");
        assertThat(events).containsExactly(
                // the users and tables of setUp: passwords as system.runtime.queries shows them
                List.of("DDL", "admin", "OK", "CREATE USER bob PASSWORD '***'"),
                List.of("DDL", "admin", "OK", "CREATE USER carol PASSWORD '***'"),
                List.of("DDL", "admin", "OK", "CREATE USER dave PASSWORD '***'"),
                List.of("DDL", "admin", "OK", "CREATE USER erin PASSWORD '***'"),
                List.of("DDL", "admin", "OK", "CREATE TABLE memory.default.orders (id BIGINT, amount BIGINT)"),
                List.of("DDL", "admin", "OK", "CREATE TABLE memory.default.salaries (id BIGINT, salary BIGINT)"),
                List.of("GRANT", "admin", "OK", "CREATE ROLE auditors"),
                List.of("GRANT", "admin", "OK", "GRANT SELECT ON TABLE memory.default.orders TO ROLE auditors"),
                List.of("DENIED", "bob", "DENIED", "SELECT * FROM memory.default.salaries"),
                List.of("DENIED", "bob", "DENIED", "SELECT * FROM system.audit.events"),
                List.of("DDL", "admin", "OK", "DROP TABLE memory.default.salaries"),
                List.of("DDL", "admin", "FAILED", "DROP TABLE memory.default.salaries"));
        assertThat(rows(admin, "SELECT detail FROM system.audit.events WHERE kind = 'DENIED'"))
                .containsExactly(List.of("Access denied: user 'bob' cannot SELECT from table 'memory.default.salaries'"),
                        List.of("Access denied: user 'bob' cannot SELECT from table 'system.audit.events'"));
        assertThat(dataDirectory.resolve("audit")).isDirectoryContaining(path -> path.getFileName().toString().matches("audit-\\d{4}-\\d{2}-\\d{2}\\.jsonl"));
    }

    @Test
    void anEmbeddedEngineAllowsEverythingAndHasNoGrants()
    {
        try (Engine embedded = Engine.create(EngineConfig.embeddedDefaults())) {
            Session anyone = embedded.createSession("anyone");
            assertThat(rows(anyone, "SELECT count(*) FROM tpch.tiny.nation")).isEqualTo(List.of(List.of(25L)));
            assertFails(anyone, "GRANT SELECT ON CATALOG tpch TO USER bob", ErrorCode.NOT_SUPPORTED,
                    "line 1:1: Roles and grants need the Ontul server (bin/ontul start): an embedded engine allows everything");
        }
    }

    private static void run(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            ResultRows.drain(result);
        }
    }

    private static List<List<Object>> rows(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private static List<String> column(Session session, String sql)
    {
        return rows(session, sql).stream().map(row -> String.valueOf(row.get(0))).toList();
    }

    private static void assertDenied(Session session, String sql, String message)
    {
        assertFails(session, sql, ErrorCode.PERMISSION_DENIED, message);
    }

    private static void assertFails(Session session, String sql, ErrorCode code, String message)
    {
        assertThatThrownBy(() -> run(session, sql))
                .isInstanceOfSatisfying(OntulException.class, failure -> assertThat(failure.code()).isEqualTo(code))
                .hasMessage(message);
    }
}
