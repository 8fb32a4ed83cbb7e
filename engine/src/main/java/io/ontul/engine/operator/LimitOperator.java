package io.ontul.engine.operator;

import org.apache.arrow.vector.VectorSchemaRoot;

/** OFFSET and LIMIT: skips, then passes rows until the limit, then stops pulling. */
public final class LimitOperator
        implements Operator
{
    private final Operator child;
    private long toSkip;
    private long remaining;

    public LimitOperator(Operator child, long offset, long limit)
    {
        this.child = child;
        this.toSkip = offset;
        this.remaining = limit;
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (remaining > 0) {
            VectorSchemaRoot batch = child.next();
            if (batch == null) {
                return null;
            }
            int rows = batch.getRowCount();
            if (toSkip >= rows) {
                toSkip -= rows;
                batch.close();
                continue;
            }
            int start = (int) toSkip;
            toSkip = 0;
            int length = (int) Math.min(rows - start, remaining);
            remaining -= length;
            if (start == 0 && length == rows) {
                return batch;
            }
            try (batch) {
                return batch.slice(start, length);
            }
        }
        return null;
    }

    @Override
    public void close()
    {
        child.close();
    }
}
