package io.ontul.engine.plan;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;

import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ScanSpec;

/**
 * The part of a scan's filter that connectors can take ({@link ScanSpec}): conjuncts of the form
 * {@code column op literal}, {@code column IS [NOT] NULL}, {@code column LIKE 'pattern'}, IN
 * lists, and ORs of those. {@link #complete()} says whether they are the whole filter, which is
 * when a LIMIT may go down to the connector too.
 */
record ScanFilters(List<ColumnPredicate> predicates, List<List<ColumnPredicate>> disjunctions, boolean complete)
{
    static final ScanFilters NONE = new ScanFilters(List.of(), List.of(), true);

    /** @param columns the scan's column names, indexed by the filter's input references */
    static ScanFilters of(RexBuilder rexBuilder, RexNode filter, List<String> columns)
    {
        if (filter == null) {
            return NONE;
        }
        List<ColumnPredicate> predicates = new ArrayList<>();
        List<List<ColumnPredicate>> disjunctions = new ArrayList<>();
        boolean complete = true;
        for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, filter))) {
            Optional<ColumnPredicate> predicate = predicate(conjunct, columns);
            if (predicate.isPresent()) {
                predicates.add(predicate.get());
                continue;
            }
            Optional<List<ColumnPredicate>> disjunction = conjunct.isA(SqlKind.OR) ? disjunction((RexCall) conjunct, columns) : Optional.empty();
            if (disjunction.isEmpty()) {
                complete = false;
            }
            else if (disjunction.get().size() == 1) {
                predicates.add(disjunction.get().get(0));
            }
            else {
                disjunctions.add(disjunction.get());
            }
        }
        return new ScanFilters(predicates, disjunctions, complete);
    }

    /** The ORed predicates; equalities on one column become one IN. Empty if any part cannot go down. */
    private static Optional<List<ColumnPredicate>> disjunction(RexCall or, List<String> columns)
    {
        List<ColumnPredicate> parts = new ArrayList<>();
        for (RexNode operand : RelOptUtil.disjunctions(or)) {
            Optional<ColumnPredicate> part = predicate(operand, columns);
            if (part.isEmpty()) {
                return Optional.empty();
            }
            parts.add(part.get());
        }
        String column = parts.get(0).column();
        if (parts.stream().allMatch(part -> part.operator() == Operator.EQUAL && part.column().equals(column))) {
            return Optional.of(List.of(new ColumnPredicate(column, Operator.IN, parts.stream().map(part -> part.values().get(0)).toList())));
        }
        return Optional.of(parts);
    }

    private static Optional<ColumnPredicate> predicate(RexNode node, List<String> columns)
    {
        if (!(node instanceof RexCall call)) {
            return Optional.empty();
        }
        if ((call.isA(SqlKind.IS_NULL) || call.isA(SqlKind.IS_NOT_NULL)) && call.operands.get(0) instanceof RexInputRef ref) {
            return Optional.of(new ColumnPredicate(columns.get(ref.getIndex()), call.isA(SqlKind.IS_NULL) ? Operator.IS_NULL : Operator.IS_NOT_NULL, List.of()));
        }
        if (call.isA(SqlKind.LIKE) && !call.getOperator().getName().toUpperCase(java.util.Locale.ROOT).contains("NOT")
                && call.operands.get(0) instanceof RexInputRef ref && ref.getType().getSqlTypeName() == SqlTypeName.VARCHAR
                && call.operands.get(1) instanceof RexLiteral pattern && !pattern.isNull()) {
            List<Object> values = new ArrayList<>();
            values.add(pattern.getValueAs(String.class));
            if (call.operands.size() == 3) {
                if (!(call.operands.get(2) instanceof RexLiteral escape) || escape.isNull()) {
                    return Optional.empty();
                }
                values.add(escape.getValueAs(String.class));
            }
            return Optional.of(new ColumnPredicate(columns.get(ref.getIndex()), Operator.LIKE, values));
        }
        if (call.operands.size() != 2) {
            return Optional.empty();
        }
        RexNode left = call.operands.get(0);
        RexNode right = call.operands.get(1);
        SqlKind kind = call.getKind();
        if (left instanceof RexLiteral && right instanceof RexInputRef) {
            RexNode swap = left;
            left = right;
            right = swap;
            kind = kind.reverse();
        }
        if (!(left instanceof RexInputRef ref) || !(right instanceof RexLiteral literal) || literal.isNull()) {
            return Optional.empty();
        }
        Operator operator = switch (kind) {
            case EQUALS -> Operator.EQUAL;
            case NOT_EQUALS -> Operator.NOT_EQUAL;
            case LESS_THAN -> Operator.LESS_THAN;
            case LESS_THAN_OR_EQUAL -> Operator.LESS_THAN_OR_EQUAL;
            case GREATER_THAN -> Operator.GREATER_THAN;
            case GREATER_THAN_OR_EQUAL -> Operator.GREATER_THAN_OR_EQUAL;
            default -> null;
        };
        Object value = literalValue(literal);
        if (operator == null || value == null || !comparable(ref.getType().getSqlTypeName(), literal.getType().getSqlTypeName())
                || !fitsColumnPrecision(ref, value)) {
            return Optional.empty();
        }
        return Optional.of(new ColumnPredicate(columns.get(ref.getIndex()), operator, List.of(value)));
    }

    /**
     * Whether a connector compares the column with the literal as SQL does: same type, integers of
     * any width, or a VARCHAR column with a text literal (a CHAR column pads, so it stays out).
     */
    private static boolean comparable(SqlTypeName column, SqlTypeName literal)
    {
        if (column == SqlTypeName.CHAR) {
            return false;
        }
        if (column == literal) {
            return true;
        }
        if (SqlTypeFamily.INTEGER.getTypeNames().contains(column) && SqlTypeFamily.INTEGER.getTypeNames().contains(literal)) {
            return true;
        }
        return column == SqlTypeName.VARCHAR && literal == SqlTypeName.CHAR;
    }

    /**
     * The engine compares a timestamp column with a literal cut to the column's precision; a
     * connector would compare with the literal as written and could drop rows the engine keeps.
     */
    private static boolean fitsColumnPrecision(RexInputRef column, Object value)
    {
        int nanos;
        if (value instanceof LocalDateTime timestamp) {
            nanos = timestamp.getNano();
        }
        else if (value instanceof java.time.Instant instant) {
            nanos = instant.getNano();
        }
        else {
            return true;
        }
        int digits = column.getType().getPrecision();
        int unit = digits >= 9 ? 1 : (int) Math.pow(10, 9 - Math.max(0, digits));
        return nanos % unit == 0;
    }

    static Object literalValue(RexLiteral literal)
    {
        return switch (literal.getType().getSqlTypeName()) {
            case BOOLEAN -> literal.getValueAs(Boolean.class);
            case TINYINT, SMALLINT, INTEGER, BIGINT -> literal.getValueAs(Long.class);
            case REAL, DOUBLE, FLOAT -> literal.getValueAs(Double.class);
            case DECIMAL -> literal.getValueAs(BigDecimal.class);
            case CHAR, VARCHAR -> literal.getValueAs(String.class);
            case DATE -> LocalDate.ofEpochDay(literal.getValueAs(Integer.class));
            case TIMESTAMP -> LocalDateTime.parse(literal.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
            case TIMESTAMP_TZ -> {
                long micros = io.ontul.engine.expression.ZonedTimestamps.parse(literal.getValue().toString(), true);
                yield java.time.Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
            }
            default -> null;
        };
    }
}
