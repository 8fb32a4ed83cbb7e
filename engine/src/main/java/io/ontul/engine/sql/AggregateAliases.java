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
 * for the validator to name.
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

    @Override
    public SqlNode visit(SqlCall call)
    {
        SqlNode visited = super.visit(call);
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
