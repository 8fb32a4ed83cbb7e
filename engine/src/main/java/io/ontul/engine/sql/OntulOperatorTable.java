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
    /** Trino's and PostgreSQL's {@code date_trunc('unit', date or timestamp)} (not BigQuery's, whose unit comes second). */
    static final org.apache.calcite.sql.SqlFunction DATE_TRUNC = new org.apache.calcite.sql.SqlFunction("DATE_TRUNC", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.ARG1_NULLABLE, null,
            org.apache.calcite.sql.type.OperandTypes.sequence("DATE_TRUNC('unit', <date or timestamp>)",
                    org.apache.calcite.sql.type.OperandTypes.CHARACTER, org.apache.calcite.sql.type.OperandTypes.DATETIME),
            org.apache.calcite.sql.SqlFunctionCategory.TIMEDATE);

    private static final SqlOperatorTable INSTANCE = SqlOperatorTables.chain(
            SqlStdOperatorTable.instance(),
            SqlOperatorTables.of(SqlLibraryOperators.SPLIT_PART, SqlLibraryOperators.STRPOS, SqlLibraryOperators.STARTS_WITH, SqlLibraryOperators.REVERSE,
                    SqlLibraryOperators.LEFT, SqlLibraryOperators.RIGHT, SqlLibraryOperators.LPAD, SqlLibraryOperators.RPAD,
                    SqlLibraryOperators.SINH, SqlLibraryOperators.COSH, SqlLibraryOperators.TANH, SqlLibraryOperators.LOG2, SqlLibraryOperators.RANDOM,
                    SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR, SqlLibraryOperators.GREATEST, SqlLibraryOperators.LEAST, DATE_TRUNC));

    private OntulOperatorTable() {}

    public static SqlOperatorTable instance()
    {
        return INSTANCE;
    }
}
