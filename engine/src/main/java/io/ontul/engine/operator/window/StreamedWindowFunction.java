package io.ontul.engine.operator.window;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.calcite.sql.SqlKind;

import io.ontul.engine.expression.Vectors;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.window.StreamedWindowEvaluation.Pending;
import io.ontul.engine.operator.window.WindowGroup.Argument;
import io.ontul.engine.operator.window.WindowGroup.BoundType;
import io.ontul.engine.operator.window.WindowGroup.Function;

/**
 * One window function's state across a {@link StreamedWindowEvaluation} pass over sorted rows.
 * Protocol: the pass calls {@link #startPartition} before a partition's first row, {@link #add}
 * for every row in order (the function writes the row's value into its result column then, or
 * later: LEAD once the row it takes its value from arrives, RANGE frames once the peer group
 * ends, frames over the whole partition once it ends), {@link #endPeers} and
 * {@link #endPartition} when those end, and {@link #close} at the end. {@link #firstUnfinished}
 * says which rows the function may still write, {@link #lookBack} how far back a later row may
 * read: the pass holds those rows' batches. A function that {@link #defers} gives every row of a
 * peer group or partition one value, written when the group ends through {@link Pass#fill}, so
 * the pass may write those rows out to a spill run meanwhile and fill them in when it reads them
 * back.
 */
