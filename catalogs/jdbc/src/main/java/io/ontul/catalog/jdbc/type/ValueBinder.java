package io.ontul.catalog.jdbc.type;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Binds a value of a column as a statement parameter: predicate values, split bounds and the rows
 * of INSERT. Values are the plain Java objects of {@link io.ontul.spi.ColumnPredicate} (Long for
 * every integer, Double, BigDecimal, String, LocalDate, LocalTime, LocalDateTime, Boolean), plus
 * Float for REAL columns and, for array columns, a List of such values (NULL elements as null).
 * Never null: callers bind NULL with {@link PreparedStatement#setNull}
 * and the column's JDBC type.
 */
@FunctionalInterface
public interface ValueBinder
{
    void bind(PreparedStatement statement, int parameterIndex, Object value)
            throws SQLException;
}
