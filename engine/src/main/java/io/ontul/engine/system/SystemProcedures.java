package io.ontul.engine.system;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.query.QueryRegistry;
import io.ontul.engine.sql.parser.SqlPositions;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The procedures users run with {@code CALL}. There is one:
 * {@code CALL system.kill_query('query id')} (also {@code system.runtime.kill_query}, and with the
 * named argument {@code query_id => '...'}), which cancels a queued or running statement.
 */
public final class SystemProcedures
{
    private static final List<List<String>> KILL_QUERY = List.of(List.of("system", "kill_query"), List.of("system", "runtime", "kill_query"));

    private final QueryRegistry registry;

    public SystemProcedures(QueryRegistry registry)
    {
        this.registry = requireNonNull(registry, "registry is null");
    }

    /** Runs {@code call} (a PROCEDURE_CALL node) for {@code user}. */
    public void call(SqlCall call, String user)
    {
        SqlCall procedure = (SqlCall) call.operand(0);
        List<String> name = procedureName(procedure);
        if (!KILL_QUERY.contains(name)) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(namePosition(procedure)) + "Procedure '" + String.join(".", name)
                    + "' does not exist (available: system.kill_query)");
        }
        registry.kill(queryIdArgument(procedure), user);
    }

    private static List<String> procedureName(SqlCall procedure)
    {
        if (procedure.getOperator() instanceof SqlFunction function && function.getSqlIdentifier() != null) {
            return function.getSqlIdentifier().names;
        }
        return List.of(procedure.getOperator().getName().toLowerCase(Locale.ROOT));
    }

    private static SqlParserPos namePosition(SqlCall procedure)
    {
        if (procedure.getOperator() instanceof SqlFunction function && function.getSqlIdentifier() != null) {
            return function.getSqlIdentifier().getParserPosition();
        }
        return procedure.getParserPosition();
    }

    private static String queryIdArgument(SqlCall procedure)
    {
        List<SqlNode> arguments = procedure.getOperandList();
        if (arguments.size() != 1) {
            throw usage(procedure.getParserPosition());
        }
        SqlNode argument = arguments.get(0);
        if (argument.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
            SqlCall assignment = (SqlCall) argument;
            SqlNode parameter = assignment.operand(1);
            if (!(parameter instanceof SqlIdentifier identifier) || !identifier.getSimple().equalsIgnoreCase("query_id")) {
                throw usage(argument.getParserPosition());
            }
            argument = assignment.operand(0);
        }
        if (!(argument instanceof SqlCharStringLiteral literal)) {
            throw usage(argument.getParserPosition());
        }
        return literal.getValueAs(String.class);
    }

    private static OntulException usage(SqlParserPos pos)
    {
        return new OntulException(ErrorCode.INVALID_ARGUMENT, position(pos) + "system.kill_query takes one argument, the query id as a string: CALL system.kill_query('20260101_120000_00001_abcde')");
    }

    private static String position(SqlParserPos pos)
    {
        return SqlPositions.prefix(pos);
    }
}
