package io.ontul.engine.operator;

import org.apache.arrow.vector.VectorSchemaRoot;

/** Wraps an operator to record rows, batches and wall time (including children) per node. */
public final class MeasuredOperator
        implements Operator
{
    private final Operator delegate;
    private final OperatorStats stats;

    public MeasuredOperator(Operator delegate, OperatorStats stats)
    {
        this.delegate = delegate;
        this.stats = stats;
    }

    @Override
    public VectorSchemaRoot next()
    {
        long start = System.nanoTime();
        VectorSchemaRoot batch = delegate.next();
        if (batch != null) {
            stats.recordBatch(batch.getRowCount(), System.nanoTime() - start);
        }
        else {
            stats.recordTime(System.nanoTime() - start);
        }
        return batch;
    }

    @Override
    public void close()
    {
        delegate.close();
    }
}
