package io.ontul.catalog.jdbc.type;

import java.sql.ResultSet;
import java.sql.SQLException;

import org.apache.arrow.vector.FieldVector;

/**
 * Copies one column of the current row of a result set into an Arrow vector, growing the vector
 * as needed and setting NULL where the database returned NULL.
 */
@FunctionalInterface
public interface ColumnReader
{
    void read(ResultSet resultSet, int columnIndex, FieldVector vector, int row)
            throws SQLException;
}
