package io.ontul.engine.sql;

import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * The functions and operators SQL may name: the SQL standard's (Calcite's standard table) and
 * the functions of other dialects that Ontul implements, taken from Calcite's library tables so
 * that their types are checked as those dialects do. Each one listed here needs its code in
 * {@code expression.RowCodeGenerator}.
 */
public final class OntulOperatorTable
{
    private static final SqlOperatorTable INSTANCE = SqlOperatorTables.chain(
            SqlStdOperatorTable.instance(),
            SqlOperatorTables.of(SqlLibraryOperators.SPLIT_PART, SqlLibraryOperators.STRPOS, SqlLibraryOperators.STARTS_WITH, SqlLibraryOperators.REVERSE,
                    SqlLibraryOperators.LEFT, SqlLibraryOperators.RIGHT, SqlLibraryOperators.LPAD, SqlLibraryOperators.RPAD,
                    SqlLibraryOperators.SINH, SqlLibraryOperators.COSH, SqlLibraryOperators.TANH, SqlLibraryOperators.LOG2, SqlLibraryOperators.RANDOM,
                    SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR));

    private OntulOperatorTable() {}

    public static SqlOperatorTable instance()
    {
        return INSTANCE;
    }
}
