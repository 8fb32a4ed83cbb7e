package io.ontul.engine.plan;

import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMdDistinctRowCount;
import org.apache.calcite.rel.metadata.RelMdSelectivity;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import com.google.common.collect.Range;

import io.ontul.engine.sql.ConnectorTable;
import io.ontul.spi.ColumnStatistics;
import io.ontul.spi.TableStatistics;

/**
 * Estimates from a table's column statistics ({@link ColumnStatistics}: distinct values, NULL
 * share, smallest and largest value): the share of the table's rows a filter on its scan keeps,
 * and how many distinct values a set of its columns holds. {@link Selectivity} and
 * {@link DistinctRowCount} answer Calcite's questions about scans with them, so the estimates
 * reach every filter, aggregation and join above the scan; where a column has no
 * statistics Calcite's guesses apply (0.15 per equality, 0.5 per comparison, a tenth of the rows
 * per aggregation).
 * <p>
 * The rules are the textbook ones (uniform values, independent columns): {@code col = constant}
 * keeps 1/distinct of the non-NULL rows, a range keeps the share of [min, max] it covers, an
 * {@code IN} list one distinct value's share per item, {@code IS NULL} the NULL share;
 * conjunctions multiply and disjunctions add what the others do not already keep.
 */
public final class ColumnStatisticsEstimator
{
    /** A constant outside a column's range keeps (next to) nothing; not zero, which later multiplications could not undo. */
    private static final double NONE = 1e-6;
    /** The share of rows a LIKE keeps. */
    private static final double LIKE = 0.1;

    private final TableStatistics statistics;
    private final List<String> columns;

    public ColumnStatisticsEstimator(TableStatistics statistics, List<String> columns)
    {
        this.statistics = statistics;
        this.columns = List.copyOf(columns);
    }

    /**
     * Calcite's selectivity, from column statistics for a scan of a table that has them
     * ({@link JoinRowCountEstimator#provider()} puts it before Calcite's own).
     */
    public static final class Selectivity
            extends RelMdSelectivity
    {
        @Override
        public Double getSelectivity(TableScan scan, RelMetadataQuery mq, RexNode predicate)
        {
            ColumnStatisticsEstimator estimator = of(scan);
            return estimator == null ? super.getSelectivity(scan, mq, predicate) : estimator.selectivity(predicate);
        }
    }

    /** Calcite's distinct row count, from column statistics for a scan of a table that has them. */
    public static final class DistinctRowCount
            extends RelMdDistinctRowCount
    {
        @Override
        public Double getDistinctRowCount(TableScan scan, RelMetadataQuery mq, ImmutableBitSet groupKey, RexNode predicate)
        {
            ColumnStatisticsEstimator estimator = of(scan);
            return estimator == null ? super.getDistinctRowCount(scan, mq, groupKey, predicate) : estimator.distinctRowCount(scan, mq, groupKey, predicate);
        }
    }

    /** The estimator of a scan's table, null if it is no connector's table or has no column statistics. */
    private static ColumnStatisticsEstimator of(TableScan scan)
    {
        ConnectorTable table = scan.getTable().unwrap(ConnectorTable.class);
        if (table == null || !table.handle().statistics().isKnown() || table.handle().statistics().columns().isEmpty()) {
            return null;
        }
        return new ColumnStatisticsEstimator(table.handle().statistics(), scan.getTable().getRowType().getFieldNames());
    }

    private double selectivity(RexNode predicate)
    {
        if (predicate == null || predicate.isAlwaysTrue()) {
            return 1.0;
        }
        return Math.max(NONE, conjunction(predicate));
    }

    private Double distinctRowCount(TableScan rel, RelMetadataQuery mq, ImmutableBitSet groupKey, RexNode predicate)
    {
        if (groupKey.isEmpty()) {
            return 1.0;
        }
        Double rows = mq.getRowCount(rel);
        if (rows == null) {
            return null;
        }
        double selectivity = selectivity(predicate);
        double selected = Math.max(1, rows * selectivity);
        if (rel.getTable().isKey(groupKey)) {
            return selected;
        }
        double distinct = 1;
        for (int column : groupKey) {
            ColumnStatistics values = column(column);
            if (values == null || !values.hasDistinctCount()) {
                return null;
            }
            // NULL makes a group of its own
            distinct *= values.distinctCount() + (values.hasNullFraction() && values.nullFraction() > 0 ? 1 : 0);
        }
        distinct = Math.min(distinct, rows);
        // the distinct values that the selected rows still hold, rows drawn at random
        return Math.max(1, Math.min(selected, RelMdUtil.numDistinctVals(distinct, selected)));
    }

