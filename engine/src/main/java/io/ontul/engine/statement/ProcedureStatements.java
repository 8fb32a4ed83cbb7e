package io.ontul.engine.statement;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.system.SystemProcedures;

/** CALL of the engine's procedures ({@link SystemProcedures}: {@code system.runtime.kill_query}, ...). */
final class ProcedureStatements
{
    QueryResult call(SqlNode call, StatementContext context)
    {
        new SystemProcedures(context.engine().queries()).call((SqlCall) call, context.session().user());
        return context.updateCount(0);
    }
}
