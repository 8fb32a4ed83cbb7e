package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/** Metadata of a result set whose columns are known by name and type only (see {@link EmptyResultSet}). */
final class ColumnListMetaData
        implements ResultSetMetaData
{
    private final List<MetadataColumns.Column> columns;

    ColumnListMetaData(List<MetadataColumns.Column> columns)
    {
        this.columns = requireNonNull(columns, "columns is null");
    }

    private MetadataColumns.Column column(int index)
            throws SQLException
    {
        if (index < 1 || index > columns.size()) {
            throw new SQLException("Column index " + index + " is not between 1 and " + columns.size(), "07009");
        }
        return columns.get(index - 1);
    }

    @Override
    public int getColumnCount()
    {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column)
            throws SQLException
    {
        column(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column)
            throws SQLException
    {
        return column(column).type() == Types.VARCHAR;
    }

    @Override
    public boolean isSearchable(int column)
            throws SQLException
    {
        column(column);
        return false;
    }

    @Override
    public boolean isCurrency(int column)
            throws SQLException
    {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column)
            throws SQLException
    {
        column(column);
        return columnNullable;
    }

    @Override
    public boolean isSigned(int column)
            throws SQLException
    {
        return column(column).type() != Types.VARCHAR;
    }

    @Override
    public int getColumnDisplaySize(int column)
            throws SQLException
    {
        return column(column).type() == Types.VARCHAR ? 128 : 11;
    }

    @Override
    public String getColumnLabel(int column)
            throws SQLException
    {
        return column(column).name();
    }

    @Override
    public String getColumnName(int column)
            throws SQLException
    {
        return column(column).name();
    }

    @Override
    public String getSchemaName(int column)
            throws SQLException
    {
        column(column);
        return "";
    }

    @Override
    public int getPrecision(int column)
            throws SQLException
    {
        return switch (column(column).type()) {
            case Types.INTEGER -> 10;
            case Types.SMALLINT -> 5;
            default -> 0;
        };
    }

    @Override
    public int getScale(int column)
            throws SQLException
    {
        column(column);
        return 0;
    }

    @Override
    public String getTableName(int column)
            throws SQLException
    {
        column(column);
        return "";
    }

    @Override
    public String getCatalogName(int column)
            throws SQLException
    {
        column(column);
        return "";
    }

    @Override
    public int getColumnType(int column)
            throws SQLException
    {
        return column(column).type();
    }

    @Override
    public String getColumnTypeName(int column)
            throws SQLException
    {
        return switch (column(column).type()) {
            case Types.INTEGER -> "INTEGER";
            case Types.SMALLINT -> "SMALLINT";
            default -> "VARCHAR";
        };
    }

    @Override
    public boolean isReadOnly(int column)
            throws SQLException
    {
        column(column);
        return true;
    }

    @Override
    public boolean isWritable(int column)
            throws SQLException
    {
        column(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column)
            throws SQLException
    {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column)
            throws SQLException
    {
        return ResultSetMetaDataHandler.className(column(column).type());
    }

    @Override
    public <T> T unwrap(Class<T> type)
            throws SQLException
    {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("Not a wrapper of " + type.getName(), "HY000");
    }

    @Override
    public boolean isWrapperFor(Class<?> type)
    {
        return type.isInstance(this);
    }
}
