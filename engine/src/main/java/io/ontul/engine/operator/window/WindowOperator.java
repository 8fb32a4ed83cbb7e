package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.spi.DataSize;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.sort.SortOperator;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Window functions (OVER): collects all input rows and evaluates every window group over them
 * ({@link WindowPartitionEvaluation}). Emits the input columns followed by one column per
 * function, in the sort order of the last group.
 *
 * <p>When its memory pool asks it to spill ({@link io.ontul.engine.memory.MemoryReservation#shouldSpill}) and the window groups
 * share a PARTITION BY column, the rows held so far and all rows still to come are written to
 * spill runs in hash partitions of the shared columns ({@link SpillingWindowPartitions}); at the
 * end each hash partition is read back and evaluated on its own. A window partition never spans
 * two hash partitions, so the results are exact; the rows then come out one hash partition after
 * the other, each in the sort order of the last group.
 *
 * <p>Windows whose functions can be computed in one pass over sorted rows
 * ({@link StreamedWindowEvaluation#canEvaluate}: ranking, LAG, LEAD, running aggregates) are
 * computed that way: their input is sorted by a {@link SortOperator} (which spills when memory
 * runs short) and streamed through {@link StreamedWindowEvaluation}, which holds only rows whose
 * values are not final yet. That is faster than sorting row addresses and computing frames, and
 * needs no window partition in memory. Such a window with a shared PARTITION BY that runs short
 * of memory while its input is collected is hash-partitioned as above, and a hash partition too
 * large for memory (one PARTITION BY value) is then sorted and streamed. Other windows fail with
 * an error that says why when they cannot be split or a window partition does not fit.
 */
public final class WindowOperator
        implements Operator
{
    /** Result vectors (values, validity, offsets) per row and function, roughly. */
    private static final long BYTES_PER_ROW_PER_FUNCTION = 16;

    private final OperatorContext context;
    private final MemoryReservation memory;
    private final Operator child;
    private final Schema schema;
    private final Schema inputSchema;
    private final int inputColumns;
    private final List<WindowGroup> groups;
    private final OperatorStats stats;
    private final int[] sharedPartitionColumns;
    private final long overheadPerRow;
    private final boolean streamable;
    private final List<VectorSchemaRoot> held = new ArrayList<>();
    private long heldBytes;
    private long heldRows;
    private boolean collected;
    private boolean childDone;
    private SpillingWindowPartitions spilled;
    private WindowPartitionEvaluation current;
    // the spilled partition current evaluates; null while it evaluates rows that never spilled
    private SpillingWindowPartitions.Partition currentPartition;
    // rows sorted and streamed: all input, or one spilled partition (then deleted once streamed)
    private Operator streamed;
    private SpillingWindowPartitions.Partition streamedPartition;

    public WindowOperator(OperatorContext context, Operator child, Schema schema, int inputColumns, List<WindowGroup> groups)
    {
        this(context, child, schema, inputColumns, groups, new OperatorStats());
    }

    public WindowOperator(OperatorContext context, Operator child, Schema schema, int inputColumns, List<WindowGroup> groups, OperatorStats stats)
    {
        this.context = requireNonNull(context, "context is null");
        this.child = requireNonNull(child, "child is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.inputSchema = new Schema(schema.getFields().subList(0, inputColumns));
        this.inputColumns = inputColumns;
        this.groups = List.copyOf(groups);
        this.stats = requireNonNull(stats, "stats is null");
        this.sharedPartitionColumns = sharedPartitionColumns(this.groups);
        this.streamable = StreamedWindowEvaluation.canEvaluate(this.groups);
        // rows sharing no PARTITION BY column that cannot stream either can only be evaluated in memory
        this.memory = context.memoryReservation("Window", sharedPartitionColumns.length > 0 || streamable);
        memory.setMinimumSpill(context.memoryLimit() / 8);
        long functions = this.groups.stream().mapToLong(group -> group.functions().size()).sum();
        this.overheadPerRow = WindowPartitionEvaluation.BYTES_PER_ROW
                + this.groups.size() * WindowPartitionEvaluation.BYTES_PER_ROW_PER_GROUP
                + functions * BYTES_PER_ROW_PER_FUNCTION;
    }

    /** The columns every group partitions by: rows equal on them share every window partition. */
    private static int[] sharedPartitionColumns(List<WindowGroup> groups)
    {
        Set<Integer> shared = null;
        for (WindowGroup group : groups) {
            Set<Integer> columns = new LinkedHashSet<>();
            for (int column : group.partitionColumns()) {
                columns.add(column);
            }
            if (shared == null) {
                shared = columns;
            }
            else {
                shared.retainAll(columns);
            }
        }
        return shared == null ? new int[0] : shared.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (!collected) {
            collect();
            collected = true;
        }
        while (true) {
            if (current != null) {
                VectorSchemaRoot batch = nextEvaluated();
                if (batch != null) {
                    return batch;
                }
                if (current != null) {
                    current.close();
                    current = null;
                }
                currentPartition = null;
            }
            if (streamed != null) {
                VectorSchemaRoot batch = streamed.next();
                if (batch != null) {
                    return batch;
                }
                closeStreamed();
                if (streamedPartition != null) {
                    spilled.done(streamedPartition);
                    streamedPartition = null;
                }
            }
            if (spilled == null || !evaluateNextSpilledPartition()) {
                return null;
            }
        }
    }

    private void collect()
    {
        try {
            VectorSchemaRoot batch;
            while ((batch = child.next()) != null) {
                if (batch.getRowCount() == 0) {
                    batch.close();
                    continue;
                }
                hold(batch);
                context.checkCancelled();
                memory.setHeld(heldBytes);
                if (heldBytes > context.memoryLimit() / 8 && memory.shouldSpill()) {
                    if (canSpill()) {
                        spillHeld();
                    }
                    else if (canSortAndStream()) {
                        sortAndStream();
                        return;
                    }
                }
            }
            childDone = true;
            // the input is in: the pool asks others from here on
            memory.setSpillable(false);
            if (spilled == null && canSpill() && !fitsInMemory()) {
                spillHeld();
            }
            else if (spilled == null && streamable && (StreamedWindowEvaluation.prefersStreaming(groups) || (context.canSpill() && !fitsInMemory()))) {
                // one pass over sorted rows beats sorting row addresses and computing frames, and holds less;
                // for frames over whole partitions it does not, but still runs when they do not fit
                sortAndStream();
                return;
            }
            if (spilled != null) {
                if (!held.isEmpty()) {
                    spillHeld();
                }
                return;
            }
            stats.recordMemory(heldBytes + heldRows * overheadPerRow);
            current = new WindowPartitionEvaluation(context, memory, schema, inputColumns, groups, held);
            held.clear();
            try {
                current.compute();
            }
            catch (RuntimeException e) {
                streamInsteadOf(e);
            }
        }
        catch (RuntimeException e) {
            if (sharedPartitionColumns.length == 0 && heldBytes > context.memoryLimit() / 4 && SpillingWindowPartitions.isMemoryFailure(e)) {
                throw cannotSpill(e);
            }
            throw e;
        }
    }

    private void hold(VectorSchemaRoot batch)
    {
        held.add(batch);
        heldRows += batch.getRowCount();
        for (FieldVector vector : batch.getFieldVectors()) {
            heldBytes += vector.getBufferSize();
        }
    }

    private boolean canSpill()
    {
        return sharedPartitionColumns.length > 0 && context.canSpill();
    }

    /** Whether the input, not splittable by a PARTITION BY column, may be sorted (spilling) and streamed instead. */
    private boolean canSortAndStream()
    {
        return streamable && context.canSpill();
    }

    /** Sorts the rows held and the rest of the input, spilling as needed, and streams them through the functions. */
    private void sortAndStream()
    {
        // the rows held go to the sort, which reserves for itself from here on
        memory.setSpillable(false);
        memory.setHeld(0);
        stats.recordMemory(heldBytes);
        Operator input = new Operator()
        {
            @Override
            public VectorSchemaRoot next()
            {
                if (!held.isEmpty()) {
                    return held.remove(0);
                }
                return childDone ? null : child.next();
            }

            @Override
            public void close()
            {
                // the rows still held and the child are closed with the window operator
            }
        };
        streamed = sortedStream(input);
    }

    private Operator sortedStream(Operator input)
    {
        List<SortKey> keys = StreamedWindowEvaluation.sortKeys(groups);
        // without PARTITION BY and ORDER BY, every row is a peer of every other, in any order
        Operator sorted = keys.isEmpty() ? input : new SortOperator(context, input, inputSchema, keys, 0, Long.MAX_VALUE, stats);
        return new StreamedWindowEvaluation(context, schema, inputColumns, groups, sorted, stats);
    }

    /** Streams a spilled partition too large for memory; its runs are deleted once it is streamed. */
    private void streamPartition(SpillingWindowPartitions.Partition partition)
    {
        streamedPartition = partition;
        streamed = sortedStream(spilled.stream(partition));
    }

    private void closeStreamed()
    {
        if (streamed != null) {
            streamed.close();
            streamed = null;
        }
    }

    /** Whether evaluating the rows held, and emitting a batch of results, fits in the memory left. */
    private boolean fitsInMemory()
    {
        long rowBytes = heldRows == 0 ? 0 : heldBytes / heldRows;
        long needed = heldRows * overheadPerRow + Math.min(heldRows, Batches.TARGET_ROWS) * rowBytes;
        return needed <= context.memoryLimit() - context.memoryUsed();
    }

    private void spillHeld()
    {
        if (spilled == null) {
            spilled = new SpillingWindowPartitions(context, inputSchema, sharedPartitionColumns, overheadPerRow, streamable, stats);
        }
        stats.recordMemory(heldBytes);
        spilled.spill(held);
        heldBytes = 0;
        memory.setHeld(0);
        heldRows = 0;
    }

    /** Reads back and evaluates the next spilled hash partition; false when there is none left. */
    private boolean evaluateNextSpilledPartition()
    {
        while (true) {
            SpillingWindowPartitions.Loaded loaded;
            try {
                loaded = spilled.next();
            }
            catch (RuntimeException e) {
                if (SpillingWindowPartitions.isMemoryFailure(e) && spilled.taken() != null && !spilled.taken().splittable()) {
                    if (streamable) {
                        streamPartition(spilled.taken());
                        return true;
                    }
                    throw partitionTooLarge(spilled.taken(), e);
                }
                throw e;
            }
            if (loaded == null) {
                return false;
            }
            if (loaded.unread()) {
                streamPartition(loaded.partition());
                return true;
            }
            WindowPartitionEvaluation evaluation = new WindowPartitionEvaluation(context, memory, schema, inputColumns, groups, loaded.batches());
            try {
                evaluation.compute();
            }
            catch (RuntimeException e) {
                evaluation.close();
                if (!SpillingWindowPartitions.isMemoryFailure(e)) {
                    throw e;
                }
                if (spilled.split(loaded)) {
                    continue;
                }
                if (streamable) {
                    streamPartition(loaded.partition());
                    return true;
                }
                throw partitionTooLarge(loaded.partition(), e);
            }
            spilled.done(loaded);
            current = evaluation;
            currentPartition = loaded.partition();
            return true;
        }
    }

    /**
     * The next output batch of the partition evaluated: a spilled partition of one key that was
     * loaded and computed may still leave no room for its output, which fails as a partition too
     * large.
     */
    private VectorSchemaRoot nextEvaluated()
    {
        try {
            return current.next();
        }
        catch (RuntimeException e) {
            if (currentPartition != null && currentPartition.singleKey() && SpillingWindowPartitions.isMemoryFailure(e)) {
                throw partitionTooLarge(currentPartition, e);
            }
            if (currentPartition == null && !current.emitted()) {
                streamInsteadOf(e);
                return null;
            }
            throw e;
        }
    }

    /**
     * The input, all held in memory and evaluated there ({@link #current}: aggregates over whole
     * partitions that {@link #fitsInMemory} only estimated to fit), ran out of memory before any
     * row was emitted: sorts and streams it instead when the window can be streamed, else
     * rethrows {@code failure}.
     */
    private void streamInsteadOf(RuntimeException failure)
    {
        if (!streamable || !context.canSpill() || !SpillingWindowPartitions.isMemoryFailure(failure)) {
            throw failure;
        }
        held.addAll(current.releaseInput());
        current = null;
        sortAndStream();
    }

    /** Which windows could have spilled, when this one could not although the query may spill. */
    private String streamingHint()
    {
        return context.canSpill() && !streamable ? "; " + StreamedWindowEvaluation.WHAT_STREAMS : "";
    }

    private OntulException cannotSpill(RuntimeException cause)
    {
        String reason = groups.stream().allMatch(group -> group.partitionColumns().length == 0)
                ? "window functions without PARTITION BY"
                : "window functions whose windows share no PARTITION BY column";
        OntulException error = new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "Query exceeded per-query memory limit of " + DataSize.format(context.memoryLimit())
                + ": " + reason + " keep all their input rows in memory (" + heldRows + " rows held) and cannot spill" + streamingHint()
                + " (add PARTITION BY, or raise the limit with SET SESSION query_max_memory = '...')");
        error.addSuppressed(cause);
        return error;
    }

    private OntulException partitionTooLarge(SpillingWindowPartitions.Partition partition, RuntimeException cause)
    {
        List<String> names = new ArrayList<>();
        for (int column : sharedPartitionColumns) {
            names.add(schema.getFields().get(column).getName());
        }
        String what = partition.singleKey()
                ? "the " + partition.rows() + " rows of one PARTITION BY " + String.join(", ", names) + " value do not fit"
                : "the " + partition.rows() + " rows of PARTITION BY " + String.join(", ", names) + " values that share a hash do not fit even after splitting them "
                        + (WindowPartitionHash.MAX_LEVEL + 1) + " times";
        OntulException error = new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "Query exceeded per-query memory limit of " + DataSize.format(context.memoryLimit())
                + ": window functions evaluate each window partition in memory, and " + what + streamingHint()
                + " (raise the limit with SET SESSION query_max_memory = '...')");
        error.addSuppressed(cause);
        return error;
    }

    @Override
    public void close()
    {
        try (child) {
            try {
                Batches.closeAll(held);
                held.clear();
            }
            finally {
                try {
                    if (current != null) {
                        current.close();
                        current = null;
                    }
                    closeStreamed();
                }
                finally {
                    try {
                        if (spilled != null) {
                            spilled.close();
                        }
                    }
                    finally {
                        memory.close();
                    }
                }
            }
        }
    }
}
