package io.ontul.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;

/** Result columns without a name of their own are {@code _col<position>}, as in Trino, not Calcite's {@code EXPR$n}. */
class TestResultColumnNames
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

    private static List<String> names(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            ResultRows.drain(result);
            return result.schema().getFields().stream().map(Field::getName).toList();
        }
    }

    @Test
    void unnamedColumnsAreNumberedByPosition()
    {
        assertThat(names("SELECT count(*), n_name, n_regionkey + 1, sum(n_nationkey) AS total FROM tpch.tiny.nation GROUP BY n_name, n_regionkey"))
                .containsExactly("_col0", "n_name", "_col2", "total");
        assertThat(names("VALUES (1, 'a')")).containsExactly("_col0", "_col1");
        assertThat(names("SELECT x FROM (SELECT count(*) AS x FROM tpch.tiny.region)")).containsExactly("x");
        // a subquery's unnamed column keeps Calcite's name inside the query; only the result is renamed
        assertThat(names("SELECT * FROM (SELECT max(r_regionkey) FROM tpch.tiny.region)")).containsExactly("_col0");
    }

    @Test
    void createTableAsNamesTheColumnsSo()
    {
        try (QueryResult result = session.execute("CREATE TABLE memory.\"default\".unnamed AS SELECT n_nationkey, upper(n_name) FROM tpch.tiny.nation")) {
            ResultRows.drain(result);
        }
        assertThat(names("SELECT * FROM memory.\"default\".unnamed")).containsExactly("n_nationkey", "_col1");
    }
}