    /**
     * The product of the conjuncts' shares, except that bounds on one column ({@code x >= 10 AND
     * x <= 20}, as BETWEEN is planned) make one range: they are not independent.
     */
    private double conjunction(RexNode predicate)
    {
        double selectivity = 1;
        java.util.Map<Integer, Range<Double>> ranges = new java.util.LinkedHashMap<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            Bound bound = bound(conjunct);
            if (bound != null) {
                ranges.merge(bound.column(), bound.range(), (a, b) -> a.isConnected(b) ? a.intersection(b) : Range.closedOpen(0.0, 0.0));
                continue;
            }
            selectivity *= predicate(conjunct);
        }
        for (java.util.Map.Entry<Integer, Range<Double>> range : ranges.entrySet()) {
            ColumnStatistics column = column(range.getKey());
            double nonNull = nonNull(column);
            selectivity *= range.getValue().isEmpty() ? NONE : nonNull * share(column, range.getValue());
        }
        return selectivity;
    }

    private record Bound(int column, Range<Double> range) {}

    /** The share of a column's rows that are not NULL; 1 when unknown. */
    private static double nonNull(ColumnStatistics column)
    {
        return column.hasNullFraction() ? 1 - column.nullFraction() : 1;
    }

    /** {@code column < constant} (and the other comparisons) on a column with a known range; null for anything else. */
    private Bound bound(RexNode node)
    {
        if (!(node instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        SqlKind kind = call.getKind();
        if (kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL && kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
            return null;
        }
        RexNode left = stripCasts(call.getOperands().get(0));
        RexNode right = stripCasts(call.getOperands().get(1));
        if (!(left instanceof RexInputRef)) {
            RexNode swap = left;
            left = right;
            right = swap;
            kind = kind.reverse();
        }
        if (!(left instanceof RexInputRef ref) || !(right instanceof RexLiteral literal) || literal.isNull()) {
            return null;
        }
        ColumnStatistics column = column(ref.getIndex());
        double value = value(literal.getValue());
        if (column == null || !column.hasRange() || Double.isNaN(value)) {
            return null;
        }
        return new Bound(ref.getIndex(), range(kind, value));
    }

    /** The values {@code column kind value} keeps ({@code kind} one of <, <=, >, >=). */
    private static Range<Double> range(SqlKind kind, double value)
    {
        return switch (kind) {
            case LESS_THAN -> Range.lessThan(value);
            case LESS_THAN_OR_EQUAL -> Range.atMost(value);
            case GREATER_THAN -> Range.greaterThan(value);
            default -> Range.atLeast(value);
        };
    }

    private double predicate(RexNode node)
    {
        if (node.isAlwaysTrue()) {
            return 1;
        }
        if (node.isAlwaysFalse()) {
            return NONE;
        }
        if (!(node instanceof RexCall call)) {
            return RelMdUtil.guessSelectivity(node);
        }
        switch (call.getKind()) {
            case AND:
                return conjunction(call);
            case OR: {
                double none = 1;
                for (RexNode operand : call.getOperands()) {
                    none *= 1 - predicate(operand);
                }
                return 1 - none;
            }
            case NOT:
                return 1 - predicate(call.getOperands().get(0));
            case IS_NULL:
            case IS_NOT_NULL: {
                ColumnStatistics column = column(call.getOperands().get(0));
                if (column == null || !column.hasNullFraction()) {
                    break;
                }
                return call.getKind() == SqlKind.IS_NULL ? column.nullFraction() : 1 - column.nullFraction();
            }
            case EQUALS:
            case NOT_EQUALS:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL: {
                Double estimate = comparison(call);
                if (estimate != null) {
                    return estimate;
                }
                break;
            }
            case LIKE:
                // a pattern keeps few of a text column's rows: a tenth (TPC-H's '%green%' keeps 5% of
                // part, 'PROMO%' a sixth), where Calcite guesses a quarter
                if (column(call.getOperands().get(0)) != null) {
                    return LIKE;
                }
                break;
            case SEARCH: {
                Double estimate = search(call);
                if (estimate != null) {
                    return estimate;
                }
                break;
            }
            default:
                break;
        }
        return RelMdUtil.guessSelectivity(node);
    }

    /** A comparison of a column with a constant or with another column of the table; null where the statistics do not say. */
    private Double comparison(RexCall call)
    {
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        SqlKind kind = call.getKind();
        if (column(left) == null && column(right) != null) {
            RexNode swap = left;
            left = right;
            right = swap;
            kind = kind.reverse();
        }
        ColumnStatistics column = column(left);
        if (column == null) {
            return null;
        }
        double nonNull = nonNull(column);
        ColumnStatistics other = column(right);
        if (other != null) {
            if (kind != SqlKind.EQUALS || !column.hasDistinctCount() || !other.hasDistinctCount()) {
                return null;
            }
            return nonNull / Math.max(1, Math.max(column.distinctCount(), other.distinctCount()));
        }
        if (!(stripCasts(right) instanceof RexLiteral literal) || literal.isNull()) {
            return null;
        }
        double value = value(literal.getValue());
        switch (kind) {
            case EQUALS:
            case NOT_EQUALS: {
                if (!column.hasDistinctCount()) {
                    return null;
                }
                double equal = column.hasRange() && !Double.isNaN(value) && (value < column.min() || value > column.max())
                        ? NONE
                        : nonNull / Math.max(1, column.distinctCount());
                return kind == SqlKind.EQUALS ? equal : nonNull - equal;
            }
            default: {
                if (!column.hasRange() || Double.isNaN(value)) {
                    return null;
                }
                return nonNull * share(column, range(kind, value));
            }
        }
    }

    /** {@code col SEARCH sarg}: IN lists, NOT IN lists, BETWEEN and unions of ranges. */
    private Double search(RexCall call)
    {
        ColumnStatistics column = column(call.getOperands().get(0));
        if (column == null || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
            return null;
        }
        Sarg<?> sarg = literal.getValueAs(Sarg.class);
        if (sarg == null) {
            return null;
        }
        double nonNull = nonNull(column);
        double nulls = sarg.nullAs == RexUnknownAs.TRUE && column.hasNullFraction() ? column.nullFraction() : 0;
        if ((sarg.isPoints() || sarg.isComplementedPoints()) && column.hasDistinctCount()) {
            // NOT IN (p1, ..., pk) is the k + 1 ranges around the points
            int points = sarg.isPoints() ? sarg.pointCount : sarg.rangeSet.asRanges().size() - 1;
            double matching = Math.min(1, points / Math.max(1, column.distinctCount()));
            return nulls + nonNull * (sarg.isPoints() ? matching : 1 - matching);
        }
        if (!column.hasRange()) {
            return null;
        }
        double share = 0;
        for (Range<?> range : sarg.rangeSet.asRanges()) {
            Range<Double> numeric = numeric(range);
            if (numeric == null) {
                return null;
            }
            share += numeric.hasLowerBound() && numeric.hasUpperBound() && numeric.lowerEndpoint().equals(numeric.upperEndpoint())
                    ? (column.hasDistinctCount() ? 1 / Math.max(1, column.distinctCount()) : 0)
                    : share(column, numeric);
        }
        return nulls + nonNull * Math.min(1, share);
    }

    /** The share of a column's range [min, max] that {@code range} covers, values spread evenly. */
    private static double share(ColumnStatistics column, Range<Double> range)
    {
        double low = range.hasLowerBound() ? Math.max(range.lowerEndpoint(), column.min()) : column.min();
        double high = range.hasUpperBound() ? Math.min(range.upperEndpoint(), column.max()) : column.max();
        if (low > high) {
            return NONE;
        }
        double width = column.max() - column.min();
        double oneValue = column.hasDistinctCount() ? 1 / Math.max(1, column.distinctCount()) : 0;
        if (width <= 0) {
            return 1;
        }
        // a range that holds some value holds at least one value's share
        return Math.min(1, Math.max(oneValue, (high - low) / width));
    }

    private static Range<Double> numeric(Range<?> range)
    {
        double low = range.hasLowerBound() ? value(range.lowerEndpoint()) : Double.NEGATIVE_INFINITY;
        double high = range.hasUpperBound() ? value(range.upperEndpoint()) : Double.POSITIVE_INFINITY;
        if (Double.isNaN(low) || Double.isNaN(high)) {
            return null;
        }
        if (!range.hasLowerBound() && !range.hasUpperBound()) {
            return Range.all();
        }
        if (!range.hasLowerBound()) {
            return Range.upTo(high, range.upperBoundType());
        }
        if (!range.hasUpperBound()) {
            return Range.downTo(low, range.lowerBoundType());
        }
        if (low > high) {
            return null;
        }
        return Range.range(low, range.lowerBoundType(), high, range.upperBoundType());
    }

    /** A constant on the scale of {@link ColumnStatistics#min()}; NaN for text and what has no such scale. */
    private static double value(Object value)
    {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof DateString date) {
            return date.getDaysSinceEpoch();
        }
        if (value instanceof TimestampString timestamp) {
            return timestamp.getMillisSinceEpoch();
        }
        if (value instanceof TimeString time) {
            return time.getMillisOfDay();
        }
        if (value instanceof Boolean bool) {
            return bool ? 1 : 0;
        }
        // text, binary: no range
        return Double.NaN;
    }

    /** The statistics of the scan's column that {@code node} reads (through casts); null if it reads none or none are known. */
    private ColumnStatistics column(RexNode node)
    {
        if (stripCasts(node) instanceof RexInputRef ref) {
            return column(ref.getIndex());
        }
        return null;
    }

    private ColumnStatistics column(int index)
    {
        if (index >= columns.size()) {
            return null;
        }
        ColumnStatistics column = statistics.column(columns.get(index));
        return column == ColumnStatistics.UNKNOWN ? null : column;
    }

    /**
     * {@code node} without the casts that keep the type's family (an INTEGER column compared as
     * DECIMAL): those keep the values' scale. A DATE cast to TIMESTAMP does not, and is kept.
     */
    private static RexNode stripCasts(RexNode node)
    {
        while (node.getKind() == SqlKind.CAST) {
            RexNode operand = ((RexCall) node).getOperands().get(0);
            if (operand.getType().getSqlTypeName().getFamily() != node.getType().getSqlTypeName().getFamily()) {
                break;
            }
            node = operand;
        }
        return node;
    }
}
