package io.ontul.engine.sql.parser;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** The grouping sets a GROUP BY makes are counted before Calcite expands them. */
class TestStatementLimits
{
    @Test
    void groupingSetsAreCountedAsSqlDefinesThem()
    {
        // CUBE(a, b) = 4, ROLLUP(c, d) = 3, combined = 12
        String crossed = "SELECT count(*) FROM t GROUP BY CUBE(a, b), ROLLUP(c, d)";
        assertThatCode(() -> OntulParser.parse(crossed, new StatementLimits(1_000_000, 200, 12))).doesNotThrowAnyException();
        assertRefused(crossed, 11, "line 1:24: GROUP BY makes 12 grouping sets; at most 11 are allowed (ontul.query.max-grouping-sets)");
        // GROUPING SETS adds its elements up: (a), (b, c), () and CUBE(a, b) = 1 + 1 + 1 + 4
        String listed = "SELECT count(*) FROM t GROUP BY GROUPING SETS ((a), (b, c), (), CUBE(a, b))";
        assertThatCode(() -> OntulParser.parse(listed, new StatementLimits(1_000_000, 200, 7))).doesNotThrowAnyException();
        assertRefused(listed, 6, "GROUP BY makes 7 grouping sets");
        // in a subquery too, and without overflowing
        assertRefused("SELECT * FROM (SELECT count(*) FROM t GROUP BY CUBE(" + "a, ".repeat(1999) + "a))", 2048, "grouping sets; at most 2,048 are allowed");
        // 0: no limit
        assertThatCode(() -> OntulParser.parse("SELECT 1 FROM t GROUP BY CUBE(a, b, c, d, e, f, g, h, i, j, k, l)", new StatementLimits(1_000_000, 200, 0))).doesNotThrowAnyException();
    }

    private static void assertRefused(String sql, int maxGroupingSets, String message)
    {
        assertThatThrownBy(() -> OntulParser.parse(sql, new StatementLimits(1_000_000, 200, maxGroupingSets)))
                .isInstanceOfSatisfying(OntulException.class, e -> org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(message);
    }
}
