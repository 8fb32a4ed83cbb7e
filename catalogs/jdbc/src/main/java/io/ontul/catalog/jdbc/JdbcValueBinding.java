package io.ontul.catalog.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Binds one value of a row being written to its INSERT parameter, for the batch sink and the
 * streaming sink alike: NULL into a NOT NULL column is INVALID_ARGUMENT and a value the column's
 * mapping cannot take is TYPE_MISMATCH, both naming the column and the table.
 */
final class JdbcValueBinding
{
    private JdbcValueBinding() {}

    /** @param column the column's index in the table (the parameter is {@code column + 1}) */
    static void bind(PreparedStatement statement, JdbcTableHandle table, int column, Object value)
            throws SQLException
    {
        JdbcColumn jdbcColumn = table.columns().get(column);
        if (value == null) {
            if (!jdbcColumn.remote().nullable()) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "NULL value not allowed for NOT NULL column '%s' of table '%s'", jdbcColumn.name(), table.qualifiedName());
            }
            statement.setNull(column + 1, jdbcColumn.remote().jdbcType());
            return;
        }
        try {
            jdbcColumn.mapping().binder().bind(statement, column + 1, value);
        }
        catch (IllegalArgumentException e) {
            throw OntulException.userError(ErrorCode.TYPE_MISMATCH, "Cannot insert a value of type %s into column '%s' (%s) of table '%s'",
                    value.getClass().getSimpleName(), jdbcColumn.name(), jdbcColumn.remote().typeName(), table.qualifiedName());
        }
    }
}
