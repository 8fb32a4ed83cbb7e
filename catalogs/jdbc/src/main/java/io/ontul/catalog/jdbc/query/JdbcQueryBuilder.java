package io.ontul.catalog.jdbc.query;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.apache.arrow.vector.types.pojo.ArrowType;

import io.ontul.catalog.jdbc.JdbcColumn;
import io.ontul.catalog.jdbc.JdbcTableHandle;
import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ScanSpec;

/**
 * Generates the statements of a scan: SELECT of the needed columns with the pushed filters as a
 * WHERE clause of bind parameters, a split's range, and LIMIT; the count of rows for a scan
 * without columns; the GROUP BY of an aggregation; MIN/MAX of a split column.
 */
public final class JdbcQueryBuilder
{
    /** Longer IN lists stay in the engine: statements have a parameter limit. */
    static final int MAX_IN_VALUES = 1000;

    private final JdbcDialect dialect;

    public JdbcQueryBuilder(JdbcDialect dialect)
    {
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    /**
     * The WHERE conditions of the scan's filters that the database can evaluate.
     *
     * @param complete whether every predicate and disjunction was pushed and the database
     * evaluates them exactly as the engine (only then may LIMIT be pushed)
     */
    public record Filter(List<String> conditions, List<QueryParameter> parameters, boolean complete)
    {
        public Filter
        {
            conditions = List.copyOf(conditions);
            parameters = List.copyOf(parameters);
        }
    }

    public Filter filter(JdbcTableHandle table, ScanSpec scan)
    {
        List<String> conditions = new ArrayList<>();
        List<QueryParameter> parameters = new ArrayList<>();
        boolean complete = true;
        for (ColumnPredicate predicate : scan.predicates()) {
            Optional<Condition> condition = condition(table, predicate);
            if (condition.isPresent()) {
                conditions.add(condition.get().sql());
                parameters.addAll(condition.get().parameters());
                complete &= condition.get().exact();
            }
            else {
                complete = false;
            }
        }
        for (List<ColumnPredicate> disjunction : scan.disjunctions()) {
            List<Condition> alternatives = new ArrayList<>();
            for (ColumnPredicate predicate : disjunction) {
                Optional<Condition> condition = condition(table, predicate);
                if (condition.isEmpty()) {
                    // leaving out one alternative would drop the rows that satisfy only it
                    alternatives = null;
                    break;
                }
                alternatives.add(condition.get());
            }
            if (alternatives == null || alternatives.isEmpty()) {
                complete = false;
                continue;
            }
            conditions.add("(" + String.join(" OR ", alternatives.stream().map(Condition::sql).toList()) + ")");
            alternatives.forEach(condition -> parameters.addAll(condition.parameters()));
            complete &= alternatives.stream().allMatch(Condition::exact);
        }
        return new Filter(conditions, parameters, complete);
    }

    /**
     * SELECT of {@code columns}; a limit is added only if given (the caller decides whether the
     * filter allows it). When the dialect has no LIMIT syntax the caller sets the statement's
     * max rows.
     */
    public JdbcQuery select(JdbcTableHandle table, List<JdbcColumn> columns, Filter filter, Optional<SplitRange> range, OptionalLong limit)
    {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("no columns: use count");
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(String.join(", ", columns.stream().map(column -> dialect.quote(column.name())).toList()));
        List<QueryParameter> parameters = new ArrayList<>();
        appendFromWhere(sql, parameters, table, filter, range);
        if (limit.isPresent()) {
            dialect.limitClause(limit.getAsLong()).ifPresent(clause -> sql.append(' ').append(clause));
        }
        return new JdbcQuery(sql.toString(), parameters);
    }

    /** The number of rows that pass the filter in the range. */
    public JdbcQuery count(JdbcTableHandle table, Filter filter, Optional<SplitRange> range)
    {
        StringBuilder sql = new StringBuilder("SELECT count(*)");
        List<QueryParameter> parameters = new ArrayList<>();
        appendFromWhere(sql, parameters, table, filter, range);
        return new JdbcQuery(sql.toString(), parameters);
    }

    /** The aggregating SELECT over the rows that pass the filter (the caller checked that it is complete). */
    public JdbcQuery aggregate(JdbcTableHandle table, AggregateSelect select, Filter filter)
    {
        StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", select.selectItems()));
        List<QueryParameter> parameters = new ArrayList<>();
        appendFromWhere(sql, parameters, table, filter, Optional.empty());
        if (!select.groupBy().isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", select.groupBy()));
        }
        return new JdbcQuery(sql.toString(), parameters);
    }

    /** MIN and MAX of a column over the rows that pass the filter. */
    public JdbcQuery minMax(JdbcTableHandle table, JdbcColumn column, Filter filter)
    {
        String name = dialect.quote(column.name());
        StringBuilder sql = new StringBuilder("SELECT min(" + name + "), max(" + name + ")");
        List<QueryParameter> parameters = new ArrayList<>();
        appendFromWhere(sql, parameters, table, filter, Optional.empty());
        return new JdbcQuery(sql.toString(), parameters);
    }

    private void appendFromWhere(StringBuilder sql, List<QueryParameter> parameters, JdbcTableHandle table, Filter filter, Optional<SplitRange> range)
    {
        sql.append(" FROM ").append(dialect.qualifiedName(table.schema(), table.table()));
        List<String> conditions = new ArrayList<>(filter.conditions());
        parameters.addAll(filter.parameters());
        range.ifPresent(split -> rangeCondition(table, split, conditions, parameters));
        if (!conditions.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", conditions));
        }
    }

    private void rangeCondition(JdbcTableHandle table, SplitRange range, List<String> conditions, List<QueryParameter> parameters)
    {
        JdbcColumn column = table.column(range.column()).orElseThrow(() -> new IllegalArgumentException("no column " + range.column()));
        String name = dialect.quote(column.name());
        List<String> bounds = new ArrayList<>();
        range.lower().ifPresent(value -> {
            bounds.add(name + " >= ?");
            parameters.add(new QueryParameter(value, column.mapping().binder()));
        });
        range.upper().ifPresent(value -> {
            bounds.add(name + " < ?");
            parameters.add(new QueryParameter(value, column.mapping().binder()));
        });
        String bounded = String.join(" AND ", bounds);
        if (range.includeNulls()) {
            conditions.add(bounded.isEmpty() ? name + " IS NULL" : "(" + bounded + " OR " + name + " IS NULL)");
        }
        else if (!bounded.isEmpty()) {
            conditions.add(bounded);
        }
    }

    private record Condition(String sql, List<QueryParameter> parameters, boolean exact) {}

    private Optional<Condition> condition(JdbcTableHandle table, ColumnPredicate predicate)
    {
        Optional<JdbcColumn> found = table.column(predicate.column());
        if (found.isEmpty() || !found.get().mapping().pushdown().allows(predicate.operator())) {
            return Optional.empty();
        }
        JdbcColumn column = found.get();
        ColumnMapping mapping = column.mapping();
        String name = dialect.quote(column.name());
        boolean exact = mapping.pushdown().exact();
        return switch (predicate.operator()) {
            case IS_NULL -> Optional.of(new Condition(name + " IS NULL", List.of(), true));
            case IS_NOT_NULL -> Optional.of(new Condition(name + " IS NOT NULL", List.of(), true));
            case EQUAL -> comparison(name, "=", predicate, mapping, exact);
            case NOT_EQUAL -> comparison(name, "<>", predicate, mapping, exact);
            case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                String operand = mapping.pushdown().rangeCollation().map(collation -> name + " COLLATE " + dialect.quote(collation)).orElse(name);
                String operator = switch (predicate.operator()) {
                    case LESS_THAN -> "<";
                    case LESS_THAN_OR_EQUAL -> "<=";
                    case GREATER_THAN -> ">";
                    default -> ">=";
                };
                yield comparison(operand, operator, predicate, mapping, exact);
            }
            case IN -> in(name, predicate, mapping, exact);
            case LIKE -> like(name, predicate, mapping, exact);
        };
    }

