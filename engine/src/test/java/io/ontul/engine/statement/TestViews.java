package io.ontul.engine.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

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
 * Views as a reader meets them: planned in place (the plan of a query over a view is the plan of
 * the query written out, so filters reach the scan), read with their owner's rights, kept across
 * a restart, and named in the errors of what is under them. (views.slt holds the statements and
 * their errors.)
 */
class TestViews
{
    @TempDir
    Path dataDirectory;

    private EngineConfig config()
    {
        return EngineConfig.embeddedDefaults().withProperty(EngineConfig.DATA_DIRECTORY, dataDirectory.toString());
    }

    @Test
    void aQueryOverAViewPlansAsTheQueryWrittenOut()
    {
        try (Engine engine = Engine.create(config())) {
            Session session = engine.createSession("admin");
            run(session, "CREATE VIEW memory.default.european_nations AS SELECT n_nationkey, n_name, n_regionkey FROM tpch.tiny.nation WHERE n_regionkey = 3");
            String overView = "SELECT n_name FROM memory.default.european_nations WHERE n_nationkey > 10 ORDER BY n_name";
            String writtenOut = "SELECT n_name FROM (SELECT n_nationkey, n_name, n_regionkey FROM tpch.tiny.nation WHERE n_regionkey = 3) WHERE n_nationkey > 10 ORDER BY n_name";
            assertThat(text(session, "EXPLAIN " + overView)).isEqualTo(text(session, "EXPLAIN " + writtenOut));
            // both conditions reach the scan of nation
            assertThat(text(session, "EXPLAIN " + overView)).containsPattern("(?s)Scan.*nation.*n_regionkey.*3").containsPattern("(?s)Scan.*nation.*n_nationkey.*10");
            // TPC-H's region 3 is EUROPE: FRANCE (6), GERMANY (7), ROMANIA (19), RUSSIA (22), UNITED KINGDOM (23)
            assertThat(rows(session, overView)).containsExactly(List.of("ROMANIA"), List.of("RUSSIA"), List.of("UNITED KINGDOM"));
        }
    }

    @Test
    void aViewReadsItsTablesWithItsOwnersRights()
    {
        try (Engine engine = Engine.createWithAccounts(config(), "admin")) {
            Session admin = engine.createSession("admin");
            run(admin, "CREATE TABLE memory.default.salaries (name VARCHAR, department VARCHAR, salary BIGINT)");
            run(admin, "INSERT INTO memory.default.salaries VALUES ('ann', 'sales', 100), ('bob', 'sales', 200), ('cy', 'ops', 300)");
            run(admin, "CREATE VIEW memory.default.department_totals AS SELECT department, sum(salary) AS total FROM memory.default.salaries GROUP BY department");
            run(admin, "CREATE USER ann PASSWORD 'ann-password'");
            Session ann = engine.createSession("ann");

            assertFails(ann, "SELECT * FROM memory.default.department_totals", ErrorCode.PERMISSION_DENIED,
                    "Access denied: user 'ann' cannot SELECT from table 'memory.default.department_totals'");
            run(admin, "GRANT SELECT ON TABLE memory.default.department_totals TO USER ann");
            assertThat(rows(ann, "SELECT department, total FROM memory.default.department_totals ORDER BY department"))
                    .containsExactly(List.of("ops", 300L), List.of("sales", 300L));
            // the table itself stays closed to her, in a query of her own and next to the view
            assertFails(ann, "SELECT * FROM memory.default.salaries", ErrorCode.PERMISSION_DENIED,
                    "Access denied: user 'ann' cannot SELECT from table 'memory.default.salaries'");
            assertFails(ann, "SELECT * FROM memory.default.department_totals t JOIN memory.default.salaries s ON t.department = s.department",
                    ErrorCode.PERMISSION_DENIED, "Access denied: user 'ann' cannot SELECT from table 'memory.default.salaries'");
            assertThat(rows(ann, "SHOW TABLES FROM memory.default")).containsExactly(List.of("department_totals"));
            // information_schema shows her the same, and is readable without a grant
            assertThat(rows(ann, "SELECT table_name, table_type FROM memory.information_schema.tables WHERE table_schema = 'default'"))
                    .containsExactly(List.of("department_totals", "VIEW"));
            assertThat(rows(ann, "SELECT column_name FROM memory.information_schema.columns WHERE table_schema = 'default' ORDER BY ordinal_position"))
                    .containsExactly(List.of("department"), List.of("total"));

            // a view she creates reads with her rights: not the salaries
            run(admin, "GRANT CREATE ON SCHEMA memory.default TO USER ann");
            assertFails(ann, "CREATE VIEW memory.default.all_salaries AS SELECT * FROM memory.default.salaries", ErrorCode.PERMISSION_DENIED,
                    "Access denied: user 'ann' cannot SELECT from table 'memory.default.salaries'");
            run(ann, "CREATE VIEW memory.default.big_departments AS SELECT department FROM memory.default.department_totals WHERE total > 250");
            assertThat(rows(ann, "SELECT * FROM memory.default.big_departments ORDER BY 1")).containsExactly(List.of("ops"), List.of("sales"));
            // once her right on the view under it is revoked, her view cannot read it either
            run(admin, "REVOKE SELECT ON TABLE memory.default.department_totals FROM USER ann");
            assertFails(ann, "SELECT * FROM memory.default.big_departments", ErrorCode.PERMISSION_DENIED,
                    "View 'memory.default.big_departments' cannot be read: Access denied: user 'ann' cannot SELECT from table 'memory.default.department_totals'");
            // the administrator, reading ann's view, still reads it with ann's rights
            assertFails(admin, "SELECT * FROM memory.default.big_departments", ErrorCode.PERMISSION_DENIED,
                    "View 'memory.default.big_departments' cannot be read: Access denied: user 'ann' cannot SELECT from table 'memory.default.department_totals'");
            // DROP VIEW needs DROP on the view: hers she may drop, the administrator's not
            assertFails(ann, "DROP VIEW memory.default.department_totals", ErrorCode.PERMISSION_DENIED,
                    "line 1:11: Access denied: user 'ann' cannot DROP table 'memory.default.department_totals'");
            run(ann, "DROP VIEW memory.default.big_departments");
        }
    }

