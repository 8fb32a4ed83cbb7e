package io.ontul.engine.operator.window;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.VectorGather;

/** The output of the window table functions: chosen input rows with window_start and window_end appended. */
public final class WindowedRows
{
    private WindowedRows() {}

    /**
     * Rows {@code rows[0..count)} of {@code batch} (repeats allowed), each followed by its window's
     * {@code starts[i]} and {@code ends[i]}, in the time column's unit; the caller owns the result
     * and keeps owning {@code batch}.
     */
    public static VectorSchemaRoot of(VectorSchemaRoot batch, int[] rows, long[] starts, long[] ends, int count, Schema outputSchema, BufferAllocator allocator)
    {
        int inputColumns = batch.getFieldVectors().size();
        FieldVector[] outputs = Batches.allocate(outputSchema, allocator, count);
        try {
            for (int c = 0; c < inputColumns; c++) {
                VectorGather.gather(batch.getVector(c), rows, count, outputs[c]);
            }
            TimeStampVector windowStart = (TimeStampVector) outputs[inputColumns];
            TimeStampVector windowEnd = (TimeStampVector) outputs[inputColumns + 1];
            for (int i = 0; i < count; i++) {
                windowStart.getDataBuffer().setLong((long) i * TimeStampVector.TYPE_WIDTH, starts[i]);
                windowStart.setIndexDefined(i);
                windowEnd.getDataBuffer().setLong((long) i * TimeStampVector.TYPE_WIDTH, ends[i]);
                windowEnd.setIndexDefined(i);
            }
        }
        catch (RuntimeException e) {
            for (FieldVector vector : outputs) {
                vector.close();
            }
            throw e;
        }
        return Batches.root(outputSchema, outputs, count);
    }
}
