package io.ontul.server.flight;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;

/** What the server's SqlInfo claims holds: each CAST the supportsConvert map names runs. */
class TestOntulSqlInfo
{
    @Test
    void everyConversionClaimedRuns()
    {
        Map<Integer, List<Integer>> conversions = OntulSqlInfo.conversions();
        List<String> failed = new ArrayList<>();
        int casts = 0;
        try (Engine engine = Engine.createEmbedded()) {
            Session session = engine.createSession("admin");
            for (Map.Entry<Integer, List<Integer>> entry : conversions.entrySet()) {
                for (int to : entry.getValue()) {
                    String sql = "SELECT CAST(CAST(" + literal(entry.getKey(), to) + " AS " + typeName(entry.getKey()) + ") AS " + typeName(to) + ")";
                    try (QueryResult result = session.execute(sql)) {
                        List<List<Object>> rows = ResultRows.drain(result);
                        assertThat(rows).as(sql).hasSize(1);
                        assertThat(rows.get(0).get(0)).as(sql).isNotNull();
                        casts++;
                    }
                    catch (RuntimeException e) {
                        failed.add(sql + ": " + e.getMessage());
                    }
                }
            }
        }
        assertThat(failed).isEmpty();
        assertThat(casts).isGreaterThan(100);
    }

    /** A text that the type {@code from} holds and that converts to {@code to}. */
    private static String literal(int from, int to)
    {
        return switch (SqlSupportsConvert.forNumber(from)) {
            case SQL_CONVERT_BIT -> "'true'";
            case SQL_CONVERT_DATE -> "'2024-02-29'";
            case SQL_CONVERT_TIME -> "'10:11:12'";
            case SQL_CONVERT_TIMESTAMP -> "'2024-02-29 10:11:12'";
            case SQL_CONVERT_CHAR, SQL_CONVERT_VARCHAR, SQL_CONVERT_LONGVARCHAR -> switch (SqlSupportsConvert.forNumber(to)) {
                case SQL_CONVERT_BIT -> "'true'";
                case SQL_CONVERT_DATE -> "'2024-02-29'";
                case SQL_CONVERT_TIME -> "'10:11:12'";
                case SQL_CONVERT_TIMESTAMP -> "'2024-02-29 10:11:12'";
                default -> "'42'";
            };
            default -> "'42'";
        };
    }

    private static String typeName(int code)
    {
        return switch (SqlSupportsConvert.forNumber(code)) {
            case SQL_CONVERT_BIGINT -> "BIGINT";
            case SQL_CONVERT_INTEGER -> "INTEGER";
            case SQL_CONVERT_SMALLINT -> "SMALLINT";
            case SQL_CONVERT_TINYINT -> "TINYINT";
            case SQL_CONVERT_DECIMAL -> "DECIMAL(10, 2)";
            case SQL_CONVERT_NUMERIC -> "NUMERIC(10, 2)";
            case SQL_CONVERT_REAL -> "REAL";
            case SQL_CONVERT_FLOAT -> "FLOAT";
            case SQL_CONVERT_CHAR -> "CHAR(30)";
            case SQL_CONVERT_VARCHAR -> "VARCHAR";
            case SQL_CONVERT_LONGVARCHAR -> "VARCHAR(100000)";
            case SQL_CONVERT_BIT -> "BOOLEAN";
            case SQL_CONVERT_DATE -> "DATE";
            case SQL_CONVERT_TIME -> "TIME";
            case SQL_CONVERT_TIMESTAMP -> "TIMESTAMP";
            default -> throw new AssertionError("no Ontul type for SqlSupportsConvert " + code);
        };
    }
}
