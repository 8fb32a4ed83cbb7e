package io.ontul.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.PreparedStatement;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.api.StatementStatistics;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.OntulException;

class TestParameters
{
    private static Engine engine;
    private static Session session;

    @BeforeAll
    static void start()
    {
        engine = Engine.createEmbedded();
        session = engine.createSession("test");
    }

    @AfterAll
    static void stop()
    {
        engine.close();
    }

    private static List<List<Object>> rows(String sql, Object... parameters)
    {
        try (QueryResult result = session.execute(sql, Arrays.asList(parameters))) {
            return ResultRows.drain(result);
        }
    }

    @Test
    void bindsValuesOfEveryTypeAsTypedLiterals()
    {
        assertThat(rows("SELECT n_name FROM tpch.tiny.nation WHERE n_nationkey = ? AND n_name <> ?", 2L, "x")).containsExactly(List.of("BRAZIL"));
        assertThat(rows("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderdate < ? AND o_totalprice > ?", LocalDate.of(1992, 1, 10), new BigDecimal("100000.50")))
                .containsExactly(List.of(count("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderdate < DATE '1992-01-10' AND o_totalprice > 100000.50")));
        assertThat(rows("SELECT ? + 1, ? || 'b', ?", 41, "a", true)).containsExactly(List.of(42L, "ab", true));
    }

    /** A marker whose type only its neighbours tell (COALESCE, CASE, arithmetic with a column) takes theirs. */
    @Test
    void markersTakeTheTypeOfWhatTheyMeet()
    {
        assertThat(rows("SELECT count(*) FROM tpch.tiny.nation WHERE COALESCE(?, n_regionkey) = n_regionkey", (Object) null)).containsExactly(List.of(25L));
        assertThat(rows("SELECT count(*) FROM tpch.tiny.nation WHERE COALESCE(?, n_regionkey) = n_regionkey", 1L)).containsExactly(List.of(5L));
        assertThat(session.prepare("SELECT count(*) FROM tpch.tiny.nation WHERE COALESCE(?, n_regionkey) = n_regionkey").parameterSchema().getFields().get(0).getType().toString())
                .isEqualTo("Int(64, true)");
    }

    @Test
    void nullIsSqlNull()
    {
        assertThat(rows("SELECT count(*) FROM tpch.tiny.nation WHERE n_name = ?", (Object) null)).containsExactly(List.of(0L));
    }

    @Test
    void insertWithParameters()
    {
        session.execute("CREATE TABLE memory.default.params_t (id BIGINT, name VARCHAR, day DATE)").close();
        session.execute("INSERT INTO memory.default.params_t VALUES (?, ?, ?)", Arrays.asList(1L, "it's", LocalDate.of(2024, 2, 29))).close();
        session.execute("INSERT INTO memory.default.params_t VALUES (?, ?, ?)", Arrays.asList(2L, null, null)).close();
        assertThat(rows("SELECT id, name, day FROM memory.default.params_t ORDER BY id"))
                .containsExactly(List.of(1L, "it's", LocalDate.of(2024, 2, 29)), Arrays.asList(2L, null, null));
        session.execute("DROP TABLE memory.default.params_t").close();
    }

    @Test
    void parameterSchemaIsInferredFromUse()
    {
        List<Field> fields = session.prepare("SELECT * FROM tpch.tiny.nation WHERE n_nationkey = ? AND n_name = ?").parameterSchema().getFields();
        assertThat(fields).extracting(Field::getName).containsExactly("parameter_1", "parameter_2");
        assertThat(fields.get(0).getType().toString()).isEqualTo("Int(64, true)");
        assertThat(fields.get(1).getType().toString()).isEqualTo("Utf8");
        assertThat(session.prepare("SHOW CATALOGS").parameterSchema().getFields()).isEmpty();
    }

    @Test
    void preparedStatementIsParsedOnceAndPlannedOncePerExecution()
    {
        StatementStatistics statistics = engine.statementStatistics();
        long parsed = statistics.statementsParsed();
        long planned = statistics.queriesPlanned();
        PreparedStatement statement = session.prepare("SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = ? AND n_name < ? ORDER BY n_name");
        assertThat(statistics.statementsParsed()).isEqualTo(parsed + 1);
        assertThat(statistics.queriesPlanned()).isEqualTo(planned);
        assertThat(statement.returnsRows()).isTrue();
        assertThat(statement.resultSchema().getFields()).extracting(Field::getName).containsExactly("n_name");
        assertThat(statistics.queriesPlanned()).isEqualTo(planned + 1);

        for (long region = 0; region < 5; region++) {
            long before = statistics.queriesPlanned();
            assertThat(drain(statement, region, "M"))
                    .isEqualTo(ResultRows.drain(session.execute("SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = " + region + " AND n_name < 'M' ORDER BY n_name")));
            // the reference query above parsed and planned once as well
            assertThat(statistics.queriesPlanned()).isEqualTo(before + 2);
        }
        assertThat(statistics.statementsParsed()).isEqualTo(parsed + 1 + 5);
    }

