package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.ArrowType;

import io.ontul.catalog.jdbc.query.JdbcQuery;
import io.ontul.catalog.jdbc.query.JdbcQueryBuilder;
import io.ontul.catalog.jdbc.query.SplitRange;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;

/**
 * Cuts a scan of a table with a configured split column ({@code read.split-column.<schema>.<table>})
 * into ranges of equal width between the column's MIN and MAX over the filtered rows. The first
 * range is open below and also holds the NULLs, the last is open above, so rows added after
 * planning are still read exactly once.
 */
final class JdbcSplitPlanner
{
    private final JdbcConfig config;
    private final JdbcQueryBuilder queries;
    private final JdbcConnectionPool pool;
    private final JdbcErrors errors;

    JdbcSplitPlanner(JdbcConfig config, JdbcQueryBuilder queries, JdbcConnectionPool pool, JdbcErrors errors)
    {
        this.config = requireNonNull(config, "config is null");
        this.queries = requireNonNull(queries, "queries is null");
        this.pool = requireNonNull(pool, "pool is null");
        this.errors = requireNonNull(errors, "errors is null");
    }

    List<JdbcSplit> splits(JdbcTableHandle table, ScanSpec scan, int desiredSplits)
    {
        Optional<String> columnName = config.splitColumn(table.schema(), table.table());
        int count = config.splitCount(desiredSplits);
        if (columnName.isEmpty() || count <= 1) {
            return List.of(new JdbcSplit(table, Optional.empty(), 1, 1));
        }
        String property = JdbcConfig.SPLIT_COLUMN_PREFIX + table.schema() + "." + table.table();
        JdbcColumn column = table.column(columnName.get())
                .or(() -> table.columns().stream().filter(candidate -> candidate.name().equalsIgnoreCase(columnName.get())).findFirst())
                .orElseThrow(() -> OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' names column '%s', which table '%s' does not have",
                        config.catalogName(), property, columnName.get(), table.qualifiedName()));
        ArrowType type = column.mapping().type();
        if (!(type instanceof ArrowType.Int) && !(type instanceof ArrowType.Decimal) && !(type instanceof ArrowType.FloatingPoint)) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' names column '%s' of table '%s', which is not numeric",
                    config.catalogName(), property, column.name(), table.qualifiedName());
        }
        Optional<BigDecimal[]> bounds = minMax(table, column, scan);
        if (bounds.isEmpty()) {
            return List.of(new JdbcSplit(table, Optional.empty(), 1, 1));
        }
        List<Object> boundaries = boundaries(type, bounds.get()[0], bounds.get()[1], count);
        List<JdbcSplit> splits = new ArrayList<>();
        int partCount = boundaries.size() + 1;
        for (int part = 0; part < partCount; part++) {
            Optional<Object> lower = part == 0 ? Optional.empty() : Optional.of(boundaries.get(part - 1));
            Optional<Object> upper = part == partCount - 1 ? Optional.empty() : Optional.of(boundaries.get(part));
            splits.add(new JdbcSplit(table, Optional.of(new SplitRange(column.name(), lower, upper, part == 0)), part + 1, partCount));
        }
        return splits;
    }

    private Optional<BigDecimal[]> minMax(JdbcTableHandle table, JdbcColumn column, ScanSpec scan)
    {
        JdbcQuery query = queries.minMax(table, column, queries.filter(table, scan));
        try (Connection connection = pool.connection(); PreparedStatement statement = connection.prepareStatement(query.sql())) {
            query.bind(statement);
            try (ResultSet resultSet = statement.executeQuery()) {
                if (!resultSet.next()) {
                    return Optional.empty();
                }
                Optional<BigDecimal> min = finite(resultSet.getObject(1));
                Optional<BigDecimal> max = finite(resultSet.getObject(2));
                return min.isEmpty() || max.isEmpty() ? Optional.empty() : Optional.of(new BigDecimal[] {min.get(), max.get()});
            }
        }
        catch (SQLException e) {
            throw errors.failure("Cannot plan the splits of table '" + table.qualifiedName() + "'", e);
        }
    }

    /** The value as a decimal; empty for NULL (an empty table), NaN and infinities (no ranges to cut). */
    private static Optional<BigDecimal> finite(Object value)
    {
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof BigDecimal decimal) {
            return Optional.of(decimal);
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            return Double.isFinite(number) ? Optional.of(BigDecimal.valueOf(number)) : Optional.empty();
        }
        if (value instanceof Number number) {
            return Optional.of(new BigDecimal(number.toString()));
        }
        return Optional.empty();
    }

    /** The lower bounds of every range but the first, ascending and distinct, as values of the column's type. */
    static List<Object> boundaries(ArrowType type, BigDecimal min, BigDecimal max, int count)
    {
        List<Object> boundaries = new ArrayList<>();
        BigDecimal width = max.subtract(min);
        if (width.signum() <= 0) {
            return boundaries;
        }
        for (int part = 1; part < count; part++) {
            BigDecimal boundary = min.add(width.multiply(BigDecimal.valueOf(part)).divide(BigDecimal.valueOf(count), 20, RoundingMode.FLOOR));
            Object value = switch (type.getTypeID()) {
                case Int -> boundary.setScale(0, RoundingMode.CEILING).longValueExact();
                case Decimal -> boundary.setScale(((ArrowType.Decimal) type).getScale(), RoundingMode.CEILING);
                default -> boundary.doubleValue();
            };
            if (compare(value, min) > 0 && compare(value, max) <= 0 && (boundaries.isEmpty() || compare(value, boundaries.get(boundaries.size() - 1)) > 0)) {
                boundaries.add(value);
            }
        }
        return boundaries;
    }

    private static int compare(Object value, Object other)
    {
        return toDecimal(value).compareTo(toDecimal(other));
    }

    private static BigDecimal toDecimal(Object value)
    {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof Long longValue) {
            return BigDecimal.valueOf(longValue);
        }
        return new BigDecimal(((Number) value).toString());
    }
}
