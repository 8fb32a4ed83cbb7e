package io.ontul.catalog.jdbc.query;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.catalog.jdbc.JdbcColumn;
import io.ontul.catalog.jdbc.JdbcTableHandle;
import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.catalog.jdbc.type.AggregateReaders;
import io.ontul.catalog.jdbc.type.ColumnReaders;
import io.ontul.catalog.jdbc.type.PredicatePushdown;
import io.ontul.spi.AggregateFunction;
import io.ontul.spi.Aggregation;
import io.ontul.spi.ColumnPredicate.Operator;

/**
 * Turns an aggregation the engine offers into the parts of one {@code SELECT ... GROUP BY}, when
 * the database's result is the engine's:
 * <ul>
 * <li>grouping and MIN/MAX only on columns whose comparisons the database evaluates exactly as the
 * engine ({@link PredicatePushdown#exact()}: not floating point, time, char(n), numeric without
 * precision, uuid), text in the column's range collation (code point order);</li>
 * <li>SUM and AVG of integers and decimals with a declared precision (the database adds exactly;
 * a sum outside the engine's 64-bit range fails as in the engine), and of floating point columns
 * added as double precision (the order of additions may change the last bits);</li>
 * <li>AVG divided here, from the database's sum and count, as the engine divides;</li>
 * <li>COUNT of any column, and COUNT(*).</li>
 * </ul>
 * Anything else, or an output type other than the one these produce, is refused: the engine then
 * aggregates the rows itself.
 */
public final class JdbcAggregations
{
    private static final ArrowType BIGINT = new ArrowType.Int(64, true);
    private static final ArrowType DOUBLE = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

    private final JdbcDialect dialect;

