package io.ontul.engine.operator.window;

import java.math.BigDecimal;

import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeFamily;

import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.window.WindowGroup.Bound;
import io.ontul.engine.operator.window.WindowGroup.BoundType;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Computes the frame [start, end) of every row of a partition, as positions in sort order.
 * For every supported frame, start and end never decrease from one row to the next.
 */
final class WindowFrames
{
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private WindowFrames() {}

    static void compute(WindowGroup group, WindowRows rows, int start, int end, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd)
    {
        RangeKeys keys = null;
        if (!group.rows() && (isOffset(group.lower()) || isOffset(group.upper()))) {
            keys = new RangeKeys(group, rows, start, end);
        }
        for (int p = start; p < end; p++) {
            int low = group.rows() ? rowsLower(group.lower(), p, start, end) : rangeLower(group.lower(), p, start, end, peerStart, keys);
            int high = group.rows() ? rowsUpper(group.upper(), p, start, end) : rangeUpper(group.upper(), p, start, end, peerEnd, keys);
            frameStart[p] = low;
            frameEnd[p] = Math.max(low, high);
        }
    }

    private static boolean isOffset(Bound bound)
    {
        return bound.type() == BoundType.PRECEDING || bound.type() == BoundType.FOLLOWING;
    }

    private static int clamp(long value, int start, int end)
    {
        return (int) Math.max(start, Math.min(end, value));
    }

    private static long rowOffset(Bound bound)
    {
        long offset = WindowValues.literalLong(bound.offset());
        if (offset < 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Window frame offset must not be negative: " + offset);
        }
        return offset;
    }

    private static int rowsLower(Bound bound, int p, int start, int end)
    {
        return switch (bound.type()) {
            case UNBOUNDED_PRECEDING -> start;
            case PRECEDING -> clamp(p - rowOffset(bound), start, end);
            case CURRENT_ROW -> p;
            case FOLLOWING -> clamp(p + rowOffset(bound), start, end);
            case UNBOUNDED_FOLLOWING -> end;
        };
    }

    private static int rowsUpper(Bound bound, int p, int start, int end)
    {
        return switch (bound.type()) {
            case UNBOUNDED_PRECEDING -> start;
            case PRECEDING -> clamp(p - rowOffset(bound) + 1, start, end);
            case CURRENT_ROW -> p + 1;
            case FOLLOWING -> clamp(p + rowOffset(bound) + 1, start, end);
            case UNBOUNDED_FOLLOWING -> end;
        };
    }

    private static int rangeLower(Bound bound, int p, int start, int end, int[] peerStart, RangeKeys keys)
    {
        return switch (bound.type()) {
            case UNBOUNDED_PRECEDING -> start;
            case CURRENT_ROW -> peerStart[p];
            case PRECEDING, FOLLOWING -> keys.isNull(p) ? peerStart[p] : keys.firstAtLeast(p, bound, false);
            case UNBOUNDED_FOLLOWING -> end;
        };
    }

    private static int rangeUpper(Bound bound, int p, int start, int end, int[] peerEnd, RangeKeys keys)
    {
        return switch (bound.type()) {
            case UNBOUNDED_PRECEDING -> start;
            case CURRENT_ROW -> peerEnd[p];
            case PRECEDING, FOLLOWING -> keys.isNull(p) ? peerEnd[p] : keys.firstAtLeast(p, bound, true);
            case UNBOUNDED_FOLLOWING -> end;
        };
    }

    /**
     * The ORDER BY key of a partition for RANGE frames with offsets, as values that increase
     * with position (negated for descending order). NULL keys sit at one end of the partition.
     */
    private static final class RangeKeys
    {
        private final boolean floating;
        private final long[] longs;
        private final double[] doubles;
        private final boolean[] nulls;
        private final int start;
        private final int nonNullStart;
        private final int nonNullEnd;
        private final int sign;
        private final FieldVector sample;

