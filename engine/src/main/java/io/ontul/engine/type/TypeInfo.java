package io.ontul.engine.type;

import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The SQL types a table column or a cast can have in Ontul (the types {@link ArrowTypes} maps),
 * as Flight SQL's GetXdbcTypeInfo and the table {@code system.jdbc.types} (what JDBC drivers answer
 * {@code getTypeInfo} with) list them: rows in the column order of
 * {@code FlightSqlProducer.Schemas.GET_TYPE_INFO_SCHEMA} ({@link #COLUMN_NAMES}), ordered by
 * data_type then type_name as the spec asks. data_type is the JDBC type code, the one JDBC's getColumns reports for the same
 * columns; sql_data_type and datetime_subcode follow ODBC (date and time types are
 * SQL_DATETIME with a subcode).
 */
public final class TypeInfo
{
    /** The columns of a row, as Flight SQL names them. */
    public static final List<String> COLUMN_NAMES = List.of("type_name", "data_type", "column_size", "literal_prefix", "literal_suffix", "create_params",
            "nullable", "case_sensitive", "searchable", "unsigned_attribute", "fixed_prec_scale", "auto_increment", "local_type_name", "minimum_scale",
            "maximum_scale", "sql_data_type", "datetime_subcode", "num_prec_radix", "interval_precision");

    private static final int NULLABLE = 1;
    private static final int SEARCHABLE_BASIC = 2;
    private static final int SEARCHABLE_FULL = 3;
    private static final int SQL_DATETIME = 9;
    private static final int MAX_TEXT_LENGTH = 1 << 20;
    private static final int MAX_DECIMAL_PRECISION = 38;

    private TypeInfo() {}

    private record Type(String name, int dataType, int columnSize, String literalPrefix, String literalSuffix, List<String> createParameters,
            boolean caseSensitive, boolean numeric, Integer minimumScale, Integer maximumScale, Integer datetimeSubcode)
    {
        List<Object> row()
        {
            return Arrays.asList(
                    name,
                    dataType,
                    columnSize,
                    literalPrefix,
                    literalSuffix,
                    createParameters,
                    NULLABLE,
                    caseSensitive,
                    caseSensitive ? SEARCHABLE_FULL : SEARCHABLE_BASIC,
                    numeric ? false : null,
                    false,
                    numeric ? false : null,
                    name,
                    minimumScale,
                    maximumScale,
                    datetimeSubcode == null ? dataType : SQL_DATETIME,
                    datetimeSubcode,
                    numeric ? 10 : null,
                    null);
        }
    }

    private static final List<Type> TYPES = List.of(
            number("TINYINT", Types.TINYINT, 3),
            number("BIGINT", Types.BIGINT, 19),
            new Type("VARBINARY", Types.VARBINARY, MAX_TEXT_LENGTH, "X'", "'", null, false, false, null, null, null),
            text("CHAR", Types.CHAR),
            new Type("DECIMAL", Types.DECIMAL, MAX_DECIMAL_PRECISION, null, null, List.of("precision", "scale"), false, true, 0, MAX_DECIMAL_PRECISION, null),
            number("INTEGER", Types.INTEGER, 10),
            number("SMALLINT", Types.SMALLINT, 5),
            new Type("REAL", Types.REAL, 7, null, null, null, false, true, null, null, null),
            new Type("DOUBLE", Types.DOUBLE, 15, null, null, null, false, true, null, null, null),
            text("VARCHAR", Types.VARCHAR),
            new Type("BOOLEAN", Types.BOOLEAN, 1, null, null, null, false, false, null, null, null),
            new Type("DATE", Types.DATE, 10, "DATE '", "'", null, false, false, null, null, 1),
            new Type("TIME", Types.TIME, 12, "TIME '", "'", null, false, false, 0, 3, 2),
            new Type("TIMESTAMP", Types.TIMESTAMP, 26, "TIMESTAMP '", "'", List.of("precision"), false, false, 0, 6, 3),
            new Type("UUID", Types.OTHER, 36, "UUID '", "'", null, false, false, null, null, null),
            new Type("ARRAY", Types.ARRAY, 0, "ARRAY[", "]", null, false, false, null, null, null),
            new Type("TIMESTAMP WITH TIME ZONE", Types.TIMESTAMP_WITH_TIMEZONE, 30, "TIMESTAMP WITH TIME ZONE '", "'", List.of("precision"), false, false, 0, 6, 3));

    private static Type number(String name, int dataType, int digits)
    {
        return new Type(name, dataType, digits, null, null, null, false, true, 0, 0, null);
    }

    private static Type text(String name, int dataType)
    {
        return new Type(name, dataType, MAX_TEXT_LENGTH, "'", "'", List.of("length"), true, false, null, null, null);
    }

    /** All types, or those of one data_type when {@code dataType} is not null. */
    public static List<List<Object>> rows(Integer dataType)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (Type type : TYPES) {
            if (dataType == null || type.dataType() == dataType) {
                rows.add(type.row());
            }
        }
        return rows;
    }
}
