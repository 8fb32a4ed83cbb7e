package io.ontul.engine.execution;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;

import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Binds the values of a prepared statement's {@code ?} markers: each marker becomes a typed
 * literal in the parsed statement, before validation, so the statement is planned and type
 * checked exactly as if the value had been written in the SQL (no text substitution, so no
 * quoting problems). Values: null, Boolean, Byte/Short/Integer/Long, Float/Double, BigDecimal,
 * String, LocalDate, LocalTime, LocalDateTime.
 */
final class Parameters
{
    private Parameters() {}

    static SqlNode bind(SqlNode statement, List<?> values)
    {
        int[] count = {0};
        SqlNode bound = statement.accept(new SqlShuttle()
        {
            @Override
            public SqlNode visit(SqlDynamicParam param)
            {
                count[0]++;
                int index = param.getIndex();
                if (index >= values.size()) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, "No value bound for parameter " + (index + 1) + " (" + values.size() + " given)");
                }
                return literal(values.get(index), param.getParserPosition());
            }
        });
        if (count[0] != values.size()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Statement has " + count[0] + " parameters but " + values.size() + " values were bound");
        }
        return bound;
    }

    private static SqlNode literal(Object value, SqlParserPos pos)
    {
        if (value == null) {
            return SqlLiteral.createNull(pos);
        }
        if (value instanceof Boolean b) {
            return SqlLiteral.createBoolean(b, pos);
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            return SqlLiteral.createExactNumeric(value.toString(), pos);
        }
        if (value instanceof BigDecimal decimal) {
            return SqlLiteral.createExactNumeric(decimal.toPlainString(), pos);
        }
        if (value instanceof Float || value instanceof Double) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Parameter value " + d + " is not supported");
            }
            return SqlLiteral.createApproxNumeric(Double.toString(d), pos);
        }
        if (value instanceof String text) {
            return SqlLiteral.createCharString(text, pos);
        }
        if (value instanceof LocalDate date) {
            return SqlLiteral.createDate(new DateString(date.toString()), pos);
        }
        if (value instanceof LocalTime time) {
            return SqlLiteral.createTime(new TimeString(time.getHour(), time.getMinute(), time.getSecond()).withNanos(time.getNano()), 3, pos);
        }
        if (value instanceof LocalDateTime dateTime) {
            TimestampString timestamp = new TimestampString(dateTime.getYear(), dateTime.getMonthValue(), dateTime.getDayOfMonth(),
                    dateTime.getHour(), dateTime.getMinute(), dateTime.getSecond()).withNanos(dateTime.getNano());
            return SqlLiteral.createTimestamp(timestamp, dateTime.getNano() % 1_000_000 == 0 ? 3 : 6, pos);
        }
        throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Parameter values of type " + value.getClass().getSimpleName() + " are not supported");
    }
}
