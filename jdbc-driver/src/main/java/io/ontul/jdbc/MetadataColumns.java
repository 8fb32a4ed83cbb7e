package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The columns {@link java.sql.DatabaseMetaData} defines for the metadata calls whose empty
 * results Arrow's driver returns without columns.
 */
final class MetadataColumns
{
    record Column(String name, int type)
    {
        Column
        {
            requireNonNull(name, "name is null");
        }
    }

    private static final List<Column> KEYS = columns(
            "PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME",
            "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME",
            "KEY_SEQ:SMALLINT", "UPDATE_RULE:SMALLINT", "DELETE_RULE:SMALLINT", "FK_NAME", "PK_NAME", "DEFERRABILITY:SMALLINT");

    private static final Map<String, List<Column>> BY_METHOD = Map.of(
            "getCatalogs", columns("TABLE_CAT"),
            "getSchemas", columns("TABLE_SCHEM", "TABLE_CATALOG"),
            "getTableTypes", columns("TABLE_TYPE"),
            "getTables", columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS",
                    "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION"),
            "getColumns", columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE:INTEGER", "TYPE_NAME",
                    "COLUMN_SIZE:INTEGER", "BUFFER_LENGTH:INTEGER", "DECIMAL_DIGITS:INTEGER", "NUM_PREC_RADIX:INTEGER",
                    "NULLABLE:INTEGER", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE:INTEGER", "SQL_DATETIME_SUB:INTEGER",
                    "CHAR_OCTET_LENGTH:INTEGER", "ORDINAL_POSITION:INTEGER", "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA",
                    "SCOPE_TABLE", "SOURCE_DATA_TYPE:SMALLINT", "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN"),
            "getPrimaryKeys", columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ:SMALLINT", "PK_NAME"),
            "getImportedKeys", KEYS,
            "getExportedKeys", KEYS,
            "getCrossReference", KEYS);

    private MetadataColumns() {}

    static Optional<List<Column>> of(String method)
    {
        return Optional.ofNullable(BY_METHOD.get(method));
    }

    /** Each name is a VARCHAR column unless it ends in {@code :INTEGER} or {@code :SMALLINT}. */
    private static List<Column> columns(String... names)
    {
        List<Column> columns = new ArrayList<>();
        for (String name : names) {
            int colon = name.indexOf(':');
            if (colon < 0) {
                columns.add(new Column(name, Types.VARCHAR));
            }
            else {
                columns.add(new Column(name.substring(0, colon), name.endsWith("INTEGER") ? Types.INTEGER : Types.SMALLINT));
            }
        }
        return List.copyOf(columns);
    }
}
