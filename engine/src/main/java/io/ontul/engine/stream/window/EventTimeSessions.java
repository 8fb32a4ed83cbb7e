package io.ontul.engine.stream.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.VectorGather;
import io.ontul.engine.operator.window.SessionWindowFunction;
import io.ontul.engine.operator.window.SessionWindowOperator;
import io.ontul.engine.operator.window.WindowedRows;

/**
 * The SESSION window table function of a streaming job: holds the rows of open sessions until
 * the watermark passes their end, then hands them on with {@code window_start} and
 * {@code window_end}, as {@link SessionWindowOperator} does for a whole input.
 * <p>
 * Protocol, on the job's task thread: {@link #add} each batch (rows before the function) with the
 * watermark before it; a row that can join no open session of its key and whose own session
 * would already have ended ({@code time + gap <= watermark}) is late: dropped and counted.
 * {@link #close} with the watermark after the batch returns the rows of every session that ended
 * at or before it (session end = last time + gap) and forgets them. {@link #snapshot} returns the
 * held rows (the input's columns) for a checkpoint; {@link #add} with no watermark takes them
 * back after a restart. Rows are kept in copies of the input batches; a copy is released once
 * all of its rows went out.
 */
public final class EventTimeSessions
        implements AutoCloseable
{
    private final OperatorContext context;
    private final SessionWindowFunction function;
    private final Schema inputSchema;
    private final Schema outputSchema;
    private final long microsPerUnit;
    private final Map<Integer, Held> held = new HashMap<>();
    private int nextHeld;
    private final Map<List<Object>, TreeMap<Long, List<long[]>>> byKey = new HashMap<>();
    /** (first session's end when pushed, key): entries go stale as sessions grow and are checked when taken. */
    private final PriorityQueue<Candidate> candidates = new PriorityQueue<>((left, right) -> Long.compare(left.end(), right.end()));
    /** Per key, the earliest end it has in {@link #candidates}. */
    private final Map<List<Object>, Long> scheduled = new HashMap<>();
    private long lateRows;

    private record Candidate(long end, List<Object> key) {}

    /** A copy of input rows; {@code live} counts those not handed on yet. */
    private static final class Held
    {
        private VectorSchemaRoot rows;
        private int live;
    }

    /**
     * @param inputSchema the columns of the rows before the function
     * @param outputSchema those columns plus window_start and window_end
     * @param microsPerUnit microseconds per unit of the time column; watermarks are in microseconds
     */
    public EventTimeSessions(OperatorContext context, SessionWindowFunction function, Schema inputSchema, Schema outputSchema, long microsPerUnit)
    {
        this.context = requireNonNull(context, "context is null");
        this.function = requireNonNull(function, "function is null");
        this.inputSchema = requireNonNull(inputSchema, "inputSchema is null");
        this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
        this.microsPerUnit = microsPerUnit;
    }

    /** The columns of the rows {@link #snapshot} returns. */
    public Schema stateSchema()
    {
        return inputSchema;
    }

    public long lateRows()
    {
        return lateRows;
    }

    /** Rows held in open sessions. */
    public long heldRows()
    {
        long rows = 0;
        for (Held batch : held.values()) {
            rows += batch.live;
        }
        return rows;
    }

    /** Takes the rows of {@code batch} (the caller keeps owning it) into their keys' sessions; see the class comment for late rows. */
    public void add(VectorSchemaRoot batch, long watermark)
    {
        TimeStampVector time = (TimeStampVector) batch.getVector(function.timeColumn());
        long limit = watermark == EventTimeWindowAggregation.NO_WATERMARK ? Long.MIN_VALUE : Math.floorDiv(watermark, microsPerUnit);
        int[] keyColumns = function.keyColumns();
        int[] kept = new int[batch.getRowCount()];
        List<Object>[] keys = newKeyArray(batch.getRowCount());
        int count = 0;
        for (int row = 0; row < batch.getRowCount(); row++) {
            if (time.isNull(row)) {
                continue;
            }
            long value = time.get(row);
            Object[] key = new Object[keyColumns.length];
            for (int k = 0; k < keyColumns.length; k++) {
                key[k] = SessionWindowOperator.keyValue(batch.getVector(keyColumns[k]), row);
            }
            List<Object> keyList = Arrays.asList(key);
            if (value + function.gap() <= limit && !joinsOpenSession(keyList, value)) {
                lateRows++;
                continue;
            }
            keys[count] = keyList;
            kept[count++] = row;
        }
        if (count == 0) {
            return;
        }
        // the copy's Arrow buffers count against the job's memory through its allocator
        Held copy = new Held();
        copy.rows = gather(batch, inputSchema, kept, count);
        copy.live = count;
        int index = nextHeld++;
        held.put(index, copy);
        TimeStampVector copiedTime = (TimeStampVector) copy.rows.getVector(function.timeColumn());
        for (int row = 0; row < count; row++) {
            TreeMap<Long, List<long[]>> times = byKey.computeIfAbsent(keys[row], ignored -> new TreeMap<>());
            times.computeIfAbsent(copiedTime.get(row), ignored -> new ArrayList<>()).add(new long[] {index, row});
        }
        for (int row = 0; row < count; row++) {
            if (row == 0 || !keys[row].equals(keys[row - 1])) {
                schedule(keys[row], firstSessionEnd(byKey.get(keys[row])));
            }
        }
    }

    /** Makes sure the key is looked at once the watermark reaches {@code end}. */
    private void schedule(List<Object> key, long end)
    {
        Long earliest = scheduled.get(key);
        if (earliest == null || end < earliest) {
            scheduled.put(key, end);
            candidates.add(new Candidate(end, key));
        }
    }

    private boolean joinsOpenSession(List<Object> key, long time)
    {
        TreeMap<Long, List<long[]>> times = byKey.get(key);
        if (times == null) {
            return false;
        }
        Long before = times.floorKey(time);
        Long after = times.ceilingKey(time);
        return (before != null && time - before < function.gap()) || (after != null && after - time < function.gap());
    }

    /** The end of the earliest session of these times: the first time whose successor is at least a gap away, plus the gap. */
    private long firstSessionEnd(TreeMap<Long, List<long[]>> times)
    {
        Long previous = null;
        for (Long time : times.keySet()) {
            if (previous != null && time - previous >= function.gap()) {
                break;
            }
            previous = time;
        }
        return previous + function.gap();
    }

    /** The rows (with window_start and window_end) of every session ending at or before {@code watermark}; the caller owns the batches. */
    public List<VectorSchemaRoot> close(long watermark)
    {
        if (watermark == EventTimeWindowAggregation.NO_WATERMARK) {
            return List.of();
        }
        long limit = Math.floorDiv(watermark, microsPerUnit);
        // per held batch: rows going out with their session's start and end
        Map<Integer, List<long[]>> closing = new HashMap<>();
        while (!candidates.isEmpty() && candidates.peek().end() <= limit) {
            Candidate candidate = candidates.poll();
            if (scheduled.getOrDefault(candidate.key(), Long.MIN_VALUE) == candidate.end()) {
                scheduled.remove(candidate.key());
            }
            TreeMap<Long, List<long[]>> times = byKey.get(candidate.key());
            if (times == null) {
                continue;
            }
            while (!times.isEmpty()) {
                long end = firstSessionEnd(times);
                if (end > limit) {
                    schedule(candidate.key(), end);
                    break;
                }
                long start = times.firstKey();
                while (!times.isEmpty() && times.firstKey() < end) {
                    for (long[] reference : times.pollFirstEntry().getValue()) {
                        closing.computeIfAbsent((int) reference[0], ignored -> new ArrayList<>()).add(new long[] {reference[1], start, end});
                    }
                }
            }
            if (times.isEmpty()) {
                byKey.remove(candidate.key());
            }
        }
        List<VectorSchemaRoot> outputs = new ArrayList<>();
        try {
            for (Map.Entry<Integer, List<long[]>> entry : closing.entrySet()) {
                outputs.add(withWindows(entry.getKey(), entry.getValue()));
            }
        }
        catch (RuntimeException e) {
            Batches.closeAll(outputs);
            throw e;
        }
        return outputs;
    }

    private VectorSchemaRoot withWindows(int index, List<long[]> rows)
    {
        Held source = held.get(index);
        int count = rows.size();
        int[] positions = new int[count];
        long[] starts = new long[count];
        long[] ends = new long[count];
        for (int i = 0; i < count; i++) {
            positions[i] = (int) rows.get(i)[0];
            starts[i] = rows.get(i)[1];
            ends[i] = rows.get(i)[2];
        }
        VectorSchemaRoot output = WindowedRows.of(source.rows, positions, starts, ends, count, outputSchema, context.allocator());
        source.live -= count;
        if (source.live == 0) {
            release(source);
            held.remove(index);
        }
        return output;
    }

    /** The held rows, for a checkpoint; the caller owns the batches. */
    public List<VectorSchemaRoot> snapshot()
    {
        Map<Integer, List<Integer>> live = new TreeMap<>();
        for (TreeMap<Long, List<long[]>> times : byKey.values()) {
            for (List<long[]> references : times.values()) {
                for (long[] reference : references) {
                    live.computeIfAbsent((int) reference[0], ignored -> new ArrayList<>()).add((int) reference[1]);
                }
            }
        }
        List<VectorSchemaRoot> state = new ArrayList<>();
        try {
            for (Map.Entry<Integer, List<Integer>> entry : live.entrySet()) {
                int[] rows = entry.getValue().stream().mapToInt(Integer::intValue).toArray();
                state.add(gather(held.get(entry.getKey()).rows, inputSchema, rows, rows.length));
            }
        }
        catch (RuntimeException e) {
            Batches.closeAll(state);
            throw e;
        }
        return state;
    }

    private VectorSchemaRoot gather(VectorSchemaRoot batch, Schema schema, int[] rows, int count)
    {
        FieldVector[] vectors = Batches.allocate(schema, context.allocator(), count);
        try {
            for (int c = 0; c < vectors.length; c++) {
                VectorGather.gather(batch.getVector(c), rows, count, vectors[c]);
            }
        }
        catch (RuntimeException e) {
            for (FieldVector vector : vectors) {
                vector.close();
            }
            throw e;
        }
        return Batches.root(schema, vectors, count);
    }

    private void release(Held batch)
    {
        if (batch.rows != null) {
            batch.rows.close();
            batch.rows = null;
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object>[] newKeyArray(int size)
    {
        return new List[size];
    }

    @Override
    public void close()
    {
        held.values().forEach(this::release);
        held.clear();
        byKey.clear();
        candidates.clear();
        scheduled.clear();
    }
}