abstract class StreamedWindowFunction
        implements AutoCloseable
{
    /** The largest LAG or LEAD offset evaluated in a pass: rows within it are held. */
    static final long MAX_OFFSET = 1_000_000;

    /** What a function sees of the pass. */
    interface Pass
    {
        /** The global index of the current partition's first row. */
        long partitionStart();

        /** The global index of the current peer group's first row. */
        long peerStart();

        /** The held batch with row {@code global}, which must be in memory (not written out). */
        Pending locate(long global);

        /** Gives rows [from, end), in memory or written out, the current value of {@code function}. */
        void fill(long from, long end, Running function);

        BufferAllocator allocator();
    }

    final int output;
    final Pass pass;

    StreamedWindowFunction(int output, Pass pass)
    {
        this.output = output;
        this.pass = pass;
    }

    /** Which rows an aggregate's frame spans, when it starts at the partition's first row. */
    enum Frame
    {
        /** ROWS to the current row: the value is final as the row is added. */
        ROWS,
        /** RANGE to the current row: to its last peer (every row of the partition without ORDER BY). */
        PEERS,
        /** To UNBOUNDED FOLLOWING: the whole partition. */
        PARTITION;

        /** The frame of {@code group}, or null when it does not start UNBOUNDED PRECEDING and end at the current row or the partition's end. */
        static Frame of(WindowGroup group)
        {
            if (group.lower().type() != BoundType.UNBOUNDED_PRECEDING) {
                return null;
            }
            return switch (group.upper().type()) {
                case CURRENT_ROW -> group.rows() ? ROWS : PEERS;
                case UNBOUNDED_FOLLOWING -> PARTITION;
                default -> null;
            };
        }
    }

    /** Whether {@code function} of {@code group} can be computed in one pass over sorted rows. */
    static boolean canEvaluate(WindowGroup group, Function function)
    {
        List<Argument> arguments = function.arguments();
        return switch (function.kind()) {
            case ROW_NUMBER, RANK, DENSE_RANK -> true;
            case LAG, LEAD -> !arguments.isEmpty() && !arguments.get(0).isConstant() && (arguments.size() < 2 || constantOffset(arguments.get(1)) >= 0);
            case COUNT -> Frame.of(group) != null;
            case SUM, SUM0, AVG, MIN, MAX, FIRST_VALUE, LAST_VALUE -> Frame.of(group) != null && !arguments.isEmpty() && !arguments.get(0).isConstant();
            default -> false;
        };
    }

    /** A LAG or LEAD offset, or -1 when it is not a constant in [0, MAX_OFFSET]. */
    private static long constantOffset(Argument argument)
    {
        if (!argument.isConstant() || argument.constant().isNull()) {
            return -1;
        }
        long offset = WindowValues.literalLong(argument.constant());
        return offset <= MAX_OFFSET ? offset : -1;
    }

    /**
     * The function (one that {@link #canEvaluate}) writing result column {@code output}.
     *
     * @param frame its group's frame ({@link Frame#of}; ignored by ranking, LAG and LEAD)
     */
    static StreamedWindowFunction of(Function function, int output, Frame frame, Pass pass)
    {
        List<Argument> arguments = function.arguments();
        return switch (function.kind()) {
            case ROW_NUMBER -> new Ranking(output, pass, Ranking.Kind.ROW_NUMBER);
            case RANK -> new Ranking(output, pass, Ranking.Kind.RANK);
            case DENSE_RANK -> new Ranking(output, pass, Ranking.Kind.DENSE_RANK);
            case LAG, LEAD -> new Shift(output, pass, function.kind() == SqlKind.LEAD, arguments.get(0).column(), arguments.size() < 2 ? 1 : constantOffset(arguments.get(1)),
                    arguments.size() > 2 ? arguments.get(2) : null);
            case COUNT, SUM, SUM0, AVG -> new RunningSum(output, pass, frame, function.kind(), arguments);
            case MIN, MAX -> new RunningExtreme(output, pass, frame, arguments.get(0).column(), function.kind() == SqlKind.MAX);
            // the partition's first row is in every frame that starts UNBOUNDED PRECEDING
            case FIRST_VALUE -> new FirstValue(output, pass, arguments.get(0).column());
            case LAST_VALUE -> new LastValue(output, pass, frame, arguments.get(0).column());
            default -> throw new IllegalArgumentException("not computed in one pass: " + function);
        };
    }

    FieldVector out(Pending batch)
    {
        return batch.result(output);
    }

    /** A new partition starts at the next row added. */
    void startPartition() {}

    /** Row {@code global}, at {@code row} of {@code batch}, follows; {@code newPeers} when it starts a peer group. */
    abstract void add(Pending batch, int row, long global, boolean newPeers);

    /** Rows [from, end) were one peer group. */
    void endPeers(long from, long end) {}

    /** Rows [from, end) were one partition. */
    void endPartition(long from, long end) {}

    /** The first row whose value may still change (Long.MAX_VALUE when none may). */
    long firstUnfinished()
    {
        return Long.MAX_VALUE;
    }

    /** How many rows back a later row may read. */
    long lookBack()
    {
        return 0;
    }

    /** Whether the rows this function has not finished all get one value, written through {@link Pass#fill}. */
    boolean defers()
    {
        return false;
    }

    @Override
    public void close() {}

    static final class Ranking
            extends StreamedWindowFunction
    {
        enum Kind { ROW_NUMBER, RANK, DENSE_RANK }

        private final Kind kind;
        private long denseRank;

        Ranking(int output, Pass pass, Kind kind)
        {
            super(output, pass);
            this.kind = kind;
        }

        @Override
        void startPartition()
        {
            denseRank = 0;
        }

        @Override
        void add(Pending batch, int row, long global, boolean newPeers)
        {
            if (newPeers) {
                denseRank++;
            }
            long value = switch (kind) {
                case ROW_NUMBER -> global - pass.partitionStart() + 1;
                case RANK -> pass.peerStart() - pass.partitionStart() + 1;
                case DENSE_RANK -> denseRank;
            };
            WindowValues.writeLong(out(batch), row, value);
        }
    }

    /** LAG reads the row {@code offset} back; LEAD's value of a row is written when the row {@code offset} ahead arrives, or the default at the partition's end. */
    static final class Shift
            extends StreamedWindowFunction
    {
        private final boolean lead;
        private final int column;
        private final long offset;
        private final Argument fallback;
        private long awaiting;

        Shift(int output, Pass pass, boolean lead, int column, long offset, Argument fallback)
        {
            super(output, pass);
            this.lead = lead;
            this.column = column;
            this.offset = offset;
            this.fallback = fallback;
            this.awaiting = Long.MAX_VALUE;
        }

        @Override
        void add(Pending batch, int row, long global, boolean newPeers)
        {
            long target = global - offset;
            if (!lead) {
                if (target >= pass.partitionStart()) {
                    Pending source = pass.locate(target);
                    WindowValues.copy(source.input().getVector(column), source.row(target), out(batch), row);
                }
                else {
                    writeFallback(batch, row);
                }
                return;
            }
            if (target >= pass.partitionStart()) {
                Pending receiver = pass.locate(target);
                WindowValues.copy(batch.input().getVector(column), row, out(receiver), receiver.row(target));
            }
            awaiting = Math.max(pass.partitionStart(), global + 1 - offset);
        }

        @Override
        void endPartition(long from, long end)
        {
            if (lead) {
                for (long global = Math.max(from, end - offset); global < end; global++) {
                    Pending batch = pass.locate(global);
                    writeFallback(batch, batch.row(global));
                }
                awaiting = Long.MAX_VALUE;
            }
        }

        private void writeFallback(Pending batch, int row)
        {
            if (fallback == null) {
                Vectors.setNullSafe(out(batch), row);
            }
            else if (fallback.isConstant()) {
                WindowValues.writeLiteral(out(batch), row, fallback.constant());
            }
            else {
                WindowValues.copy(batch.input().getVector(fallback.column()), row, out(batch), row);
            }
        }

        @Override
        long firstUnfinished()
        {
            return lead ? awaiting : Long.MAX_VALUE;
        }

        @Override
        long lookBack()
        {
            return lead ? 0 : offset;
        }
    }

    /**
     * A running aggregate: over ROWS frames each row's value is written as it is added; over
     * RANGE frames every row of a peer group gets the value after its last row, and over frames
     * to UNBOUNDED FOLLOWING every row of a partition the value after its last row, written
     * once the group ends (in row order, as variable-width vectors need).
     */
    abstract static class Running
            extends StreamedWindowFunction
    {
        private final Frame frame;

        Running(int output, Pass pass, Frame frame)
        {
            super(output, pass);
            this.frame = frame;
        }

        /** Adds the row's value to the aggregate. */
        abstract void update(Pending batch, int row);

        /** Writes the aggregate's current value. */
        abstract void write(FieldVector out, int index);

        @Override
        final void add(Pending batch, int row, long global, boolean newPeers)
        {
            update(batch, row);
            if (frame == Frame.ROWS) {
                write(out(batch), row);
            }
        }

        @Override
        final void endPeers(long from, long end)
        {
            if (frame == Frame.PEERS) {
                pass.fill(from, end, this);
            }
        }

        @Override
        final void endPartition(long from, long end)
        {
            if (frame == Frame.PARTITION) {
                pass.fill(from, end, this);
            }
        }

        @Override
        final long firstUnfinished()
        {
            return switch (frame) {
                case ROWS -> Long.MAX_VALUE;
                case PEERS -> pass.peerStart();
                case PARTITION -> pass.partitionStart();
            };
        }

        @Override
        final boolean defers()
        {
            return frame != Frame.ROWS;
        }
    }

    static final class RunningSum
            extends Running
    {
        private final SqlKind kind;
        private final List<Argument> arguments;
        // made at the first row, from its argument vector's type; null for COUNT
        private WindowSum sum;
        private long count;

        RunningSum(int output, Pass pass, Frame frame, SqlKind kind, List<Argument> arguments)
        {
            super(output, pass, frame);
            this.kind = kind;
            this.arguments = arguments;
        }

        @Override
        void startPartition()
        {
            count = 0;
            if (sum != null) {
                sum.reset();
            }
        }

        @Override
        void update(Pending batch, int row)
        {
            if (kind == SqlKind.COUNT) {
                if (!anyNull(batch, row)) {
                    count++;
                }
                return;
            }
            FieldVector vector = batch.input().getVector(arguments.get(0).column());
            if (sum == null) {
                sum = new WindowSum(kind, vector);
            }
            sum.add(vector, row);
        }

        @Override
        void write(FieldVector out, int index)
        {
            if (kind == SqlKind.COUNT) {
                WindowValues.writeLong(out, index, count);
            }
            else {
                sum.write(out, index);
            }
        }

        private boolean anyNull(Pending batch, int row)
        {
            for (Argument argument : arguments) {
                if (argument.isConstant() ? argument.constant().isNull() : batch.input().getVector(argument.column()).isNull(row)) {
                    return true;
                }
            }
            return false;
        }
    }

    static final class RunningExtreme
            extends Running
    {
        private final int column;
        private final boolean max;
        private FieldVector best;
        private boolean found;

        RunningExtreme(int output, Pass pass, Frame frame, int column, boolean max)
        {
            super(output, pass, frame);
            this.column = column;
            this.max = max;
        }

        @Override
        void startPartition()
        {
            found = false;
        }

        @Override
        void update(Pending batch, int row)
        {
            FieldVector vector = batch.input().getVector(column);
            if (vector.isNull(row)) {
                return;
            }
            if (best == null) {
                best = vector.getField().createVector(pass.allocator());
            }
            int comparison = found ? Columns.compare(vector, row, best, 0) : 0;
            if (!found || (max ? comparison > 0 : comparison < 0)) {
                best.copyFromSafe(row, 0, vector);
                found = true;
            }
        }

        @Override
        void write(FieldVector out, int index)
        {
            if (found) {
                WindowValues.copy(best, 0, out, index);
            }
            else {
                Vectors.setNullSafe(out, index);
            }
        }

        @Override
        public void close()
        {
            if (best != null) {
                best.close();
            }
        }
    }

    /** The value of the frame's last row, NULL included: the current row (ROWS), its last peer, or the partition's last row. */
    static final class LastValue
            extends Running
    {
        private final int column;
        private FieldVector last;

        LastValue(int output, Pass pass, Frame frame, int column)
        {
            super(output, pass, frame);
            this.column = column;
        }

        @Override
        void update(Pending batch, int row)
        {
            FieldVector vector = batch.input().getVector(column);
            if (last == null) {
                last = vector.getField().createVector(pass.allocator());
            }
            last.copyFromSafe(row, 0, vector);
        }

        @Override
        void write(FieldVector out, int index)
        {
            WindowValues.copy(last, 0, out, index);
        }

        @Override
        public void close()
        {
            if (last != null) {
                last.close();
            }
        }
    }

    /** The partition's first row is in every frame that starts UNBOUNDED PRECEDING. */
    static final class FirstValue
            extends StreamedWindowFunction
    {
        private final int column;
        private FieldVector first;
        private boolean taken;

        FirstValue(int output, Pass pass, int column)
        {
            super(output, pass);
            this.column = column;
        }

        @Override
        void startPartition()
        {
            taken = false;
        }

        @Override
        void add(Pending batch, int row, long global, boolean newPeers)
        {
            FieldVector vector = batch.input().getVector(column);
            if (!taken) {
                if (first == null) {
                    first = vector.getField().createVector(pass.allocator());
                }
                first.copyFromSafe(row, 0, vector);
                taken = true;
            }
            WindowValues.copy(first, 0, out(batch), row);
        }

        @Override
        public void close()
        {
            if (first != null) {
                first.close();
            }
        }
    }
}
