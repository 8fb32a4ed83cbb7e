package io.ontul.engine.execution;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeUtil;
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

    /**
     * A copy of the parsed statement with each marker replaced by its value. The copy is deep
     * (validation rewrites the tree it is given), so a prepared statement's parsed tree serves
     * every execution; {@code values} empty copies a statement without markers. Statements other
     * than queries and INSERT take no markers and are returned as they are.
     */
    static SqlNode bind(SqlNode statement, List<?> values)
    {
        if (!StatementKinds.takesParameters(statement)) {
            // parsed for this run alone: nothing to copy
            int[] markers = {0};
            statement.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>()
            {
                @Override
                public Void visit(SqlDynamicParam param)
                {
                    markers[0]++;
                    return null;
                }
            });
            if (markers[0] > 0) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "Parameters (?) are supported in queries and INSERT, not in " + statement.getKind() + " statements");
            }
            if (!values.isEmpty()) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Statement has 0 parameters but " + values.size() + " values were bound");
            }
            return statement;
        }
        int[] count = {0};
        SqlNode bound = statement.accept(new DeepCopy()
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

    /** A deep copy of the statement, markers kept: to validate it for their types. */
    static SqlNode copy(SqlNode statement)
    {
        return statement.accept(new DeepCopy());
    }

    /**
     * A copy of the statement where each marker is a NULL of the type inferred for it
     * ({@code types} in marker order), to plan the statement for its result columns.
     */
    static SqlNode bindNulls(SqlNode statement, List<RelDataType> types)
    {
        return statement.accept(new DeepCopy()
        {
            @Override
            public SqlNode visit(SqlDynamicParam param)
            {
                SqlParserPos pos = param.getParserPosition();
                SqlDataTypeSpec type = SqlTypeUtil.convertTypeToSpec(types.get(param.getIndex()));
                return SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createNull(pos), type);
            }
        });
    }

    /** Copies every call, list and identifier (literals and type names are immutable). */
    private static class DeepCopy
            extends SqlShuttle
    {
        @Override
        public SqlNode visit(SqlCall call)
        {
            CallCopyingArgHandler copier = new CallCopyingArgHandler(call, true);
            call.getOperator().acceptCall(this, call, false, copier);
            SqlNode copy = copier.result();
            if (copy.getClass() != call.getClass()) {
                throw new IllegalStateException("Copying " + call.getClass().getSimpleName() + " made a " + copy.getClass().getSimpleName());
            }
            return copy;
        }

        @Override
        public SqlNode visit(SqlNodeList list)
        {
            List<SqlNode> copies = new ArrayList<>(list.size());
            for (SqlNode node : list) {
                copies.add(node == null ? null : node.accept(this));
            }
            return SqlNodeList.of(list.getParserPosition(), copies);
        }

        @Override
        public SqlNode visit(SqlIdentifier identifier)
        {
            return identifier.clone(identifier.getParserPosition());
        }
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
            requireYearInRange(date.getYear(), date);
            return SqlLiteral.createDate(new DateString(date.toString()), pos);
        }
        if (value instanceof LocalTime time) {
            return SqlLiteral.createTime(new TimeString(time.getHour(), time.getMinute(), time.getSecond()).withNanos(time.getNano()), 3, pos);
        }
        if (value instanceof LocalDateTime dateTime) {
            requireYearInRange(dateTime.getYear(), dateTime);
            TimestampString timestamp = new TimestampString(dateTime.getYear(), dateTime.getMonthValue(), dateTime.getDayOfMonth(),
                    dateTime.getHour(), dateTime.getMinute(), dateTime.getSecond()).withNanos(dateTime.getNano());
            return SqlLiteral.createTimestamp(timestamp, dateTime.getNano() % 1_000_000 == 0 ? 3 : 6, pos);
        }
        throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Parameter values of type " + value.getClass().getSimpleName() + " are not supported");
    }

    /** DATE and TIMESTAMP values run from year 1 to year 9999, as in SQL (and Calcite's literals). */
    private static void requireYearInRange(int year, Object value)
    {
        if (year < 1 || year > 9999) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Parameter value " + value + " is outside the range of DATE and TIMESTAMP values (years 1 to 9999)");
        }
    }
}
