package io.ontul.engine.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
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
    public static final org.apache.calcite.sql.SqlFunction TRY = new org.apache.calcite.sql.SqlFunction("TRY", org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
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

    private static final SqlReturnTypeInference VARBINARY = ReturnTypes.explicit(SqlTypeName.VARBINARY).andThen(SqlTypeTransforms.TO_NULLABLE);
    private static final SqlReturnTypeInference VARCHAR = ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE);

    // Trino's VARBINARY functions (BinaryFunctions): to_hex gives upper-case digits, digests give bytes
    static final SqlFunction TO_HEX = scalar("TO_HEX", VARCHAR, OperandTypes.BINARY);
    static final SqlFunction FROM_HEX = scalar("FROM_HEX", VARBINARY, OperandTypes.CHARACTER);
    static final SqlFunction TO_BASE64 = scalar("TO_BASE64", VARCHAR, OperandTypes.BINARY);
    static final SqlFunction FROM_BASE64 = scalar("FROM_BASE64", VARBINARY, OperandTypes.CHARACTER);
    static final SqlFunction TO_UTF8 = scalar("TO_UTF8", VARBINARY, OperandTypes.CHARACTER);
    static final SqlFunction FROM_UTF8 = scalar("FROM_UTF8", VARCHAR, OperandTypes.BINARY);
    static final SqlFunction MD5 = scalar("MD5", VARBINARY, OperandTypes.BINARY);
    static final SqlFunction SHA1 = scalar("SHA1", VARBINARY, OperandTypes.BINARY);
    static final SqlFunction SHA256 = scalar("SHA256", VARBINARY, OperandTypes.BINARY);
    static final SqlFunction SHA512 = scalar("SHA512", VARBINARY, OperandTypes.BINARY);
    static final SqlFunction CRC32 = scalar("CRC32", ReturnTypes.BIGINT_NULLABLE, OperandTypes.BINARY);
    /** {@code length(x)}: characters of text (Calcite's LENGTH), bytes of VARBINARY (Trino's). */
    static final SqlFunction LENGTH = scalar("LENGTH", ReturnTypes.INTEGER_NULLABLE, OperandTypes.STRING);

    /**
     * Trino's {@code substr(x, start [, length])} on text and VARBINARY: a negative start counts
     * from the end, start 0 gives '' (not Calcite's library SUBSTR, which is BigQuery's and
     * rewritten to SUBSTRING while planning).
     */
    static final SqlFunction SUBSTR = scalar("SUBSTR", ReturnTypes.ARG0_NULLABLE_VARYING, OperandTypes.STRING_INTEGER_OPTIONAL_INTEGER);

    /** {@code concat(x, ...)}: of VARBINARY values a VARBINARY (Trino's), else Calcite's text concat. */
    static final SqlFunction CONCAT = new SqlFunction("CONCAT", SqlKind.OTHER_FUNCTION,
            binaryOr(SqlLibraryOperators.CONCAT_FUNCTION.getReturnTypeInference()), null,
            SqlLibraryOperators.CONCAT_FUNCTION.getOperandTypeChecker(), SqlFunctionCategory.STRING);

    /** {@code reverse(x)}: of text or VARBINARY, keeping the type (Calcite's makes text of bytes). */
    static final SqlFunction REVERSE = scalar("REVERSE", ReturnTypes.ARG0_NULLABLE_VARYING, OperandTypes.STRING);

    // Trino's array functions (ArrayValues); CARDINALITY, ARRAY[...] and array[i] are SQL's
    /** {@code element_at(array, i)}: NULL outside the array, negative from the end. */
    static final SqlFunction ELEMENT_AT = new SqlFunction("ELEMENT_AT", SqlKind.OTHER_FUNCTION, ReturnTypes.TO_COLLECTION_ELEMENT_FORCE_NULLABLE,
            null, OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER), SqlFunctionCategory.SYSTEM);
    /** {@code contains(array, x)}. */
    static final SqlFunction CONTAINS = new SqlFunction("CONTAINS", SqlKind.OTHER_FUNCTION, ReturnTypes.BOOLEAN_FORCE_NULLABLE, null,
            OperandTypes.ARRAY_ELEMENT, SqlFunctionCategory.SYSTEM);
    /** {@code array_join(array, delimiter[, null_replacement])}. */
    static final SqlFunction ARRAY_JOIN = new SqlFunction("ARRAY_JOIN", SqlKind.OTHER_FUNCTION, VARCHAR, null,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)), SqlFunctionCategory.SYSTEM);

    /**
     * {@code x AT TIME ZONE zone} (PostgreSQL's): a TIMESTAMP to the TIMESTAMP WITH TIME ZONE it
     * is in the zone, a TIMESTAMP WITH TIME ZONE to the TIMESTAMP of its local time there
     * ({@code expression.ZonedTimestamps}); binds tighter than arithmetic.
     */
    public static final SqlBinaryOperator AT_TIME_ZONE = new SqlBinaryOperator("AT TIME ZONE", SqlKind.OTHER, 70, true,
            binding -> {
                RelDataType timestamp = binding.getOperandType(0);
                SqlTypeName target = timestamp.getSqlTypeName() == SqlTypeName.TIMESTAMP_TZ ? SqlTypeName.TIMESTAMP : SqlTypeName.TIMESTAMP_TZ;
                RelDataType type = binding.getTypeFactory().createSqlType(target, timestamp.getPrecision());
                return binding.getTypeFactory().createTypeWithNullability(type, timestamp.isNullable() || binding.getOperandType(1).isNullable());
            },
            null, OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.CHARACTER));

    /** Trino's {@code with_timezone(timestamp, zone)}: the instant the local time is in the zone. */
    static final SqlFunction WITH_TIMEZONE = new SqlFunction("WITH_TIMEZONE", SqlKind.OTHER_FUNCTION,
            binding -> binding.getTypeFactory().createTypeWithNullability(
                    binding.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP_TZ, binding.getOperandType(0).getPrecision()),
                    binding.getOperandType(0).isNullable() || binding.getOperandType(1).isNullable()),
            null, OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.CHARACTER), SqlFunctionCategory.TIMEDATE);

    /** Trino's {@code current_timezone()}: the session's time zone ({@code SET TIME ZONE}), UTC unless set. */
    static final SqlFunction CURRENT_TIMEZONE = new SqlFunction("CURRENT_TIMEZONE", SqlKind.OTHER_FUNCTION, ReturnTypes.explicit(SqlTypeName.VARCHAR), null,
            OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM);

    /**
     * {@code CAST(text AS TIMESTAMP WITH TIME ZONE)} in a session with a time zone:
     * {@code $timestamp_tz_from_text(text, zone)}, text without a zone read in the session's. Not
     * callable from SQL: the planner writes it ({@code plan.SessionTimeZone}) with the type of the cast.
     */
    public static final SqlFunction TIMESTAMP_TZ_FROM_TEXT = new SqlFunction("$TIMESTAMP_TZ_FROM_TEXT", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP_TZ, 6).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), SqlFunctionCategory.TIMEDATE);

    /** {@code CAST(instant AS VARCHAR)} in a session with a time zone: its local time there and the zone's name; written by the planner only. */
    public static final SqlFunction TIMESTAMP_TZ_TO_TEXT = new SqlFunction("$TIMESTAMP_TZ_TO_TEXT", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.CHARACTER), SqlFunctionCategory.TIMEDATE);

    /** {@code uuid()}: a random UUID, another for every row. */
    static final SqlFunction UUID = new SqlFunction("UUID", SqlKind.OTHER_FUNCTION, ReturnTypes.explicit(SqlTypeName.UUID), null,
            OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM)
    {
        @Override
        public boolean isDeterministic()
        {
            return false;
        }
    };

    private static final SqlOperatorTable INSTANCE = SqlOperatorTables.chain(
            SqlStdOperatorTable.instance(),
            SqlOperatorTables.of(SqlLibraryOperators.SPLIT_PART, LENGTH, SUBSTR, SqlLibraryOperators.STRPOS, SqlLibraryOperators.STARTS_WITH, REVERSE,
                    SqlLibraryOperators.LEFT, SqlLibraryOperators.RIGHT, SqlLibraryOperators.LPAD, SqlLibraryOperators.RPAD,
                    SqlLibraryOperators.SINH, SqlLibraryOperators.COSH, SqlLibraryOperators.TANH, SqlLibraryOperators.LOG2, SqlLibraryOperators.RANDOM,
                    SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR, SqlLibraryOperators.GREATEST, SqlLibraryOperators.LEAST, DATE_TRUNC,
                    REGEXP_LIKE, REGEXP_REPLACE, REGEXP_EXTRACT, SqlLibraryOperators.IF, CONCAT, SqlLibraryOperators.CONCAT_WS, DATE_ADD, io.ontul.engine.sql.tree.DateDiffFunction.INSTANCE, FORMAT, DATE_FORMAT, DATE_PARSE, TRY, JSON_EXTRACT_SCALAR, JSON_EXTRACT, SqlLibraryOperators.MIN_BY, SqlLibraryOperators.MAX_BY, SqlLibraryOperators.STRING_AGG, TO_UNIXTIME, FROM_UNIXTIME, NOW, LOG, WIDTH_BUCKET, SqlLibraryOperators.TRY_CAST, APPROX_DISTINCT, APPROX_PERCENTILE,
                    TO_HEX, FROM_HEX, TO_BASE64, FROM_BASE64, TO_UTF8, FROM_UTF8, MD5, SHA1, SHA256, SHA512, CRC32, UUID,
                    ELEMENT_AT, CONTAINS, ARRAY_JOIN, SqlLibraryOperators.ARRAY_AGG, AT_TIME_ZONE, WITH_TIMEZONE, CURRENT_TIMEZONE));

    private OntulOperatorTable() {}

    /** VARBINARY (nullable if an argument is) when every argument is binary, else what {@code text} infers. */
    private static SqlReturnTypeInference binaryOr(SqlReturnTypeInference text)
    {
        return binding -> {
            for (int i = 0; i < binding.getOperandCount(); i++) {
                if (!SqlTypeName.BINARY_TYPES.contains(binding.getOperandType(i).getSqlTypeName())) {
                    return text.inferReturnType(binding);
                }
            }
            return VARBINARY.inferReturnType(binding);
        };
    }

    private static SqlFunction scalar(String name, SqlReturnTypeInference returnType, SqlOperandTypeChecker operands)
    {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, returnType, null, operands, SqlFunctionCategory.STRING);
    }

    public static SqlOperatorTable instance()
    {
        return INSTANCE;
    }
}