    @Test
    void preparedStatementsServeManyExecutionsOfEveryShape()
    {
        // star expansion, grouping, a subquery and ORDER BY are where validation rewrites its tree
        PreparedStatement statement = session.prepare("SELECT * FROM (SELECT n_regionkey, count(*) AS nations FROM tpch.tiny.nation "
                + "WHERE n_nationkey >= ? GROUP BY n_regionkey) WHERE nations > ? AND n_regionkey IN (SELECT r_regionkey FROM tpch.tiny.region WHERE r_name <> ?) ORDER BY 1");
        for (int i = 0; i < 3; i++) {
            assertThat(drain(statement, 10L * i, 1L, "ASIA")).isEqualTo(ResultRows.drain(session.execute(
                    "SELECT * FROM (SELECT n_regionkey, count(*) AS nations FROM tpch.tiny.nation WHERE n_nationkey >= " + (10 * i) + " GROUP BY n_regionkey) "
                            + "WHERE nations > 1 AND n_regionkey IN (SELECT r_regionkey FROM tpch.tiny.region WHERE r_name <> 'ASIA') ORDER BY 1")));
        }
        session.execute("CREATE TABLE memory.default.prepared_t (id BIGINT, name VARCHAR)").close();
        PreparedStatement insert = session.prepare("INSERT INTO memory.default.prepared_t VALUES (?, ?)");
        assertThat(insert.returnsRows()).isFalse();
        assertThat(insert.resultSchema().getFields()).isEmpty();
        for (long id = 1; id <= 3; id++) {
            try (QueryResult result = insert.execute(List.of(id, "n" + id))) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of(1L));
            }
        }
        assertThat(rows("SELECT id, name FROM memory.default.prepared_t ORDER BY id"))
                .containsExactly(List.of(1L, "n1"), List.of(2L, "n2"), List.of(3L, "n3"));
        session.execute("DROP TABLE memory.default.prepared_t").close();
    }

    @Test
    void markersInsideCoalesceAndNullifPrepare()
    {
        PreparedStatement coalesce = session.prepare("SELECT n_name FROM tpch.tiny.nation WHERE COALESCE(?, n_regionkey) = n_regionkey ORDER BY n_name");
        assertThat(coalesce.parameterSchema().getFields()).extracting(field -> field.getType().toString()).containsExactly("Int(64, true)");
        assertThat(drain(coalesce, 1L)).isEqualTo(ResultRows.drain(session.execute("SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = 1 ORDER BY n_name")));
        // COALESCE(NULL, x) = x holds for every nation
        assertThat(drain(coalesce, (Object) null)).hasSize(25);

        PreparedStatement texts = session.prepare("SELECT COALESCE(?, n_name, ?) FROM tpch.tiny.nation WHERE n_nationkey = 3");
        assertThat(texts.parameterSchema().getFields()).extracting(field -> field.getType().toString()).containsExactly("Utf8", "Utf8");
        assertThat(drain(texts, null, "x")).containsExactly(List.of("CANADA"));
        assertThat(drain(texts, "given", "x")).containsExactly(List.of("given"));

        PreparedStatement nullif = session.prepare("SELECT count(NULLIF(?, n_regionkey)) FROM tpch.tiny.nation");
        assertThat(nullif.parameterSchema().getFields()).extracting(field -> field.getType().toString()).containsExactly("Int(64, true)");
        // NULLIF(2, x) is NULL for the 5 nations of region 2
        assertThat(drain(nullif, 2L)).containsExactly(List.of(20L));
    }

    @Test
    void wrongNumberOfValuesIsAUserError()
    {
        assertThatThrownBy(() -> session.execute("SELECT ? + ?", List.of(1)).close())
                .isInstanceOf(OntulException.class)
                .hasMessage("No value bound for parameter 2 (1 given)");
        assertThatThrownBy(() -> session.execute("SELECT 1", List.of(1)).close())
                .isInstanceOf(OntulException.class)
                .hasMessage("Statement has 0 parameters but 1 values were bound");
    }

    @Test
    void datesOutsideYearsOneTo9999AreAUserError()
    {
        // a java.sql.Date of 0001-01-01 reaches the server as 0000-12-30 through Arrow's binder
        assertThatThrownBy(() -> session.execute("SELECT ?", List.of(java.time.LocalDate.of(0, 12, 30))).close())
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(io.ontul.spi.ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Parameter value 0000-12-30 is outside the range of DATE and TIMESTAMP values (years 1 to 9999)");
        assertThatThrownBy(() -> session.execute("SELECT ?", List.of(java.time.LocalDateTime.of(10000, 1, 1, 0, 0))).close())
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("outside the range of DATE and TIMESTAMP values");
        assertThat(rows("SELECT ?", java.time.LocalDate.of(1, 1, 1))).containsExactly(List.of(java.time.LocalDate.of(1, 1, 1)));
    }

    private static List<List<Object>> drain(PreparedStatement statement, Object... parameters)
    {
        try (QueryResult result = statement.execute(Arrays.asList(parameters))) {
            return ResultRows.drain(result);
        }
    }

    private static long count(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return (Long) ResultRows.drain(result).get(0).get(0);
        }
    }
}
