package io.ontul.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

public class TestResultComparison
{
    private static final List<String> COLUMNS = List.of("name", "total");

    @Test
    public void testOrderByClause()
    {
        OrderByClause clause = OrderByClause.of("select a, (select x from t order by y) from t -- order by z\n"
                + "order by t.a desc, \"Total\" nulls first, 2 limit 10;");
        assertThat(clause.ordered()).isTrue();
        assertThat(clause.keys()).containsExactly("t.a", "\"total\"", "2");
        assertThat(clause.keyColumns(List.of("a", "total"))).contains(List.of(0, 1, 1));
        assertThat(clause.mayBeCut(9)).isFalse();
        assertThat(clause.mayBeCut(10)).isTrue();

        assertThat(OrderByClause.of("select * from (select * from t order by a limit 3)").ordered()).isFalse();
        assertThat(OrderByClause.of("select * from t order by a + b").keyColumns(List.of("a", "b"))).isEmpty();
    }

    @Test
    public void testUnorderedRowsCompareAsMultisets()
    {
        String sql = "select name, total from t";
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 1L), row("b", 2L), row("b", 2L)), rows(row("b", 2L), row("a", 1L), row("b", 2L)))).isEmpty();
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 1L), row("b", 2L), row("b", 2L)), rows(row("a", 1L), row("a", 1L), row("b", 2L))))
                .hasValueSatisfying(message -> assertThat(message).contains("expected 3 rows, actual 3 rows"));
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 1L)), rows()))
                .hasValueSatisfying(message -> assertThat(message).contains("expected 1 rows, actual 0 rows").contains("(no row)"));
    }

    @Test
    public void testOrderedRowsCompareInOrderExceptTies()
    {
        String sql = "select name, total from t order by total desc";
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 2L), row("b", 1L), row("c", 1L)), rows(row("a", 2L), row("c", 1L), row("b", 1L)))).isEmpty();
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 2L), row("b", 1L)), rows(row("b", 1L), row("a", 2L))))
                .hasValueSatisfying(message -> assertThat(message).contains("sort keys differ").contains("row 0"));
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 2L), row("b", 1L), row("c", 1L)), rows(row("a", 2L), row("c", 1L), row("d", 1L))))
                .hasValueSatisfying(message -> assertThat(message).contains("rows 1..2 tie"));
    }

    @Test
    public void testLimitMayCutTheLastTieGroup()
    {
        String sql = "select name, total from t order by total desc limit 2";
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 2L), row("b", 1L)), rows(row("a", 2L), row("c", 1L)))).isEmpty();
        assertThat(ResultComparison.compare(sql, COLUMNS, rows(row("a", 2L), row("b", 1L)), rows(row("z", 2L), row("b", 1L)))).isPresent();
        // fewer rows than the limit: nothing was cut, so every row must match
        String wide = "select name, total from t order by total desc limit 5";
        assertThat(ResultComparison.compare(wide, COLUMNS, rows(row("a", 2L), row("b", 1L)), rows(row("a", 2L), row("c", 1L)))).isPresent();
    }

    @Test
    public void testValues()
    {
        assertThat(SqlValues.matches(5L, new BigDecimal("5.00"))).isTrue();
        assertThat(SqlValues.matches(BigInteger.valueOf(64), 64L)).isTrue();
        assertThat(SqlValues.matches(new BigDecimal("1.01"), new BigDecimal("1.02"))).isFalse();
        assertThat(SqlValues.matches(25.575154611454693, 25.575154611454690)).isTrue();
        assertThat(SqlValues.matches(25.5751546, 25.5751547)).isFalse();
        assertThat(SqlValues.matches(15.48654581228407, new BigDecimal("15.486546"))).isTrue();
        assertThat(SqlValues.matches(15.48654581228407, new BigDecimal("15.486545"))).isFalse();
        assertThat(SqlValues.matches(null, null)).isTrue();
        assertThat(SqlValues.matches(null, 0L)).isFalse();
        assertThat(SqlValues.matches(LocalDate.of(1995, 3, 15), LocalDate.of(1995, 3, 15))).isTrue();
        assertThat(SqlValues.matches("a", "a ")).isFalse();
    }

    private static List<Object> row(Object... values)
    {
        return Arrays.asList(values);
    }

    @SafeVarargs
    private static List<List<Object>> rows(List<Object>... rows)
    {
        return List.of(rows);
    }
}
