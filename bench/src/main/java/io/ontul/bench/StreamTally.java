package io.ontul.bench;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Counts the batches of one result stream as they arrive and times them. */
final class StreamTally
{
    private final long startNanos;
    private long firstBatchNanos = -1;
    private long rows;
    private long bytes;
    private long batches;

    private StreamTally(long startNanos)
    {
        this.startNanos = startNanos;
    }

    /** Starts the clock; call it right before the call that starts the query. */
    static StreamTally start()
    {
        return new StreamTally(System.nanoTime());
    }

    void batch(VectorSchemaRoot batch)
    {
        if (firstBatchNanos < 0 && batch.getRowCount() > 0) {
            firstBatchNanos = System.nanoTime() - startNanos;
        }
        batches++;
        rows += batch.getRowCount();
        for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
    }

    StreamRun finish()
    {
        long total = System.nanoTime() - startNanos;
        return new StreamRun(total, firstBatchNanos < 0 ? total : firstBatchNanos, rows, bytes, batches);
    }
}
