package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;


/**
 * The TUMBLE and HOP window table functions: each input row comes out once per window that holds
 * its time value, with {@code window_start} and {@code window_end} appended (same type as the time
 * column). Rows whose time is NULL belong to no window and are dropped. Stateless: a streaming
 * job runs the same operator over each polled batch.
 */
public final class TimeWindowOperator
        implements Operator
{
    private final OperatorContext context;
    private final Operator child;
    private final TimeWindowFunction function;
    private final Schema outputSchema;

    public TimeWindowOperator(OperatorContext context, Operator child, TimeWindowFunction function, Schema outputSchema)
    {
        this.context = requireNonNull(context, "context is null");
        this.child = requireNonNull(child, "child is null");
        this.function = requireNonNull(function, "function is null");
        this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
    }

    @Override
    public VectorSchemaRoot next()
    {
        VectorSchemaRoot input;
        while ((input = child.next()) != null) {
            try (VectorSchemaRoot batch = input) {
                context.checkCancelled();
                VectorSchemaRoot output = assign(batch, context.allocator());
                if (output.getRowCount() > 0) {
                    return output;
                }
                output.close();
            }
        }
        return null;
    }

    /** The windowed rows of one batch; the caller keeps owning {@code batch}. */
    VectorSchemaRoot assign(VectorSchemaRoot batch, BufferAllocator allocator)
    {
        int rowCount = batch.getRowCount();
        TimeStampVector time = (TimeStampVector) batch.getVector(function.timeColumn());
        int outputRows = 0;
        for (int row = 0; row < rowCount; row++) {
            if (!time.isNull(row)) {
                outputRows += function.windowCount(time.get(row));
            }
        }
        int[] rows = new int[outputRows];
        long[] starts = new long[outputRows];
        int out = 0;
        for (int row = 0; row < rowCount; row++) {
            if (time.isNull(row)) {
                continue;
            }
            long value = time.get(row);
            long start = function.lastStart(value);
            for (int w = function.windowCount(value) - 1; w >= 0; w--) {
                rows[out] = row;
                starts[out++] = start - w * function.slide();
            }
        }
        long[] ends = new long[outputRows];
        for (int i = 0; i < outputRows; i++) {
            ends[i] = starts[i] + function.size();
        }
        return WindowedRows.of(batch, rows, starts, ends, outputRows, outputSchema, allocator);
    }

    @Override
    public void close()
    {
        child.close();
    }
}
