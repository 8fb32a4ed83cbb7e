package io.ontul.engine.sqllogic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.ontul.engine.sqllogic.SqlLogicCase.Kind;
import io.ontul.engine.sqllogic.SqlLogicCase.SortMode;
import io.ontul.spi.ErrorCategory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

public class TestSqlLogicFile
{
    @Test
    public void testStatementIsThreeLines()
    {
        SqlLogicFile file = SqlLogicFile.parse("a.slt", """
                # a comment
                statement ok
                CREATE TABLE memory.default.t1 (a INTEGER)
                """);

        assertThat(file.name()).isEqualTo("a.slt");
        assertThat(file.cases()).containsExactly(
                new SqlLogicCase("a.slt", 2, Kind.STATEMENT, "CREATE TABLE memory.default.t1 (a INTEGER)", "", SortMode.NOSORT, List.of(), Optional.empty()));
    }

    @Test
    public void testQueryWithRows()
    {
        SqlLogicFile file = SqlLogicFile.parse("a.slt", """
                query ITR rowsort
                SELECT a, b, c
                FROM t
                ----
                1 x 1.5
                NULL (empty) 2

                query T
                SELECT 'a b'
                ----
                a b
                """);

        assertThat(file.cases()).containsExactly(
                new SqlLogicCase("a.slt", 1, Kind.QUERY, "SELECT a, b, c\nFROM t", "ITR", SortMode.ROWSORT, List.of("1 x 1.5", "NULL (empty) 2"), Optional.empty()),
                new SqlLogicCase("a.slt", 8, Kind.QUERY, "SELECT 'a b'", "T", SortMode.NOSORT, List.of("a b"), Optional.empty()));
    }

    @Test
    public void testEmptyResult()
    {
        SqlLogicFile file = SqlLogicFile.parse("a.slt", """
                query I nosort
                SELECT 1 WHERE false
                ----

                statement ok
                DROP TABLE t
                """);

        assertThat(file.cases()).hasSize(2);
        assertThat(file.cases().get(0).expectedRows()).isEmpty();
        assertThat(file.cases().get(1).kind()).isEqualTo(Kind.STATEMENT);
        assertThat(file.cases().get(1).line()).isEqualTo(5);
    }

    @Test
    public void testErrors()
    {
        SqlLogicFile file = SqlLogicFile.parse("e.slt", """
                statement error line 1:15: Table 'tpch.tiny.lineitm' does not exist
                SELECT * FROM tpch.tiny.lineitm

                query error line 1:8: Syntax error at or near "frm"...
                SELECT frm

                statement error INSUFFICIENT_RESOURCES: Query exceeded per-query memory limit...
                SELECT 1
                """);

        assertThat(file.cases()).extracting(SqlLogicCase::kind).containsOnly(Kind.ERROR);
        assertThat(file.cases()).extracting(testCase -> testCase.expectedError().orElseThrow()).containsExactly(
                new ExpectedError(Optional.empty(), "line 1:15: Table 'tpch.tiny.lineitm' does not exist", false),
                new ExpectedError(Optional.empty(), "line 1:8: Syntax error at or near \"frm\"", true),
                new ExpectedError(Optional.of(ErrorCategory.INSUFFICIENT_RESOURCES), "Query exceeded per-query memory limit", true));
    }

    @Test
    public void testExpectedErrorMatching()
    {
        OntulException notFound = new OntulException(ErrorCode.NOT_FOUND, "line 1:15: Table 'x' does not exist");

        assertThat(ExpectedError.parse("line 1:15: Table 'x' does not exist").matches(notFound)).isTrue();
        assertThat(ExpectedError.parse("line 1:15: Table 'x'").matches(notFound)).isFalse();
        assertThat(ExpectedError.parse("line 1:15: Table 'x'...").matches(notFound)).isTrue();
        assertThat(ExpectedError.parse("USER_ERROR: line 1:15: Table 'x' does not exist").matches(notFound)).isTrue();
        assertThat(ExpectedError.parse("INTERNAL: line 1:15: Table 'x' does not exist").matches(notFound)).isFalse();
    }

    @Test
    public void testMalformedFiles()
    {
        assertThatThrownBy(() -> SqlLogicFile.parse("b.slt", "query I\nSELECT 1\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("b.slt:1: query has no '----' line");
        assertThatThrownBy(() -> SqlLogicFile.parse("b.slt", "statement ok\n\n"))
                .hasMessage("b.slt:1: record has no SQL");
        assertThatThrownBy(() -> SqlLogicFile.parse("b.slt", "\nquery IX\nSELECT 1\n----\n1\n"))
                .hasMessage("b.slt:2: column types must be letters of IRTBD: IX");
        assertThatThrownBy(() -> SqlLogicFile.parse("b.slt", "query I sorted\nSELECT 1\n----\n1\n"))
                .hasMessage("b.slt:1: unknown sort mode (rowsort or nosort): sorted");
        assertThatThrownBy(() -> SqlLogicFile.parse("b.slt", "statement ok\nSELECT 1\n----\n1\n"))
                .hasMessage("b.slt:3: only 'query <types>' records have expected rows");
        assertThatThrownBy(() -> SqlLogicFile.parse("b.slt", "statement error\nSELECT 1\n"))
                .hasMessageStartingWith("b.slt:1: expected 'statement ok'");
        assertThatThrownBy(() -> SqlLogicFile.parse("b.slt", "statment ok\nSELECT 1\n"))
                .hasMessageStartingWith("b.slt:1: expected 'statement ok'");
    }

    @Test
    public void testRenderFloating()
    {
        assertThat(ValueRenderer.renderFloating(1.5)).isEqualTo("1.5");
        assertThat(ValueRenderer.renderFloating(3.0)).isEqualTo("3");
        assertThat(ValueRenderer.renderFloating(1.50000000000001)).isEqualTo("1.5");
        assertThat(ValueRenderer.renderFloating(1.0 / 3)).isEqualTo("0.333333333333");
        assertThat(ValueRenderer.renderFloating(-0.0)).isEqualTo("0");
        assertThat(ValueRenderer.renderFloating(1e15)).isEqualTo("1000000000000000");
        assertThat(ValueRenderer.renderFloating(Double.NaN)).isEqualTo("NaN");
    }
}
