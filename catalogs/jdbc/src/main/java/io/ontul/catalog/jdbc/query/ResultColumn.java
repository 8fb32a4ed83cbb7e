package io.ontul.catalog.jdbc.query;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.catalog.jdbc.JdbcColumn;
import io.ontul.catalog.jdbc.type.ColumnReader;

/**
 * One vector of the batches a statement fills: its field, and the reader that copies it from
 * the result set starting at column {@code index} (an average reads two columns: sum and count).
 *
 * @param name what messages call the value: a column name or an aggregate such as {@code SUM(x)}
 */
public record ResultColumn(String name, Field field, int index, ColumnReader reader)
{
    public ResultColumn
    {
        requireNonNull(name, "name is null");
        requireNonNull(field, "field is null");
        requireNonNull(reader, "reader is null");
    }

    /** A table column read as it is, from result column {@code index}. */
    public static ResultColumn of(JdbcColumn column, int index)
    {
        return new ResultColumn(column.name(), column.field(), index, column.mapping().reader());
    }
}