    public JdbcAggregations(JdbcDialect dialect)
    {
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    public Optional<AggregateSelect> plan(JdbcTableHandle table, Aggregation aggregation)
    {
        if (!dialect.supportsAggregatePushdown()) {
            return Optional.empty();
        }
        List<String> items = new ArrayList<>();
        List<String> groupBy = new ArrayList<>();
        List<ResultColumn> columns = new ArrayList<>();
        for (String name : aggregation.groupingColumns()) {
            Optional<JdbcColumn> column = table.column(name);
            if (column.isEmpty() || !comparesExactly(column.get(), Operator.EQUAL)) {
                return Optional.empty();
            }
            String expression = ordered(column.get());
            groupBy.add(expression);
            items.add(expression);
            columns.add(ResultColumn.of(column.get(), items.size()));
        }
        for (AggregateFunction function : aggregation.aggregates()) {
            Optional<JdbcColumn> column = function.column().flatMap(table::column);
            if (function.column().isPresent() && column.isEmpty()) {
                return Optional.empty();
            }
            int index = items.size() + 1;
            Field field = Field.nullable(function.toString(), function.outputType());
            Optional<ResultColumn> result = switch (function.kind()) {
                case COUNT_ALL -> count("count(*)", function, field, index, items);
                case COUNT -> count("count(" + dialect.quote(column.get().name()) + ")", function, field, index, items);
                case SUM -> sum(column.get(), function, field, index, items);
                case MIN, MAX -> minMax(column.get(), function, field, index, items);
                case AVG -> average(column.get(), function, field, index, items);
            };
            if (result.isEmpty()) {
                return Optional.empty();
            }
            columns.add(result.get());
        }
        return Optional.of(new AggregateSelect(items, groupBy, columns));
    }

    private static Optional<ResultColumn> count(String expression, AggregateFunction function, Field field, int index, List<String> items)
    {
        if (!function.outputType().equals(BIGINT)) {
            return Optional.empty();
        }
        items.add(expression);
        return Optional.of(new ResultColumn(function.toString(), field, index, ColumnReaders.BIGINT));
    }

    private Optional<ResultColumn> sum(JdbcColumn column, AggregateFunction function, Field field, int index, List<String> items)
    {
        ArrowType type = column.mapping().type();
        ArrowType output = function.outputType();
        if (type instanceof ArrowType.FloatingPoint && output.equals(DOUBLE)) {
            items.add("sum(" + asDouble(column) + ")");
            return Optional.of(new ResultColumn(function.toString(), field, index, ColumnReaders.DOUBLE));
        }
        if (!addsExactly(column)) {
            return Optional.empty();
        }
        if (type instanceof ArrowType.Int && output.equals(BIGINT)) {
            items.add("sum(" + dialect.quote(column.name()) + ")");
            return Optional.of(new ResultColumn(function.toString(), field, index, AggregateReaders.exactSum(0)));
        }
        if (type instanceof ArrowType.Decimal decimal && output instanceof ArrowType.Decimal sum && sum.getScale() == decimal.getScale()) {
            items.add("sum(" + dialect.quote(column.name()) + ")");
            return Optional.of(new ResultColumn(function.toString(), field, index, AggregateReaders.exactSum(decimal.getScale())));
        }
        return Optional.empty();
    }

    private Optional<ResultColumn> minMax(JdbcColumn column, AggregateFunction function, Field field, int index, List<String> items)
    {
        if (!comparesExactly(column, Operator.LESS_THAN) || !function.outputType().equals(column.mapping().type())) {
            return Optional.empty();
        }
        String name = function.kind() == AggregateFunction.Kind.MIN ? "min" : "max";
        items.add(name + "(" + ordered(column) + ")");
        return Optional.of(new ResultColumn(function.toString(), field, index, column.mapping().reader()));
    }

    private Optional<ResultColumn> average(JdbcColumn column, AggregateFunction function, Field field, int index, List<String> items)
    {
        ArrowType type = column.mapping().type();
        String count = "count(" + dialect.quote(column.name()) + ")";
        if (type instanceof ArrowType.FloatingPoint && function.outputType().equals(type)) {
            items.add("sum(" + asDouble(column) + ")");
            items.add(count);
            return Optional.of(new ResultColumn(function.toString(), field, index, AggregateReaders.floatingAverage()));
        }
        if (!addsExactly(column) || !function.outputType().equals(DOUBLE)) {
            return Optional.empty();
        }
        int scale;
        if (type instanceof ArrowType.Int) {
            scale = 0;
        }
        else if (type instanceof ArrowType.Decimal decimal) {
            scale = decimal.getScale();
        }
        else {
            return Optional.empty();
        }
        items.add("sum(" + dialect.quote(column.name()) + ")");
        items.add(count);
        return Optional.of(new ResultColumn(function.toString(), field, index, AggregateReaders.exactAverage(scale, type instanceof ArrowType.Decimal)));
    }

    /** Whether the database compares the column's values as the engine compares the values it reads. */
    private static boolean comparesExactly(JdbcColumn column, Operator operator)
    {
        PredicatePushdown pushdown = column.mapping().pushdown();
        return pushdown.exact() && pushdown.allows(operator) && !(column.mapping().type() instanceof ArrowType.FloatingPoint);
    }

    /** Integers, and decimals the engine sees unchanged (not a numeric without precision, which it rounds). */
    private static boolean addsExactly(JdbcColumn column)
    {
        ArrowType type = column.mapping().type();
        return (type instanceof ArrowType.Int || type instanceof ArrowType.Decimal) && comparesExactly(column, Operator.EQUAL);
    }

    /** The column in the collation the engine's order and equality match (code point order for text). */
    private String ordered(JdbcColumn column)
    {
        String name = dialect.quote(column.name());
        return column.mapping().pushdown().rangeCollation().map(collation -> name + " COLLATE " + dialect.quote(collation)).orElse(name);
    }

    private String asDouble(JdbcColumn column)
    {
        return "CAST(" + dialect.quote(column.name()) + " AS " + dialect.columnType(Field.nullable("double", DOUBLE)) + ")";
    }
}
