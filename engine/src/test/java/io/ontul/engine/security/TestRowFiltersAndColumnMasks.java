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
 * Row filters and column masks, applied by the planner as if the user had written them: each
 * result is compared with the administrator's run of the same query written by hand with the
 * filter and mask in place, through joins, aggregates, subqueries and CTAS.
 */
class TestRowFiltersAndColumnMasks
{
    /** employees as ann's filter and mask show it: EU rows only, salaries of others 0. */
    private static final String ANNS_EMPLOYEES = "(SELECT id, name, region, CASE WHEN name = 'ann' THEN salary ELSE 0 END AS salary "
            + "FROM memory.default.employees WHERE region = 'EU')";

    @TempDir
    Path dataDirectory;

    private Engine engine;
    private Session admin;
    private Session ann;
    private Session bob;

    @BeforeEach
    void setUp()
    {
        engine = Engine.createWithAccounts(EngineConfig.embeddedDefaults().withProperty(EngineConfig.DATA_DIRECTORY, dataDirectory.toString()), "admin");
        admin = engine.createSession("admin");
        run(admin, "CREATE TABLE memory.default.employees (id BIGINT, name VARCHAR, region VARCHAR, salary BIGINT)");
        run(admin, "INSERT INTO memory.default.employees VALUES (1, 'ann', 'EU', 100), (2, 'bob', 'US', 200), (3, 'carl', 'EU', 300), (4, 'dora', 'US', 400), "
                + "(5, 'eve', 'EU', NULL), (6, 'fred', 'APAC', 600)");
        run(admin, "CREATE TABLE memory.default.regions (region VARCHAR, manager VARCHAR)");
        run(admin, "INSERT INTO memory.default.regions VALUES ('EU', 'mia'), ('US', 'noah'), ('APAC', 'olga')");
        run(admin, "CREATE USER ann PASSWORD 'ann-password'");
        run(admin, "CREATE USER bob PASSWORD 'bob-password'");
        run(admin, "CREATE ROLE eu_analysts");
        run(admin, "GRANT eu_analysts TO USER ann");
        run(admin, "GRANT SELECT ON SCHEMA memory.default TO ROLE public");
        run(admin, "CREATE ROW FILTER eu_only ON TABLE memory.default.employees FOR ROLE eu_analysts USING (region = 'EU')");
        run(admin, "CREATE COLUMN MASK own_salary ON TABLE memory.default.employees (salary) FOR ROLE eu_analysts "
                + "USING (CASE WHEN name = current_user THEN salary ELSE 0 END)");
        ann = engine.createSession("ann");
        bob = engine.createSession("bob");
    }

    @AfterEach
    void tearDown()
    {
        engine.close();
    }

    @Test
    void aFilteredAndMaskedTableReadsAsTheHandWrittenQuery()
    {
        assertSame(ann, "SELECT * FROM memory.default.employees ORDER BY id", "SELECT * FROM " + ANNS_EMPLOYEES + " e ORDER BY id");
        assertThat(rows(ann, "SELECT name, salary FROM memory.default.employees ORDER BY id"))
                .containsExactly(List.of("ann", 100L), List.of("carl", 0L), java.util.Arrays.asList("eve", 0L));
        // through a join and an aggregate
        assertSame(ann, "SELECT r.manager, sum(e.salary), count(*) FROM memory.default.employees e JOIN memory.default.regions r ON e.region = r.region GROUP BY r.manager ORDER BY 1",
                "SELECT r.manager, sum(e.salary), count(*) FROM " + ANNS_EMPLOYEES + " e JOIN memory.default.regions r ON e.region = r.region GROUP BY r.manager ORDER BY 1");
        // in a subquery, and a filter the user adds on top
        assertSame(ann, "SELECT manager FROM memory.default.regions WHERE region IN (SELECT region FROM memory.default.employees) ORDER BY 1",
                "SELECT manager FROM memory.default.regions WHERE region IN (SELECT region FROM " + ANNS_EMPLOYEES + " e) ORDER BY 1");
        assertSame(ann, "SELECT count(*) FROM memory.default.employees WHERE salary > 50 OR region = 'US'",
                "SELECT count(*) FROM " + ANNS_EMPLOYEES + " e WHERE salary > 50 OR region = 'US'");
        // a user without policies sees the table as it is
        assertSame(bob, "SELECT * FROM memory.default.employees ORDER BY id", "SELECT * FROM memory.default.employees ORDER BY id");
    }

