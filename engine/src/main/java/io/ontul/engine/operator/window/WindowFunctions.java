package io.ontul.engine.operator.window;

import java.util.List;

import org.apache.arrow.vector.FieldVector;

import io.ontul.engine.expression.Vectors;
import io.ontul.engine.operator.window.WindowGroup.Argument;
import io.ontul.engine.operator.window.WindowGroup.Function;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Evaluates one window function over one partition [start, end) of rows in sort order, writing
 * the value of row {@code p} at index {@code p} of the output vector (in increasing order).
 */
final class WindowFunctions
{
    /** Frames up to this size are recomputed instead of slid, to keep floating-point sums exact-ish. */
    private static final int SMALL_FRAME = 256;

    private final WindowRows rows;
    private final int start;
    private final int end;
    private final int[] peerStart;
    private final int[] peerEnd;
    private final int[] frameStart;
    private final int[] frameEnd;

    WindowFunctions(WindowRows rows, int start, int end, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd)
    {
        this.rows = rows;
        this.start = start;
        this.end = end;
        this.peerStart = peerStart;
        this.peerEnd = peerEnd;
        this.frameStart = frameStart;
        this.frameEnd = frameEnd;
    }

    static boolean usesFrame(Function function)
    {
        return switch (function.kind()) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD -> false;
            default -> true;
        };
    }

    void evaluate(Function function, FieldVector out)
    {
        List<Argument> arguments = function.arguments();
        int count = end - start;
        switch (function.kind()) {
            case ROW_NUMBER -> {
                for (int p = start; p < end; p++) {
                    WindowValues.writeLong(out, p, p - start + 1);
                }
            }
            case RANK -> {
                for (int p = start; p < end; p++) {
                    WindowValues.writeLong(out, p, peerStart[p] - start + 1);
                }
            }
            case DENSE_RANK -> {
                long rank = 0;
                for (int p = start; p < end; p++) {
                    if (peerStart[p] == p) {
                        rank++;
                    }
                    WindowValues.writeLong(out, p, rank);
                }
            }
            case PERCENT_RANK -> {
                for (int p = start; p < end; p++) {
                    WindowValues.writeDouble(out, p, count == 1 ? 0.0 : (double) (peerStart[p] - start) / (count - 1));
                }
            }
            case CUME_DIST -> {
                for (int p = start; p < end; p++) {
                    WindowValues.writeDouble(out, p, (double) (peerEnd[p] - start) / count);
                }
            }
            case NTILE -> ntile(constantLong(function, 0, 1), out);
            case LAG, LEAD -> shift(function, out);
            case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> nthValue(function, out);
            case COUNT -> count(arguments, out);
            case SUM, SUM0, AVG -> sum(function, out);
            case MIN, MAX -> minMax(arguments.get(0).column(), function.kind() == org.apache.calcite.sql.SqlKind.MAX, out);
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "Window function " + function.name() + " is not supported");
        }
    }

    private long constantLong(Function function, int index, long defaultValue)
    {
        if (function.arguments().size() <= index) {
            return defaultValue;
        }
        Argument argument = function.arguments().get(index);
        if (!argument.isConstant()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "Argument " + (index + 1) + " of " + function.name() + " must be a constant");
        }
        if (argument.constant().isNull()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Argument " + (index + 1) + " of " + function.name() + " must not be NULL");
        }
        return WindowValues.literalLong(argument.constant());
    }

    private void ntile(long buckets, FieldVector out)
    {
        if (buckets <= 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "NTILE argument must be positive");
        }
        long count = end - start;
        long size = count / buckets;
        long remainder = count % buckets;
        long large = remainder * (size + 1);
        for (int p = start; p < end; p++) {
            long index = p - start;
            long bucket = index < large ? index / (size + 1) : remainder + (index - large) / size;
            WindowValues.writeLong(out, p, bucket + 1);
        }
    }

    private void shift(Function function, FieldVector out)
    {
        int column = function.arguments().get(0).column();
        long offset = constantLong(function, 1, 1);
        if (function.kind() == org.apache.calcite.sql.SqlKind.LAG) {
            offset = -offset;
        }
        Argument fallback = function.arguments().size() > 2 ? function.arguments().get(2) : null;
        for (int p = start; p < end; p++) {
            long target = p + offset;
            if (target >= start && target < end) {
                copy(column, (int) target, out, p);
            }
            else if (fallback == null) {
                Vectors.setNullSafe(out, p);
            }
            else if (fallback.isConstant()) {
                WindowValues.writeLiteral(out, p, fallback.constant());
            }
            else {
                copy(fallback.column(), p, out, p);
            }
        }
    }

    private void nthValue(Function function, FieldVector out)
    {
        int column = function.arguments().get(0).column();
        long nth = function.kind() == org.apache.calcite.sql.SqlKind.NTH_VALUE ? constantLong(function, 1, 1) : 1;
        if (nth <= 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "NTH_VALUE position must be positive");
        }
        for (int p = start; p < end; p++) {
            long target = function.kind() == org.apache.calcite.sql.SqlKind.LAST_VALUE ? frameEnd[p] - 1L : frameStart[p] + nth - 1;
            if (frameStart[p] < frameEnd[p] && target >= frameStart[p] && target < frameEnd[p]) {
                copy(column, (int) target, out, p);
            }
            else {
                Vectors.setNullSafe(out, p);
            }
        }
    }

    private void copy(int column, int position, FieldVector out, int index)
    {
        WindowValues.copy(rows.vector(column, position), rows.row(position), out, index);
    }

    private boolean anyNull(List<Argument> arguments, int position)
    {
        for (Argument argument : arguments) {
            if (argument.isConstant() ? argument.constant().isNull() : rows.isNull(argument.column(), position)) {
                return true;
            }
        }
        return false;
    }

    private void count(List<Argument> arguments, FieldVector out)
    {
        if (arguments.isEmpty()) {
            for (int p = start; p < end; p++) {
                WindowValues.writeLong(out, p, frameEnd[p] - frameStart[p]);
            }
            return;
        }
        int low = start;
        int high = start;
        long count = 0;
        for (int p = start; p < end; p++) {
            int newLow = frameStart[p];
            int newHigh = frameEnd[p];
            if (newLow < low || newHigh < high) {
                low = newLow;
                high = newLow;
                count = 0;
            }
            for (; high < newHigh; high++) {
                count += anyNull(arguments, high) ? 0 : 1;
            }
            for (; low < newLow; low++) {
                count -= anyNull(arguments, low) ? 0 : 1;
            }
            WindowValues.writeLong(out, p, count);
        }
    }

    private void sum(Function function, FieldVector out)
    {
        int column = function.arguments().get(0).column();
        WindowSum sum = new WindowSum(function.kind(), rows.vector(column, start));
        int low = start;
        int high = start;
        for (int p = start; p < end; p++) {
            int newLow = frameStart[p];
            int newHigh = frameEnd[p];
            boolean rebuild = newLow < low || newHigh < high || (sum.floating() && newLow != low && newHigh - newLow <= SMALL_FRAME);
            if (rebuild) {
                low = newLow;
                high = newLow;
                sum.reset();
            }
            for (; high < newHigh; high++) {
                sum.add(rows.vector(column, high), rows.row(high));
            }
            for (; low < newLow; low++) {
                sum.remove(rows.vector(column, low), rows.row(low));
            }
            sum.write(out, p);
        }
    }

    private void minMax(int column, boolean max, FieldVector out)
    {
        int[] deque = new int[end - start];
        int head = 0;
        int tail = 0;
        int low = start;
        int high = start;
        for (int p = start; p < end; p++) {
            int newLow = frameStart[p];
            int newHigh = frameEnd[p];
            if (newLow < low || newHigh < high) {
                head = 0;
                tail = 0;
                high = newLow;
            }
            low = newLow;
            for (; high < newHigh; high++) {
                if (rows.isNull(column, high)) {
                    continue;
                }
                while (tail > head && worse(column, deque[tail - 1], high, max)) {
                    tail--;
                }
                if (tail == deque.length) {
                    System.arraycopy(deque, head, deque, 0, tail - head);
                    tail -= head;
                    head = 0;
                }
                deque[tail++] = high;
            }
            while (head < tail && deque[head] < low) {
                head++;
            }
            if (head < tail) {
                copy(column, deque[head], out, p);
            }
            else {
                Vectors.setNullSafe(out, p);
            }
        }
    }

    /** Whether the value at {@code kept} can never be the extreme once {@code added} is in the frame. */
    private boolean worse(int column, int kept, int added, boolean max)
    {
        int comparison = rows.compare(column, kept, added);
        return max ? comparison <= 0 : comparison >= 0;
    }
}
