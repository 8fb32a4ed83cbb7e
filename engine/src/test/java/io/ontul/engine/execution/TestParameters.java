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
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
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
        List<Field> fields = session.parameterSchema("SELECT * FROM tpch.tiny.nation WHERE n_nationkey = ? AND n_name = ?").getFields();
        assertThat(fields).extracting(Field::getName).containsExactly("parameter_1", "parameter_2");
        assertThat(fields.get(0).getType().toString()).isEqualTo("Int(64, true)");
        assertThat(fields.get(1).getType().toString()).isEqualTo("Utf8");
        assertThat(session.parameterSchema("SHOW CATALOGS").getFields()).isEmpty();
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

    private static long count(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return (Long) ResultRows.drain(result).get(0).get(0);
        }
    }
}