    private static Optional<Condition> comparison(String operand, String operator, ColumnPredicate predicate, ColumnMapping mapping, boolean exact)
    {
        if (predicate.values().size() != 1 || !accepts(mapping.type(), predicate.values().get(0))) {
            return Optional.empty();
        }
        return Optional.of(new Condition(operand + " " + operator + " ?", List.of(new QueryParameter(predicate.values().get(0), mapping.binder())), exact));
    }

    private static Optional<Condition> in(String name, ColumnPredicate predicate, ColumnMapping mapping, boolean exact)
    {
        List<Object> values = predicate.values();
        if (values.isEmpty() || values.size() > MAX_IN_VALUES || !values.stream().allMatch(value -> accepts(mapping.type(), value))) {
            return Optional.empty();
        }
        List<QueryParameter> parameters = values.stream().map(value -> new QueryParameter(value, mapping.binder())).toList();
        return Optional.of(new Condition(name + " IN (" + String.join(", ", values.stream().map(value -> "?").toList()) + ")", parameters, exact));
    }

    private static Optional<Condition> like(String name, ColumnPredicate predicate, ColumnMapping mapping, boolean exact)
    {
        List<Object> values = predicate.values();
        if (values.isEmpty() || values.size() > 2 || !values.stream().allMatch(String.class::isInstance) || !(mapping.type() instanceof ArrowType.Utf8)) {
            return Optional.empty();
        }
        Optional<String> escape = values.size() == 2 ? Optional.of((String) values.get(1)) : Optional.empty();
        return LikePatterns.withStandardEscape((String) values.get(0), escape)
                .map(pattern -> new Condition(name + " LIKE ? ESCAPE '" + LikePatterns.ESCAPE + "'", List.of(new QueryParameter(pattern, mapping.binder())), exact));
    }

    /** Whether a predicate value has a Java type the column's type compares with exactly. */
    static boolean accepts(ArrowType type, Object value)
    {
        if (value == null) {
            return false;
        }
        return switch (type.getTypeID()) {
            case Bool -> value instanceof Boolean;
            case Int -> value instanceof Long || value instanceof Integer;
            case FloatingPoint -> value instanceof Double || value instanceof Float || value instanceof Long;
            case Decimal -> value instanceof BigDecimal || value instanceof Long;
            case Utf8 -> value instanceof String;
            case Date -> value instanceof LocalDate;
            case Time -> value instanceof LocalTime;
            case Timestamp -> ((ArrowType.Timestamp) type).getTimezone() == null ? value instanceof LocalDateTime : value instanceof java.time.Instant;
            default -> false;
        };
    }
}
