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

    /** Trino's {@code regexp_like(string, pattern)}: whether the pattern matches anywhere. */
    static final org.apache.calcite.sql.SqlFunction REGEXP_LIKE = new org.apache.calcite.sql.SqlFunction("REGEXP_LIKE", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.BOOLEAN_NULLABLE, null,
            org.apache.calcite.sql.type.OperandTypes.STRING_STRING, org.apache.calcite.sql.SqlFunctionCategory.STRING);

    /** Trino's {@code regexp_replace(string, pattern[, replacement])}: every match replaced, or removed. */
    static final org.apache.calcite.sql.SqlFunction REGEXP_REPLACE = new org.apache.calcite.sql.SqlFunction("REGEXP_REPLACE", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.or(org.apache.calcite.sql.type.OperandTypes.STRING_STRING, org.apache.calcite.sql.type.OperandTypes.STRING_STRING_STRING),
            org.apache.calcite.sql.SqlFunctionCategory.STRING);

    /** Trino's {@code regexp_extract(string, pattern[, group])}: the first match or its group, NULL when none. */
    static final org.apache.calcite.sql.SqlFunction REGEXP_EXTRACT = new org.apache.calcite.sql.SqlFunction("REGEXP_EXTRACT", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.FORCE_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.or(org.apache.calcite.sql.type.OperandTypes.STRING_STRING,
                    org.apache.calcite.sql.type.OperandTypes.family(org.apache.calcite.sql.type.SqlTypeFamily.STRING, org.apache.calcite.sql.type.SqlTypeFamily.STRING,
                            org.apache.calcite.sql.type.SqlTypeFamily.INTEGER)),
            org.apache.calcite.sql.SqlFunctionCategory.STRING);

    /** {@code log(b, x)}: the logarithm of x to base b (Trino's and PostgreSQL's order); {@code log(x)} is log10, as in PostgreSQL. */
    static final org.apache.calcite.sql.SqlFunction LOG = new org.apache.calcite.sql.SqlFunction("LOG", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.DOUBLE_NULLABLE, null,
            org.apache.calcite.sql.type.OperandTypes.or(org.apache.calcite.sql.type.OperandTypes.NUMERIC, org.apache.calcite.sql.type.OperandTypes.NUMERIC_NUMERIC),
            org.apache.calcite.sql.SqlFunctionCategory.NUMERIC);

    /** Trino's {@code date_add('unit', value, date or timestamp)}. */
    static final org.apache.calcite.sql.SqlFunction DATE_ADD = new org.apache.calcite.sql.SqlFunction("DATE_ADD", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.ARG2_NULLABLE, null,
            org.apache.calcite.sql.type.OperandTypes.family(org.apache.calcite.sql.type.SqlTypeFamily.STRING, org.apache.calcite.sql.type.SqlTypeFamily.INTEGER,
                    org.apache.calcite.sql.type.SqlTypeFamily.DATETIME),
            org.apache.calcite.sql.SqlFunctionCategory.TIMEDATE);

    /** Trino's {@code json_extract_scalar(json, path)}: the scalar at a JSONPath in JSON text, as VARCHAR. */
    static final org.apache.calcite.sql.SqlFunction JSON_EXTRACT_SCALAR = new org.apache.calcite.sql.SqlFunction("JSON_EXTRACT_SCALAR", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.FORCE_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.STRING_STRING, org.apache.calcite.sql.SqlFunctionCategory.STRING);

    /** Trino's {@code json_extract(json, path)}: the JSON text of the value at a JSONPath. */
    static final org.apache.calcite.sql.SqlFunction JSON_EXTRACT = new org.apache.calcite.sql.SqlFunction("JSON_EXTRACT", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.FORCE_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.STRING_STRING, org.apache.calcite.sql.SqlFunctionCategory.STRING);

    /** Trino's {@code date_format(timestamp, format)} with MySQL's format specifiers, a VARCHAR. */
    static final org.apache.calcite.sql.SqlFunction DATE_FORMAT = new org.apache.calcite.sql.SqlFunction("DATE_FORMAT", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.family(org.apache.calcite.sql.type.SqlTypeFamily.DATETIME, org.apache.calcite.sql.type.SqlTypeFamily.STRING),
            org.apache.calcite.sql.SqlFunctionCategory.TIMEDATE);

    /** Trino's {@code date_parse(text, format)} with MySQL's format specifiers, a TIMESTAMP(3). */
    static final org.apache.calcite.sql.SqlFunction DATE_PARSE = new org.apache.calcite.sql.SqlFunction("DATE_PARSE", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP, 3).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.STRING_STRING, org.apache.calcite.sql.SqlFunctionCategory.TIMEDATE);

    /** Trino's {@code try(x)}: x, or NULL where computing it fails on the data. */
    static final org.apache.calcite.sql.SqlFunction TRY = new org.apache.calcite.sql.SqlFunction("TRY", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.ARG0_FORCE_NULLABLE, null,
            org.apache.calcite.sql.type.OperandTypes.ANY, org.apache.calcite.sql.SqlFunctionCategory.SYSTEM);

    /** Trino's {@code format(format, args...)}: Java's String.format, a VARCHAR. */
    static final org.apache.calcite.sql.SqlFunction FORMAT = new org.apache.calcite.sql.SqlFunction("FORMAT", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.ONE_OR_MORE, org.apache.calcite.sql.SqlFunctionCategory.STRING);

    /** Trino's {@code to_unixtime(timestamp)}: seconds since 1970-01-01 00:00:00, a DOUBLE. */
    static final org.apache.calcite.sql.SqlFunction TO_UNIXTIME = new org.apache.calcite.sql.SqlFunction("TO_UNIXTIME", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.DOUBLE_NULLABLE, null,
            org.apache.calcite.sql.type.OperandTypes.TIMESTAMP, org.apache.calcite.sql.SqlFunctionCategory.TIMEDATE);

    /** Trino's {@code from_unixtime(seconds)}: the TIMESTAMP(3) that many seconds after 1970-01-01 00:00:00. */
    static final org.apache.calcite.sql.SqlFunction FROM_UNIXTIME = new org.apache.calcite.sql.SqlFunction("FROM_UNIXTIME", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP, 3).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            org.apache.calcite.sql.type.OperandTypes.NUMERIC, org.apache.calcite.sql.SqlFunctionCategory.TIMEDATE);

    /** {@code now()}: CURRENT_TIMESTAMP. */
    static final org.apache.calcite.sql.SqlFunction NOW = new org.apache.calcite.sql.SqlFunction("NOW", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP, 3), null,
            org.apache.calcite.sql.type.OperandTypes.NILADIC, org.apache.calcite.sql.SqlFunctionCategory.TIMEDATE)
    {
        @Override
        public boolean isDynamicFunction()
        {
            return true;
        }

        @Override
        public boolean isDeterministic()
        {
            return false;
        }
    };

    /**
     * {@code width_bucket(x, bound1, bound2, n)}: which of n equal buckets between the bounds x
     * falls in, 0 below and n + 1 above (PostgreSQL's and Trino's; bound1 > bound2 counts down).
     */
    static final org.apache.calcite.sql.SqlFunction WIDTH_BUCKET = new org.apache.calcite.sql.SqlFunction("WIDTH_BUCKET", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.BIGINT_NULLABLE, null,
            org.apache.calcite.sql.type.OperandTypes.family(org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC, org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC,
                    org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC, org.apache.calcite.sql.type.SqlTypeFamily.INTEGER),
            org.apache.calcite.sql.SqlFunctionCategory.NUMERIC);

    /**
     * {@code approx_distinct(x)}: Trino's estimate of {@code count(DISTINCT x)}, from an HLL sketch
     * of Apache DataSketches ({@code ApproxDistinctAccumulator}).
     */
    static final org.apache.calcite.sql.SqlAggFunction APPROX_DISTINCT = org.apache.calcite.sql.fun.SqlBasicAggFunction.create("APPROX_DISTINCT",
            org.apache.calcite.sql.SqlKind.OTHER_FUNCTION, org.apache.calcite.sql.type.ReturnTypes.BIGINT, org.apache.calcite.sql.type.OperandTypes.ANY);

    /**
     * {@code approx_percentile(x, percentage)}: Trino's estimate of the value at a percentage of the
     * sorted values, of x's type, from a KLL sketch of Apache DataSketches ({@code ApproxPercentileAccumulator}).
     */
    static final org.apache.calcite.sql.SqlAggFunction APPROX_PERCENTILE = org.apache.calcite.sql.fun.SqlBasicAggFunction.create("APPROX_PERCENTILE",
            org.apache.calcite.sql.SqlKind.OTHER_FUNCTION, org.apache.calcite.sql.type.ReturnTypes.ARG0_FORCE_NULLABLE,
            org.apache.calcite.sql.type.OperandTypes.family(org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC, org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC));

    private static final SqlOperatorTable INSTANCE = SqlOperatorTables.chain(
            SqlStdOperatorTable.instance(),
            SqlOperatorTables.of(SqlLibraryOperators.SPLIT_PART, SqlLibraryOperators.LENGTH, SqlLibraryOperators.STRPOS, SqlLibraryOperators.STARTS_WITH, SqlLibraryOperators.REVERSE,
                    SqlLibraryOperators.LEFT, SqlLibraryOperators.RIGHT, SqlLibraryOperators.LPAD, SqlLibraryOperators.RPAD,
                    SqlLibraryOperators.SINH, SqlLibraryOperators.COSH, SqlLibraryOperators.TANH, SqlLibraryOperators.LOG2, SqlLibraryOperators.RANDOM,
                    SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR, SqlLibraryOperators.GREATEST, SqlLibraryOperators.LEAST, DATE_TRUNC,
                    REGEXP_LIKE, REGEXP_REPLACE, REGEXP_EXTRACT, SqlLibraryOperators.IF, SqlLibraryOperators.CONCAT_FUNCTION, SqlLibraryOperators.CONCAT_WS, DATE_ADD, io.ontul.engine.sql.tree.DateDiffFunction.INSTANCE, FORMAT, DATE_FORMAT, DATE_PARSE, TRY, JSON_EXTRACT_SCALAR, JSON_EXTRACT, SqlLibraryOperators.MIN_BY, SqlLibraryOperators.MAX_BY, SqlLibraryOperators.STRING_AGG, TO_UNIXTIME, FROM_UNIXTIME, NOW, LOG, WIDTH_BUCKET, SqlLibraryOperators.TRY_CAST, APPROX_DISTINCT, APPROX_PERCENTILE));

    private OntulOperatorTable() {}

    public static SqlOperatorTable instance()
    {
        return INSTANCE;
    }
}
