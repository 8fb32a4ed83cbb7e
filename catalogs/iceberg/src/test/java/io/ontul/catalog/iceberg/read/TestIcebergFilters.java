package io.ontul.catalog.iceberg.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.OptionalLong;

import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.iceberg.type.IcebergColumn;
import io.ontul.catalog.iceberg.type.IcebergTypes;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ScanSpec;

class TestIcebergFilters
{
    private static final List<IcebergColumn> COLUMNS = IcebergTypes.columns(new Schema(
            Types.NestedField.optional(1, "i", Types.IntegerType.get()),
            Types.NestedField.optional(2, "l", Types.LongType.get()),
            Types.NestedField.optional(3, "r", Types.FloatType.get()),
            Types.NestedField.optional(4, "d", Types.DoubleType.get()),
            Types.NestedField.optional(5, "price", Types.DecimalType.of(10, 2)),
            Types.NestedField.optional(6, "s", Types.StringType.get()),
            Types.NestedField.optional(7, "u", Types.UUIDType.get()),
            Types.NestedField.optional(8, "day", Types.DateType.get()),
            Types.NestedField.optional(9, "ts", Types.TimestampType.withoutZone())), new java.util.ArrayList<>());

    @Test
    void translatesComparisonsInAndNulls()
    {
        assertThat(filter(predicate("i", Operator.EQUAL, 5L))).isEqualTo("ref(name=\"i\") == 5");
        assertThat(filter(predicate("l", Operator.GREATER_THAN_OR_EQUAL, 5L), predicate("l", Operator.LESS_THAN, 9L)))
                .isEqualTo("(ref(name=\"l\") >= 5 and ref(name=\"l\") < 9)");
        assertThat(filter(predicate("s", Operator.IN, "a", "b"))).isEqualTo("ref(name=\"s\") in (\"a\", \"b\")");
        assertThat(filter(predicate("s", Operator.IS_NULL))).isEqualTo("is_null(ref(name=\"s\"))");
        assertThat(filter(predicate("day", Operator.LESS_THAN, LocalDate.of(1970, 1, 11)))).isEqualTo("ref(name=\"day\") < 10");
        assertThat(filter(predicate("ts", Operator.GREATER_THAN, LocalDateTime.of(1970, 1, 1, 0, 0, 1)))).isEqualTo("ref(name=\"ts\") > 1000000");
        assertThat(filter(predicate("price", Operator.EQUAL, new BigDecimal("1.5")))).isEqualTo("ref(name=\"price\") == 1.50");
        assertThat(filter(predicate("d", Operator.LESS_THAN, 2.5))).isEqualTo("ref(name=\"d\") < 2.5");
    }

    @Test
    void translatesLikeToStartsWith()
    {
        assertThat(filter(predicate("s", Operator.LIKE, "abc%"))).isEqualTo("ref(name=\"s\") startsWith \"\"abc\"\"");
        assertThat(filter(predicate("s", Operator.LIKE, "ab_d%x"))).isEqualTo("ref(name=\"s\") startsWith \"\"ab\"\"");
        assertThat(filter(predicate("s", Operator.LIKE, "exact"))).isEqualTo("ref(name=\"s\") == \"exact\"");
        assertThat(filter(new ColumnPredicate("s", Operator.LIKE, List.of("10!%%", "!")))).isEqualTo("ref(name=\"s\") startsWith \"\"10%\"\"");
        assertThat(filter(predicate("s", Operator.LIKE, "%abc"))).isEqualTo("true");
    }

    @Test
    void translatesDisjunctionsOnlyWhenEveryBranchTranslates()
    {
        ScanSpec both = new ScanSpec(List.of(), List.of(), List.of(List.of(predicate("i", Operator.EQUAL, 1L), predicate("s", Operator.EQUAL, "x"))), OptionalLong.empty());
        assertThat(IcebergFilters.toExpression(both, COLUMNS).toString()).isEqualTo("(ref(name=\"i\") == 1 or ref(name=\"s\") == \"x\")");
        ScanSpec partial = new ScanSpec(List.of(), List.of(), List.of(List.of(predicate("i", Operator.EQUAL, 1L), predicate("r", Operator.EQUAL, 1.0))), OptionalLong.empty());
        assertThat(IcebergFilters.toExpression(partial, COLUMNS).toString()).isEqualTo("true");
    }

    @Test
    void leavesOutWhatIcebergWouldEvaluateDifferently()
    {
        // REAL against a DOUBLE literal, UUID ordering, values that do not fit the column exactly
        assertThat(filter(predicate("r", Operator.EQUAL, 0.1))).isEqualTo("true");
        assertThat(filter(predicate("u", Operator.LESS_THAN, "123e4567-e89b-12d3-a456-426614174000"))).isEqualTo("true");
        assertThat(filter(predicate("u", Operator.EQUAL, "not-a-uuid"))).isEqualTo("true");
        assertThat(filter(predicate("i", Operator.EQUAL, 1L << 40))).isEqualTo("true");
        assertThat(filter(predicate("price", Operator.LESS_THAN, new BigDecimal("1.005")))).isEqualTo("true");
        assertThat(filter(predicate("ts", Operator.LESS_THAN, LocalDateTime.of(2026, 1, 1, 0, 0, 0, 1)))).isEqualTo("true");
        assertThat(filter(predicate("missing", Operator.EQUAL, 1L))).isEqualTo("true");
        assertThat(filter(predicate("i", Operator.IN, 1L, 1L << 40))).isEqualTo("true");
    }

    private static ColumnPredicate predicate(String column, Operator operator, Object... values)
    {
        return new ColumnPredicate(column, operator, List.of(values));
    }

    private static String filter(ColumnPredicate... predicates)
    {
        Expression expression = IcebergFilters.toExpression(new ScanSpec(List.of(), List.of(predicates)), COLUMNS);
        return expression.toString();
    }
}
