package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;


/**
 * The SESSION window table function over a whole input: reads every batch (held in Arrow memory,
 * counted against the query's budget; it does not spill), finds each key's sessions by sorting its times,
 * then returns the input batches in their order with {@code window_start} and {@code window_end}
 * appended. Rows whose time is NULL belong to no session and are dropped.
 */
public final class SessionWindowOperator
        implements Operator
{
    private final OperatorContext context;
    private final Operator child;
    private final SessionWindowFunction function;
    private final Schema outputSchema;
    private final List<VectorSchemaRoot> input = new ArrayList<>();
    private long[][] starts;
    private long[][] ends;
    private int emitted = -1;

    public SessionWindowOperator(OperatorContext context, Operator child, SessionWindowFunction function, Schema outputSchema)
    {
        this.context = requireNonNull(context, "context is null");
        this.child = requireNonNull(child, "child is null");
        this.function = requireNonNull(function, "function is null");
        this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (emitted < 0) {
            readInput();
            assignSessions();
            emitted = 0;
        }
        while (emitted < input.size()) {
            int index = emitted++;
            try (VectorSchemaRoot batch = input.get(index)) {
                input.set(index, null);
                VectorSchemaRoot output = withWindows(batch, starts[index], ends[index]);
                if (output.getRowCount() > 0) {
                    return output;
                }
                output.close();
            }
        }
        return null;
    }

    /** Keeps every input batch; their Arrow buffers count against the query's memory through its allocator. */
    private void readInput()
    {
        for (VectorSchemaRoot batch = child.next(); batch != null; batch = child.next()) {
            input.add(batch);
            context.checkCancelled();
        }
    }

    /** A key column's value, comparable by {@code equals} (binary values as byte buffers). */
    public static Object keyValue(FieldVector vector, int row)
    {
        Object value = vector.getObject(row);
        return value instanceof byte[] bytes ? java.nio.ByteBuffer.wrap(bytes) : value;
    }

    /** Per key, sorts the rows by time and cuts sessions where the gap to the previous row is at least the gap. */
    private void assignSessions()
    {
        Map<List<Object>, List<long[]>> byKey = new HashMap<>();
        starts = new long[input.size()][];
        ends = new long[input.size()][];
        for (int b = 0; b < input.size(); b++) {
            VectorSchemaRoot batch = input.get(b);
            starts[b] = new long[batch.getRowCount()];
            ends[b] = new long[batch.getRowCount()];
            TimeStampVector time = (TimeStampVector) batch.getVector(function.timeColumn());
            int[] keyColumns = function.keyColumns();
            for (int row = 0; row < batch.getRowCount(); row++) {
                if (time.isNull(row)) {
                    continue;
                }
                Object[] key = new Object[keyColumns.length];
                for (int k = 0; k < keyColumns.length; k++) {
                    key[k] = keyValue(batch.getVector(keyColumns[k]), row);
                }
                byKey.computeIfAbsent(Arrays.asList(key), ignored -> new ArrayList<>()).add(new long[] {time.get(row), b, row});
            }
        }
        for (List<long[]> rows : byKey.values()) {
            rows.sort((left, right) -> Long.compare(left[0], right[0]));
            int sessionStart = 0;
            for (int i = 1; i <= rows.size(); i++) {
                if (i == rows.size() || rows.get(i)[0] - rows.get(i - 1)[0] >= function.gap()) {
                    long start = rows.get(sessionStart)[0];
                    long end = rows.get(i - 1)[0] + function.gap();
                    for (int j = sessionStart; j < i; j++) {
                        long[] row = rows.get(j);
                        starts[(int) row[1]][(int) row[2]] = start;
                        ends[(int) row[1]][(int) row[2]] = end;
                    }
                    sessionStart = i;
                }
            }
        }
    }

    private VectorSchemaRoot withWindows(VectorSchemaRoot batch, long[] batchStarts, long[] batchEnds)
    {
        TimeStampVector time = (TimeStampVector) batch.getVector(function.timeColumn());
        int[] rows = new int[batch.getRowCount()];
        long[] rowStarts = new long[batch.getRowCount()];
        long[] rowEnds = new long[batch.getRowCount()];
        int count = 0;
        for (int row = 0; row < batch.getRowCount(); row++) {
            if (!time.isNull(row)) {
                rowStarts[count] = batchStarts[row];
                rowEnds[count] = batchEnds[row];
                rows[count++] = row;
            }
        }
        return WindowedRows.of(batch, rows, rowStarts, rowEnds, count, outputSchema, context.allocator());
    }

    @Override
    public void close()
    {
        try {
            for (VectorSchemaRoot batch : input) {
                if (batch != null) {
                    batch.close();
                }
            }
            input.clear();
        }
        finally {
            child.close();
        }
    }
}