    @Test
    void viewsOutliveARestart()
    {
        String view = "SELECT r_name, count(*) AS nations FROM tpch.tiny.nation JOIN tpch.tiny.region ON n_regionkey = r_regionkey GROUP BY r_name";
        try (Engine engine = Engine.create(config())) {
            run(engine.createSession("admin"), "CREATE VIEW memory.default.nations_per_region AS " + view);
        }
        try (Engine engine = Engine.create(config())) {
            Session session = engine.createSession("admin");
            // five regions of five nations each in TPC-H
            List<List<Object>> expected = List.of(List.of("AFRICA", 5L), List.of("AMERICA", 5L), List.of("ASIA", 5L), List.of("EUROPE", 5L), List.of("MIDDLE EAST", 5L));
            assertThat(rows(session, "SELECT * FROM memory.default.nations_per_region ORDER BY r_name")).isEqualTo(expected);
            assertThat(rows(session, view + " ORDER BY r_name")).isEqualTo(expected);
            assertThat(rows(session, "SHOW CREATE VIEW memory.default.nations_per_region")).containsExactly(List.of("CREATE VIEW memory.default.nations_per_region AS " + view));
        }
    }

    @Test
    void aViewOverAChangedTableIsCastToItsColumnsOrNamesWhatIsMissing()
    {
        try (Engine engine = Engine.create(config())) {
            Session session = engine.createSession("admin");
            run(session, "CREATE TABLE memory.default.gauges (id INTEGER, reading INTEGER)");
            run(session, "INSERT INTO memory.default.gauges VALUES (1, 10), (2, 20)");
            run(session, "CREATE VIEW memory.default.readings AS SELECT id, reading FROM memory.default.gauges");
            // the table is made again with a wider type: the view still returns its INTEGER column
            run(session, "DROP TABLE memory.default.gauges");
            run(session, "CREATE TABLE memory.default.gauges (id INTEGER, reading BIGINT)");
            run(session, "INSERT INTO memory.default.gauges VALUES (3, 30)");
            assertThat(rows(session, "SELECT id, reading FROM memory.default.readings")).containsExactly(List.of(3L, 30L));
            try (QueryResult result = session.execute("SELECT reading FROM memory.default.readings")) {
                assertThat(result.schema().getFields().get(0).getType()).isEqualTo(new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true));
                ResultRows.drain(result);
            }
            assertThat(rows(session, "DESCRIBE memory.default.readings")).containsExactly(List.of("id", "INTEGER", "YES"), List.of("reading", "INTEGER", "YES"));
            // and made again without the column: the error names the view and the column
            run(session, "DROP TABLE memory.default.gauges");
            run(session, "CREATE TABLE memory.default.gauges (id INTEGER)");
            assertFails(session, "SELECT * FROM memory.default.readings", ErrorCode.NOT_FOUND,
                    "View 'memory.default.readings' cannot be read: Column 'reading' cannot be resolved (line 1:51 of the view's definition: SHOW CREATE VIEW memory.default.readings)");
            // the server keeps serving: the view is replaced and reads again
            run(session, "CREATE OR REPLACE VIEW memory.default.readings AS SELECT id, NULL AS reading FROM memory.default.gauges");
            assertThat(rows(session, "SELECT count(*) FROM memory.default.readings")).containsExactly(List.of(0L));
        }
    }

    private static String text(Session session, String sql)
    {
        return String.join("\n", rows(session, sql).stream().map(row -> String.valueOf(row.get(0))).toList());
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
