package io.ontul.engine.operator;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Wraps an operator to record rows, batches and wall time (including children) per node, and to
 * name it when an Arrow buffer it allocates no longer fits the query's memory limit.
 */
public final class MeasuredOperator
        implements Operator
{
    private final Operator delegate;
    private final OperatorStats stats;
    private final String name;
    private final OperatorContext context;

    /** @param name the operator, as memory-limit messages name it ({@code HashAggregate}) */
    public MeasuredOperator(Operator delegate, OperatorStats stats, String name, OperatorContext context)
    {
        this.delegate = delegate;
        this.stats = stats;
        this.name = name;
        this.context = context;
    }

    @Override
    public VectorSchemaRoot next()
    {
        long start = System.nanoTime();
        VectorSchemaRoot batch;
        try {
            batch = delegate.next();
        }
        catch (org.apache.arrow.memory.OutOfMemoryException e) {
            // the innermost operator that ran out names itself; the ones above pass its error on
            throw new io.ontul.spi.OntulException(io.ontul.spi.ErrorCode.EXCEEDED_MEMORY_LIMIT, io.ontul.engine.memory.MemoryPool.limitMessage(context.memoryLimit())
                    + " in " + name + " (Arrow buffers) (raise it with SET SESSION query_max_memory = '...')", e);
        }
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
