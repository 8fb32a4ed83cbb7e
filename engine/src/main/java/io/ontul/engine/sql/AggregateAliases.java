package io.ontul.engine.sql;

import java.util.Locale;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Trino's aggregate functions that are other aggregates written another way, rewritten before
 * validation (the rewritten call keeps the position of the one written): {@code count_if(c)} is
 * {@code count(*) FILTER (WHERE c)}. A call with another number of arguments is left as it is,
 * for the validator to name. Also the ORDER BY inside an aggregate ({@code array_agg(x ORDER BY
 * y DESC)}) gets Ontul's NULLS LAST where it names no NULL order, as the query's ORDER BY does
 * (Calcite's default there is NULLS FIRST for DESC).
 */
public final class AggregateAliases
        extends SqlShuttle
{
    private AggregateAliases() {}

    /** {@code query} with the aliases rewritten (in place where the tree allows). */
    public static SqlNode rewrite(SqlNode query)
    {
        return query.accept(new AggregateAliases());
    }

    /** Gives each ORDER BY item without a NULL order Ontul's NULLS LAST. */
    private static void nullsLast(org.apache.calcite.sql.SqlNodeList order)
    {
        for (int i = 0; i < order.size(); i++) {
            SqlNode item = order.get(i);
            boolean named = item instanceof SqlCall nulls
                    && (nulls.getKind() == org.apache.calcite.sql.SqlKind.NULLS_FIRST || nulls.getKind() == org.apache.calcite.sql.SqlKind.NULLS_LAST);
            if (!named) {
                order.set(i, SqlStdOperatorTable.NULLS_LAST.createCall(item.getParserPosition(), item));
            }
        }
    }

    @Override
    public SqlNode visit(SqlCall call)
    {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCall aggregate && (aggregate.getKind() == org.apache.calcite.sql.SqlKind.WITHIN_GROUP || aggregate.getOperator().isAggregator())) {
            // WITHIN GROUP (ORDER BY ...) is its second operand; array_agg(x ORDER BY ...) and string_agg's an operand list
            for (SqlNode operand : aggregate.getOperandList()) {
                if (operand instanceof org.apache.calcite.sql.SqlNodeList order) {
                    nullsLast(order);
                }
            }
        }
        if (!(visited instanceof SqlCall rewritten) || !(rewritten.getOperator() instanceof SqlFunction function) || rewritten.operandCount() != 1
                || rewritten.getFunctionQuantifier() != null) {
            return visited;
        }
        SqlParserPos pos = rewritten.getParserPosition();
        SqlNode argument = rewritten.operand(0);
        return switch (function.getName().toUpperCase(Locale.ROOT)) {
            case "COUNT_IF" -> SqlStdOperatorTable.FILTER.createCall(pos, SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos)), argument);
            default -> visited;
        };
    }
}
