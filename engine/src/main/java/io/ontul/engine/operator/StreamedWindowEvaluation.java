package io.ontul.engine.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.sql.SqlKind;

import io.ontul.engine.execution.QueryContext;
import io.ontul.engine.memory.DataSize;
import io.ontul.engine.operator.WindowGroup.Argument;
import io.ontul.engine.operator.WindowGroup.BoundType;
import io.ontul.engine.operator.WindowGroup.Function;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Window functions computed in one pass over rows sorted by the window's partition and order
 * keys, so that a window partition need not fit in memory: what
 * {@link WindowPartitionEvaluation} cannot do with one partition larger than memory, or with
 * no PARTITION BY at all.
 * <p>
 * Only windows that {@link #canEvaluate} qualify: every group has the same PARTITION BY and
 * ORDER BY (one sort serves all), and each function's value at a row depends on rows before it
 * and a bounded number after it: ROW_NUMBER, RANK, DENSE_RANK, LAG and LEAD with a constant
 * offset, and COUNT, SUM, SUM0, AVG, MIN, MAX and FIRST_VALUE over frames from UNBOUNDED
 * PRECEDING to CURRENT ROW (ROWS, or RANGE with an ORDER BY: the value of a row's last peer).
 * <p>
 * Protocol: made over an operator that yields the input rows sorted by {@link #sortKeys} (a
 * {@link SortOperator}, which spills); {@link #next} until null returns the input columns
 * followed by one column per function, in that sort order; {@link #close} closes the input and
 * whatever is held. A batch is held only until its values are final: until the peer group it
 * ends in is complete (RANGE frames), the rows LEAD takes values from have arrived, and no later
 * row reads it (LAG). A peer group or an offset too large for memory fails with an error that
 * says so.
 */
final class StreamedWindowEvaluation
        implements Operator
{
    /** Which windows are computed over sorted rows, for error messages. */
    static final String WHAT_STREAMS = "only windows whose functions are ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD (offsets up to 1000000), or COUNT, SUM, AVG, MIN, MAX and FIRST_VALUE"
            + " over frames from UNBOUNDED PRECEDING to CURRENT ROW, all with one PARTITION BY and ORDER BY, are computed over sorted rows, which spill";

    /** The largest LAG or LEAD offset evaluated in a pass: rows within it are held. */
    static final long MAX_OFFSET = 1_000_000;

    private final QueryContext context;
    private final Schema schema;
    private final int inputColumns;
    private final Operator input;
    private final List<SortKey> partitionKeys;
    private final List<Step> steps = new ArrayList<>();
    private final Deque<Pending> pending = new ArrayDeque<>();
    // the previous row's batch and the current row's batch, for the comparators
    private final List<VectorSchemaRoot> compared = Arrays.asList(null, null);
    private final RowComparator partitionComparator;
    private final RowComparator orderComparator;
    private final long lookBack;
    private long nextRow;
    private long partitionStart;
    private long peerStart;
    private VectorSchemaRoot previous;
    private boolean inputDone;

    StreamedWindowEvaluation(QueryContext context, Schema schema, int inputColumns, List<WindowGroup> groups, Operator sortedInput)
    {
        if (!canEvaluate(groups)) {
            throw new IllegalArgumentException("window cannot be computed in one pass: " + groups);
        }
        this.context = requireNonNull(context, "context is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.inputColumns = inputColumns;
        this.input = requireNonNull(sortedInput, "sortedInput is null");
        this.partitionKeys = partitionKeys(groups.get(0));
        this.partitionComparator = new RowComparator(compared, partitionKeys);
        this.orderComparator = new RowComparator(compared, groups.get(0).orderKeys());
        int output = 0;
        long maxOffset = 0;
        for (WindowGroup group : groups) {
            boolean range = !group.rows();
            for (Function function : group.functions()) {
                Step step = step(function, output++, range);
                steps.add(step);
                maxOffset = Math.max(maxOffset, step.lookBack());
            }
        }
        this.lookBack = maxOffset;
    }

    /** Whether every group shares one sort order and each of its functions can be computed in one pass over it. */
    static boolean canEvaluate(List<WindowGroup> groups)
    {
        if (groups.isEmpty()) {
            return false;
        }
        WindowGroup first = groups.get(0);
        for (WindowGroup group : groups) {
            if (!columns(group).equals(columns(first)) || !group.orderKeys().equals(first.orderKeys())) {
                return false;
            }
            for (Function function : group.functions()) {
                if (!canEvaluate(group, function)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean canEvaluate(WindowGroup group, Function function)
    {
        List<Argument> arguments = function.arguments();
        return switch (function.kind()) {
            case ROW_NUMBER, RANK, DENSE_RANK -> true;
            case LAG, LEAD -> !arguments.isEmpty() && !arguments.get(0).isConstant() && (arguments.size() < 2 || constantOffset(arguments.get(1)) >= 0);
            case COUNT -> runningFrame(group);
            case SUM, SUM0, AVG, MIN, MAX, FIRST_VALUE -> runningFrame(group) && !arguments.isEmpty() && !arguments.get(0).isConstant();
            default -> false;
        };
    }

    /** A frame from the partition's first row to the current row (to its last peer for RANGE, which needs an ORDER BY to have peers at all). */
    private static boolean runningFrame(WindowGroup group)
    {
        return group.lower().type() == BoundType.UNBOUNDED_PRECEDING && group.upper().type() == BoundType.CURRENT_ROW && (group.rows() || !group.orderKeys().isEmpty());
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

    private static Set<Integer> columns(WindowGroup group)
    {
        Set<Integer> columns = new HashSet<>();
        for (int column : group.partitionColumns()) {
            columns.add(column);
        }
        return columns;
    }

    private static List<SortKey> partitionKeys(WindowGroup group)
    {
        List<SortKey> keys = new ArrayList<>();
        for (int column : group.partitionColumns()) {
            keys.add(new SortKey(column, false, false));
        }
        return keys;
    }

    /** The order the input must come in: partition columns, then the ORDER BY keys. */
    static List<SortKey> sortKeys(List<WindowGroup> groups)
    {
        List<SortKey> keys = new ArrayList<>(partitionKeys(groups.get(0)));
        keys.addAll(groups.get(0).orderKeys());
        return keys;
    }

    private Step step(Function function, int output, boolean range)
    {
        List<Argument> arguments = function.arguments();
        return switch (function.kind()) {
            case ROW_NUMBER -> new Ranking(output, Ranking.Kind.ROW_NUMBER);
            case RANK -> new Ranking(output, Ranking.Kind.RANK);
            case DENSE_RANK -> new Ranking(output, Ranking.Kind.DENSE_RANK);
            case LAG, LEAD -> new Shift(output, function.kind() == SqlKind.LEAD, arguments.get(0).column(), arguments.size() < 2 ? 1 : constantOffset(arguments.get(1)),
                    arguments.size() > 2 ? arguments.get(2) : null);
            case COUNT, SUM, SUM0, AVG -> new RunningSum(output, range, function.kind(), arguments);
            case MIN, MAX -> new RunningExtreme(output, range, arguments.get(0).column(), function.kind() == SqlKind.MAX);
            case FIRST_VALUE -> new FirstValue(output, arguments.get(0).column());
            default -> throw new IllegalArgumentException("not computed in one pass: " + function);
        };
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            if (!pending.isEmpty() && (inputDone || isFinal(pending.peekFirst()))) {
                return emit(pending.pollFirst());
            }
            if (inputDone) {
                return null;
            }
            VectorSchemaRoot batch;
            try {
                batch = input.next();
            }
            catch (RuntimeException e) {
                if (SpillingWindowPartitions.isMemoryFailure(e) && !pending.isEmpty()) {
                    throw tooManyRowsHeld(e);
                }
                throw e;
            }
            if (batch == null) {
                inputDone = true;
                if (nextRow > 0) {
                    endPeers(nextRow);
                    endPartition(nextRow);
                }
                continue;
            }
            if (batch.getRowCount() == 0) {
                batch.close();
                continue;
            }
            try {
                add(batch);
            }
            catch (RuntimeException e) {
                if (SpillingWindowPartitions.isMemoryFailure(e)) {
                    throw tooManyRowsHeld(e);
                }
                throw e;
            }
            context.checkCancelled();
        }
    }

    /** Whether the values of a batch can change no more and no later row reads it. */
    private boolean isFinal(Pending batch)
    {
        long end = batch.first + batch.rows;
        if (end > nextRow - lookBack) {
            return false;
        }
        for (Step step : steps) {
            if (end > step.firstUnfinished()) {
                return false;
            }
        }
        return true;
    }

    private void add(VectorSchemaRoot batch)
    {
        Pending added;
        try {
            added = new Pending(batch, nextRow, allocateResults(batch.getRowCount()));
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
        pending.addLast(added);
        compared.set(1, batch);
        for (int row = 0; row < added.rows; row++) {
            long global = nextRow;
            boolean newPartition = true;
            boolean newPeers = true;
            if (global > 0) {
                // the previous row: in this batch, or the copy kept of the previous batch's last row
                compared.set(0, row == 0 ? previous : batch);
                int previousRow = row == 0 ? 0 : row - 1;
                newPartition = !partitionKeys.isEmpty() && partitionComparator.compare(0, previousRow, 1, row) != 0;
                newPeers = newPartition || orderComparator.compare(0, previousRow, 1, row) != 0;
                if (newPeers) {
                    endPeers(global);
                }
                if (newPartition) {
                    endPartition(global);
                }
            }
            if (newPartition) {
                partitionStart = global;
                steps.forEach(Step::startPartition);
            }
            if (newPeers) {
                peerStart = global;
            }
            for (Step step : steps) {
                step.add(added, row, global, newPeers);
            }
            nextRow++;
        }
        keepLastRow(batch);
    }

    /** Copies the batch's last row, which the next batch's first row is compared with, so the batch itself need not be held. */
    private void keepLastRow(VectorSchemaRoot batch)
    {
        if (previous == null) {
            previous = VectorSchemaRoot.create(batch.getSchema(), context.allocator());
        }
        int row = batch.getRowCount() - 1;
        for (int c = 0; c < batch.getFieldVectors().size(); c++) {
            previous.getVector(c).copyFromSafe(row, 0, batch.getVector(c));
        }
        previous.setRowCount(1);
    }

    private FieldVector[] allocateResults(int rows)
    {
        FieldVector[] results = new FieldVector[steps.size()];
        try {
            for (int f = 0; f < results.length; f++) {
                results[f] = schema.getFields().get(inputColumns + f).createVector(context.allocator());
                Batches.allocate(results[f], rows);
            }
        }
        catch (RuntimeException e) {
            for (FieldVector result : results) {
                if (result != null) {
                    result.close();
                }
            }
            throw e;
        }
        return results;
    }

    /** The peer group that started at {@link #peerStart} ends before row {@code end}. */
    private void endPeers(long end)
    {
        for (Step step : steps) {
            step.endPeers(peerStart, end);
        }
    }

    /** The partition that started at {@link #partitionStart} ends before row {@code end}. */
    private void endPartition(long end)
    {
        for (Step step : steps) {
            step.endPartition(partitionStart, end);
        }
    }

    /** The held batch with row {@code global}. */
    private Pending locate(long global)
    {
        Iterator<Pending> newestFirst = pending.descendingIterator();
        while (newestFirst.hasNext()) {
            Pending batch = newestFirst.next();
            if (global >= batch.first) {
                return batch;
            }
        }
        throw new IllegalStateException("row " + global + " is no longer held");
    }

    private VectorSchemaRoot emit(Pending batch)
    {
        FieldVector[] vectors = new FieldVector[inputColumns + batch.results.length];
        for (int c = 0; c < inputColumns; c++) {
            vectors[c] = batch.input.getVector(c);
        }
        System.arraycopy(batch.results, 0, vectors, inputColumns, batch.results.length);
        // the input batch's vectors move into the result
        return Batches.root(schema, vectors, batch.rows);
    }

    private OntulException tooManyRowsHeld(RuntimeException cause)
    {
        long rows = 0;
        for (Pending batch : pending) {
            rows += batch.rows;
        }
        OntulException error = new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "Query exceeded per-query memory limit of " + DataSize.format(context.memoryLimit())
                + ": window functions computed over sorted rows hold the rows whose values are not final yet (rows equal in ORDER BY, for RANGE frames,"
                + " and the rows within a LAG or LEAD offset), and the " + rows + " rows held do not fit (raise the limit with SET SESSION query_max_memory = '...')");
        error.addSuppressed(cause);
        return error;
    }

    @Override
    public void close()
    {
        try (input) {
            for (Pending batch : pending) {
                batch.input.close();
                Batches.closeAll(Arrays.asList(batch.results));
            }
            pending.clear();
        }
        finally {
            steps.forEach(Step::close);
            if (previous != null) {
                previous.close();
            }
        }
    }

    /** A sorted input batch and its function results, held until they are final. */
    private static final class Pending
    {
        private final VectorSchemaRoot input;
        private final long first;
        private final int rows;
        private final FieldVector[] results;

        Pending(VectorSchemaRoot input, long first, FieldVector[] results)
        {
            this.input = input;
            this.first = first;
            this.rows = input.getRowCount();
            this.results = results;
        }

        int row(long global)
        {
            return (int) (global - first);
        }
    }

    /** One function's state across the pass; writes its value of each row into its result column. */
    private abstract class Step
            implements AutoCloseable
    {
        final int output;

        Step(int output)
        {
            this.output = output;
        }

        FieldVector out(Pending batch)
        {
            return batch.results[output];
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

        @Override
        public void close() {}
    }

    private final class Ranking
            extends Step
    {
        enum Kind { ROW_NUMBER, RANK, DENSE_RANK }

        private final Kind kind;
        private long denseRank;

        Ranking(int output, Kind kind)
        {
            super(output);
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
                case ROW_NUMBER -> global - partitionStart + 1;
                case RANK -> peerStart - partitionStart + 1;
                case DENSE_RANK -> denseRank;
            };
            WindowValues.writeLong(out(batch), row, value);
        }
    }

    /** LAG reads the row {@code offset} back; LEAD's value of a row is written when the row {@code offset} ahead arrives, or the default at the partition's end. */
    private final class Shift
            extends Step
    {
        private final boolean lead;
        private final int column;
        private final long offset;
        private final Argument fallback;
        private long awaiting;

        Shift(int output, boolean lead, int column, long offset, Argument fallback)
        {
            super(output);
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
                if (target >= partitionStart) {
                    Pending source = locate(target);
                    WindowValues.copy(source.input.getVector(column), source.row(target), out(batch), row);
                }
                else {
                    writeFallback(batch, row);
                }
                return;
            }
            if (target >= partitionStart) {
                Pending receiver = locate(target);
                WindowValues.copy(batch.input.getVector(column), row, out(receiver), receiver.row(target));
            }
            awaiting = Math.max(partitionStart, global + 1 - offset);
        }

        @Override
        void endPartition(long from, long end)
        {
            if (lead) {
                for (long global = Math.max(from, end - offset); global < end; global++) {
                    Pending batch = locate(global);
                    writeFallback(batch, batch.row(global));
                }
                awaiting = Long.MAX_VALUE;
            }
        }

        private void writeFallback(Pending batch, int row)
        {
            if (fallback == null) {
                WindowValues.setNull(out(batch), row);
            }
            else if (fallback.isConstant()) {
                WindowValues.writeLiteral(out(batch), row, fallback.constant());
            }
            else {
                WindowValues.copy(batch.input.getVector(fallback.column()), row, out(batch), row);
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
     * RANGE frames every row of a peer group gets the value after its last row, written once
     * the group ends (in row order, as variable-width vectors need).
     */
    private abstract class Running
            extends Step
    {
        private final boolean range;

        Running(int output, boolean range)
        {
            super(output);
            this.range = range;
        }

        /** Adds the row's value to the aggregate. */
        abstract void update(Pending batch, int row);

        /** Writes the aggregate's current value. */
        abstract void write(FieldVector out, int index);

        @Override
        final void add(Pending batch, int row, long global, boolean newPeers)
        {
            update(batch, row);
            if (!range) {
                write(out(batch), row);
            }
        }

        @Override
        void endPeers(long from, long end)
        {
            if (!range) {
                return;
            }
            for (long global = from; global < end; global++) {
                Pending batch = locate(global);
                write(out(batch), batch.row(global));
            }
        }

        @Override
        long firstUnfinished()
        {
            return range ? peerStart : Long.MAX_VALUE;
        }
    }

    private final class RunningSum
            extends Running
    {
        private final SqlKind kind;
        private final List<Argument> arguments;
        // made at the first row, from its argument vector's type; null for COUNT
        private WindowSum sum;
        private long count;

        RunningSum(int output, boolean range, SqlKind kind, List<Argument> arguments)
        {
            super(output, range);
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
            FieldVector vector = batch.input.getVector(arguments.get(0).column());
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
                if (argument.isConstant() ? argument.constant().isNull() : batch.input.getVector(argument.column()).isNull(row)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final class RunningExtreme
            extends Running
    {
        private final int column;
        private final boolean max;
        private FieldVector best;
        private boolean found;

        RunningExtreme(int output, boolean range, int column, boolean max)
        {
            super(output, range);
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
            FieldVector vector = batch.input.getVector(column);
            if (vector.isNull(row)) {
                return;
            }
            if (best == null) {
                best = vector.getField().createVector(context.allocator());
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
                WindowValues.setNull(out, index);
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

    /** The partition's first row is in every frame that starts UNBOUNDED PRECEDING. */
    private final class FirstValue
            extends Step
    {
        private final int column;
        private FieldVector first;
        private boolean taken;

        FirstValue(int output, int column)
        {
            super(output);
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
            FieldVector vector = batch.input.getVector(column);
            if (!taken) {
                if (first == null) {
                    first = vector.getField().createVector(context.allocator());
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