        RangeKeys(WindowGroup group, WindowRows rows, int start, int end)
        {
            if (group.orderKeys().size() != 1) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "RANGE with an offset requires exactly one ORDER BY key");
            }
            SortKey key = group.orderKeys().get(0);
            this.start = start;
            this.sign = key.descending() ? -1 : 1;
            int count = end - start;
            this.sample = rows.vector(key.column(), start);
            this.floating = WindowValues.isFloating(sample);
            this.longs = floating ? null : new long[count];
            this.doubles = floating ? new double[count] : null;
            this.nulls = new boolean[count];
            int firstNonNull = end;
            int lastNonNull = start - 1;
            for (int p = start; p < end; p++) {
                FieldVector vector = rows.vector(key.column(), p);
                int row = rows.row(p);
                if (vector.isNull(row)) {
                    nulls[p - start] = true;
                    continue;
                }
                firstNonNull = Math.min(firstNonNull, p);
                lastNonNull = p;
                if (floating) {
                    doubles[p - start] = sign * Columns.getDouble(vector, row);
                }
                else {
                    longs[p - start] = sign * Columns.getLong(vector, row);
                }
            }
            this.nonNullStart = firstNonNull;
            this.nonNullEnd = Math.max(firstNonNull, lastNonNull + 1);
        }

        boolean isNull(int p)
        {
            return nulls[p - start];
        }

        /**
         * First position whose key is at least the bound's target (or, when {@code strict},
         * greater than it): the frame start for a lower bound, the exclusive frame end for an
         * upper bound.
         */
        int firstAtLeast(int p, Bound bound, boolean strict)
        {
            boolean preceding = bound.type() == BoundType.PRECEDING;
            int low = nonNullStart;
            int high = nonNullEnd;
            if (floating) {
                double offset = bound.offset().getValueAs(BigDecimal.class).doubleValue();
                double target = doubles[p - start] + (preceding ? -offset : offset);
                while (low < high) {
                    int middle = (low + high) >>> 1;
                    double value = doubles[middle - start];
                    if (strict ? value <= target : value < target) {
                        low = middle + 1;
                    }
                    else {
                        high = middle;
                    }
                }
                return low;
            }
            long offset = offsetUnits(bound.offset());
            long current = longs[p - start];
            long target = preceding ? saturatedSubtract(current, offset) : saturatedAdd(current, offset);
            while (low < high) {
                int middle = (low + high) >>> 1;
                long value = longs[middle - start];
                if (strict ? value <= target : value < target) {
                    low = middle + 1;
                }
                else {
                    high = middle;
                }
            }
            return low;
        }

        private long offsetUnits(RexLiteral offset)
        {
            SqlTypeFamily family = offset.getType().getSqlTypeName().getFamily();
            BigDecimal value = offset.getValueAs(BigDecimal.class);
            if (value.signum() < 0) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Window frame offset must not be negative: " + value);
            }
            if (family == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "RANGE frames with year-month intervals are not supported");
            }
            if (family == SqlTypeFamily.INTERVAL_DAY_TIME) {
                long millis = value.longValue();
                if (sample instanceof DateDayVector) {
                    return millis / MILLIS_PER_DAY;
                }
                if (sample instanceof TimeStampMicroVector || sample instanceof org.apache.arrow.vector.TimeStampMicroTZVector) {
                    return millis * 1000;
                }
                return millis;
            }
            if (sample instanceof DecimalVector decimal) {
                return value.movePointRight(decimal.getScale()).longValue();
            }
            return value.longValue();
        }

        private static long saturatedAdd(long a, long b)
        {
            long result = a + b;
            return ((a ^ result) & (b ^ result)) < 0 ? Long.MAX_VALUE : result;
        }

        private static long saturatedSubtract(long a, long b)
        {
            long result = a - b;
            return ((a ^ b) & (a ^ result)) < 0 ? Long.MIN_VALUE : result;
        }
    }
}