    @Test
    void aCtasWritesWhatTheUserSees()
    {
        run(admin, "GRANT CREATE ON SCHEMA memory.default TO USER ann");
        run(ann, "CREATE TABLE memory.default.ann_copy AS SELECT id, name, salary FROM memory.default.employees");
        assertSame(admin, "SELECT * FROM memory.default.ann_copy ORDER BY id", "SELECT id, name, salary FROM " + ANNS_EMPLOYEES + " e ORDER BY id");
        run(admin, "GRANT INSERT ON TABLE memory.default.regions TO USER ann");
        run(ann, "INSERT INTO memory.default.regions SELECT DISTINCT region, 'copied' FROM memory.default.employees");
        assertThat(rows(admin, "SELECT region FROM memory.default.regions WHERE manager = 'copied'")).containsExactly(List.of("EU"));
    }

    @Test
    void masksKeepTheColumnTypeAndPoliciesCanBeListedAndDropped()
    {
        run(admin, "CREATE COLUMN MASK hidden_name ON TABLE memory.default.employees (name) FOR USER bob USING ('***')");
        assertThat(rows(bob, "SELECT name, region FROM memory.default.employees WHERE id = 2")).containsExactly(List.of("***", "US"));
        assertThat(rows(admin, "SHOW POLICIES ON TABLE memory.default.employees")).containsExactly(
                List.of("memory.default.employees", "COLUMN_MASK", "hidden_name", "name", "USER", "bob", "'***'"),
                List.of("memory.default.employees", "COLUMN_MASK", "own_salary", "salary", "ROLE", "eu_analysts",
                        "CASE WHEN \"name\" = CURRENT_USER THEN \"salary\" ELSE 0 END"),
                List.of("memory.default.employees", "ROW_FILTER", "eu_only", "", "ROLE", "eu_analysts", "\"region\" = 'EU'"));

        run(admin, "DROP ROW FILTER eu_only ON TABLE memory.default.employees");
        assertThat(rows(ann, "SELECT count(*) FROM memory.default.employees")).containsExactly(List.of(6L));
        run(admin, "DROP COLUMN MASK own_salary ON TABLE memory.default.employees");
        assertSame(ann, "SELECT * FROM memory.default.employees ORDER BY id", "SELECT * FROM memory.default.employees ORDER BY id");
        assertFails(admin, "DROP ROW FILTER eu_only ON TABLE memory.default.employees", ErrorCode.NOT_FOUND,
                "line 1:17: Row filter 'eu_only' does not exist on table 'memory.default.employees'");
        run(admin, "DROP ROW FILTER IF EXISTS eu_only ON TABLE memory.default.employees");
    }

    @Test
    void badPoliciesAreRefusedWithTheReason()
    {
        assertFails(admin, "CREATE ROW FILTER amounts ON TABLE memory.default.employees FOR USER bob USING (salary + 1)", ErrorCode.INVALID_ARGUMENT,
                "line 1:81: A row filter's condition must be BOOLEAN; it is BIGINT");
        assertThatThrownBy(() -> run(admin, "CREATE ROW FILTER typo ON TABLE memory.default.employees FOR USER bob USING (regoin = 'EU')"))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageStartingWith("line 1:78: The expression of row filter 'typo' does not apply to table 'memory.default.employees': ")
                .hasMessageContaining("regoin");
        assertFails(admin, "CREATE COLUMN MASK m ON TABLE memory.default.employees (wage) FOR USER bob USING (0)", ErrorCode.NOT_FOUND,
                "line 1:57: Column 'wage' does not exist in table 'memory.default.employees'");
        assertFails(admin, "CREATE ROW FILTER eu_only ON TABLE memory.default.employees FOR USER bob USING (true)", ErrorCode.ALREADY_EXISTS,
                "line 1:19: Row filter 'eu_only' already exists on table 'memory.default.employees'");
        assertFails(ann, "CREATE ROW FILTER mine ON TABLE memory.default.employees FOR USER bob USING (true)", ErrorCode.PERMISSION_DENIED,
                "line 1:1: Permission denied: CREATE ROW FILTER needs an administrator; user 'ann' is not one");
        // a dropped table takes its policies along
        run(admin, "DROP TABLE memory.default.employees");
        assertThat(rows(admin, "SHOW POLICIES")).isEmpty();
    }

    private void assertSame(Session session, String sql, String handWritten)
    {
        List<List<Object>> expected = rows(admin, handWritten);
        assertThat(expected).as("the hand-written query returns rows").isNotEmpty();
        assertThat(rows(session, sql)).isEqualTo(expected);
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

    private static void assertFails(Session session, String sql, ErrorCode code, String message)
    {
        assertThatThrownBy(() -> run(session, sql))
                .isInstanceOfSatisfying(OntulException.class, failure -> assertThat(failure.code()).isEqualTo(code))
                .hasMessage(message);
    }
}
