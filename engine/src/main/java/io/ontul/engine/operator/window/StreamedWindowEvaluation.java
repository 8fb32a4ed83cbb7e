package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.spi.DataSize;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.engine.operator.sort.RowComparator;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.sort.SortOperator;
import io.ontul.engine.operator.window.WindowGroup.Function;
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
 * and a bounded number after it, or is one value for a whole peer group or partition
 * ({@link StreamedWindowFunction#canEvaluate}): ROW_NUMBER, RANK, DENSE_RANK, LAG and LEAD with
 * a constant offset, and COUNT, SUM, SUM0, AVG, MIN, MAX, FIRST_VALUE and LAST_VALUE over frames
 * from UNBOUNDED PRECEDING to CURRENT ROW (ROWS, or RANGE: the value of a row's last peer) or to
 * UNBOUNDED FOLLOWING (the value of the partition's last row). This class finds the partitions
 * and peer groups and holds the batches; each function keeps its own state.
 * <p>
 * Protocol: made over an operator that yields the input rows sorted by {@link #sortKeys} (a
 * {@link SortOperator}, which spills); {@link #next} until null returns the input columns
 * followed by one column per function, in that sort order; {@link #close} closes the input and
 * whatever is held. A batch is held only until its values are final: until the peer group or
 * partition it ends in is complete (frames to the current peer or the partition's end), the rows
 * LEAD takes values from have arrived, and no later row reads it (LAG). When the query's memory
 * runs short (its memory pool asks it to spill, {@link MemoryReservation#shouldSpill}), the held batches that only wait for a peer
 * group or partition to end are written to a spill run ({@link SpilledRows}) as they are; once
 * the group ends, every such row gets the group's one value as it is read back. Rows within a
 * LAG or LEAD offset stay in memory: an offset too large for memory fails with an error that
 * says so.
 */
final class StreamedWindowEvaluation
        implements Operator
{
    /** Which windows are computed over sorted rows, for error messages. */
    static final String WHAT_STREAMS = "only windows whose functions are ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD (offsets up to 1000000), or COUNT, SUM, AVG, MIN, MAX, FIRST_VALUE and LAST_VALUE"
            + " over frames from UNBOUNDED PRECEDING to CURRENT ROW or to UNBOUNDED FOLLOWING, all with one PARTITION BY and ORDER BY, are computed over sorted rows, which spill";

    private final OperatorContext context;
    private final MemoryReservation memory;
    private final Schema schema;
    private final int inputColumns;
    private final Operator input;
    private final List<SortKey> partitionKeys;
    private final OperatorStats stats;
    private final List<StreamedWindowFunction> steps = new ArrayList<>();
    // rows written out while they waited for a group to end: all before the batches held in memory
    private final Deque<SpilledRows> spilled = new ArrayDeque<>();
    private final Deque<Pending> pending = new ArrayDeque<>();
    // the spilled rows being emitted, once final
    private SpilledRows.Reader emitting;
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
    // what the functions see of the pass
    private final StreamedWindowFunction.Pass pass = new StreamedWindowFunction.Pass()
    {
        @Override
        public long partitionStart()
        {
            return partitionStart;
        }

        @Override
        public long peerStart()
        {
            return peerStart;
        }

        @Override
        public Pending locate(long global)
        {
            return StreamedWindowEvaluation.this.locate(global);
        }

        @Override
        public void fill(long from, long end, StreamedWindowFunction.Running function)
        {
            StreamedWindowEvaluation.this.fill(from, end, function);
        }

        @Override
        public BufferAllocator allocator()
        {
            return context.allocator();
        }
    };

    StreamedWindowEvaluation(OperatorContext context, Schema schema, int inputColumns, List<WindowGroup> groups, Operator sortedInput, OperatorStats stats)
    {
        if (!canEvaluate(groups)) {
            throw new IllegalArgumentException("window cannot be computed in one pass: " + groups);
        }
        this.context = requireNonNull(context, "context is null");
        this.memory = context.memoryReservation("Window (streamed)", true);
        memory.setMinimumSpill(context.memoryLimit() / 8);
        this.schema = requireNonNull(schema, "schema is null");
        this.inputColumns = inputColumns;
        this.input = requireNonNull(sortedInput, "sortedInput is null");
        this.stats = requireNonNull(stats, "stats is null");
        this.partitionKeys = partitionKeys(groups.get(0));
        this.partitionComparator = new RowComparator(compared, partitionKeys);
        this.orderComparator = new RowComparator(compared, groups.get(0).orderKeys());
        int output = 0;
        long maxOffset = 0;
        for (WindowGroup group : groups) {
            StreamedWindowFunction.Frame frame = StreamedWindowFunction.Frame.of(group);
            for (Function function : group.functions()) {
                StreamedWindowFunction step = StreamedWindowFunction.of(function, output++, frame, pass);
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
                if (!StreamedWindowFunction.canEvaluate(group, function)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether, for windows that {@link #canEvaluate}, sorting and one pass beat evaluating window
     * partitions in memory when they fit: not when a frame spans the whole partition, which
     * {@link WindowPartitionEvaluation} computes once per partition without sorting all rows.
     */
    static boolean prefersStreaming(List<WindowGroup> groups)
    {
        for (WindowGroup group : groups) {
            if (StreamedWindowFunction.Frame.of(group) == StreamedWindowFunction.Frame.PARTITION && hasAggregate(group)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasAggregate(WindowGroup group)
    {
        for (Function function : group.functions()) {
            switch (function.kind()) {
                case COUNT, SUM, SUM0, AVG, MIN, MAX, LAST_VALUE -> {
                    return true;
                }
                default -> { }
            }
        }
        return false;
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

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            if (emitting != null) {
                VectorSchemaRoot batch = emitting.next();
                if (batch != null) {
                    return batch;
                }
                emitting = null;
                try {
                    spilled.peekFirst().close();
                }
                finally {
                    spilled.pollFirst();
                }
                continue;
            }
            if (!spilled.isEmpty()) {
                if (inputDone || isFinal(spilled.peekFirst().end())) {
                    emitting = spilled.peekFirst().read(context.allocator());
                    continue;
                }
            }
            else if (!pending.isEmpty() && (inputDone || isFinal(pending.peekFirst().end()))) {
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
            memory.setHeld(pendingBytes());
            if (memory.shouldSpill()) {
                spillWaitingRows();
            }
            context.checkCancelled();
        }
    }

    private long pendingBytes()
    {
        long bytes = 0;
        for (Pending batch : pending) {
            bytes += batch.bytes();
        }
        return bytes;
    }

    /** Whether the values of the rows before {@code end} can change no more and no later row reads them. */
    private boolean isFinal(long end)
    {
        // later rows read back (LAG) only within their partition, which starts at partitionStart or after
        if (end > Math.max(nextRow - lookBack, partitionStart)) {
            return false;
        }
        for (StreamedWindowFunction step : steps) {
            if (end > step.firstUnfinished()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes out the held batches, oldest first, whose rows only wait for a peer group or
     * partition to end (no later row reads them, and only functions that {@link
     * StreamedWindowFunction#defers} may still write them), once they hold an eighth of the
     * query's memory: fewer would make many small runs. Batches ahead of them that are final
     * are emitted first, so that written-out rows always come before the rows in memory.
     */
    private void spillWaitingRows()
    {
        if (pending.isEmpty() || isFinal(pending.peekFirst().end())) {
            return;
        }
        long bound = Math.max(nextRow - lookBack, partitionStart);
        for (StreamedWindowFunction step : steps) {
            if (!step.defers()) {
                bound = Math.min(bound, step.firstUnfinished());
            }
        }
        long bytes = 0;
        int batches = 0;
        for (Pending batch : pending) {
            if (batch.end() > bound) {
                break;
            }
            bytes += batch.bytes();
            batches++;
        }
        if (batches == 0 || bytes < context.memoryLimit() / 8) {
            return;
        }
        SpilledRows rows = SpilledRows.write(context, schema, inputColumns, steps.size(), pending.peekFirst().first, batches, this::takeFirst);
        spilled.addLast(rows);
        stats.recordSpill(rows.bytes());
    }

    /** Removes the oldest held batch, as an output batch of its input columns and results so far. */
    private VectorSchemaRoot takeFirst()
    {
        return emit(pending.pollFirst());
    }

    /** Writes {@code function}'s current value for rows [from, end): into the batches in memory, and as the value spilled rows take when read back. */
    private void fill(long from, long end, StreamedWindowFunction.Running function)
    {
        for (SpilledRows rows : spilled) {
            if (rows.end() > from && rows.first() < end) {
                rows.fill(function, Math.max(from, rows.first()), end);
            }
        }
        for (Pending batch : pending) {
            if (batch.end() <= from) {
                continue;
            }
            if (batch.first >= end) {
                break;
            }
            FieldVector out = function.out(batch);
            for (long global = Math.max(from, batch.first); global < Math.min(end, batch.end()); global++) {
                function.write(out, batch.row(global));
            }
        }
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
                steps.forEach(StreamedWindowFunction::startPartition);
            }
            if (newPeers) {
                peerStart = global;
            }
            for (StreamedWindowFunction step : steps) {
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
        for (StreamedWindowFunction step : steps) {
            step.endPeers(peerStart, end);
        }
    }

    /** The partition that started at {@link #partitionStart} ends before row {@code end}. */
    private void endPartition(long end)
    {
        for (StreamedWindowFunction step : steps) {
            step.endPartition(partitionStart, end);
        }
    }

    /** The held batch with row {@code global}. */
    Pending locate(long global)
    {
        Iterator<Pending> newestFirst = pending.descendingIterator();
        while (newestFirst.hasNext()) {
            Pending batch = newestFirst.next();
            if (global >= batch.first) {
                return batch;
            }
        }
        throw new IllegalStateException("row " + global + " is not held in memory");
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
                + ": window functions computed over sorted rows hold in memory the rows whose values are not final yet (the rows within a LAG or LEAD offset,"
                + " and those waiting for their peer group or partition to end until they are written out), and the " + rows
                + " rows held do not fit (raise the limit with SET SESSION query_max_memory = '...')");
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
            try {
                if (emitting != null) {
                    emitting.close();
                    emitting = null;
                }
            }
            finally {
                Batches.closeAll(spilled);
                spilled.clear();
            }
        }
        finally {
            memory.close();
            steps.forEach(StreamedWindowFunction::close);
            if (previous != null) {
                previous.close();
            }
        }
    }

    /** A sorted input batch and its function results, held until they are final. */
    static final class Pending
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

        /** The global index after the batch's last row. */
        long end()
        {
            return first + rows;
        }

        /** Bytes of the batch's input and results. */
        long bytes()
        {
            long bytes = Batches.bytes(input);
            for (FieldVector result : results) {
                bytes += result.getBufferSize();
            }
            return bytes;
        }

        VectorSchemaRoot input()
        {
            return input;
        }

        /** The result column of function {@code output}. */
        FieldVector result(int output)
        {
            return results[output];
        }
    }
}
