package io.ontul.engine.operator.scan;

import java.util.Iterator;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;

/** Reads a list of splits one after another through the connector's batch sources. */
public final class ScanOperator
        implements Operator
{
    /** Fewest rows per batch asked of a source, however small the query's memory. */
    public static final int MIN_BATCH_ROWS = 1024;

    private final OperatorContext context;
    private final Connector connector;
    private final ScanSpec scan;
    private final Iterator<Split> splits;
    private final BufferAllocator allocator;
    private BatchSource current;
    private AutoCloseable cancelHook;

    public ScanOperator(OperatorContext context, Connector connector, ScanSpec scan, List<Split> splits)
    {
        this.context = context;
        this.connector = connector;
        this.scan = scan;
        this.splits = List.copyOf(splits).iterator();
        this.allocator = context.allocator();
    }

    /**
     * Rows per batch to ask of sources ({@link ScanSpec#maxBatchRows}): a batch of about a
     * 64th of the query's memory, at least {@link #MIN_BATCH_ROWS} rows (sources keep their own
     * size when it is smaller, as it is unless memory is short). Each worker may have a batch
     * being made, one waiting to be taken and one being worked on, and data is often allocated
     * in buffers rounded up to twice its size; at 64ths all of that stays within an eighth of
     * the memory, so that operators that spill keep the rest.
     */
    public static int maxBatchRows(long memoryLimit, Schema schema)
    {
        long rows = memoryLimit / 64 / Math.max(1, Batches.estimatedRowBytes(schema));
        return (int) Math.min(ScanSpec.ANY_BATCH_ROWS, Math.max(MIN_BATCH_ROWS, rows));
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            context.checkCancelled();
            if (current == null) {
                if (!splits.hasNext()) {
                    return null;
                }
                current = connector.createSource(splits.next(), scan, allocator);
                BatchSource source = current;
                cancelHook = context.onCancel(source::cancel);
            }
            VectorSchemaRoot batch;
            try {
                batch = current.next();
            }
            catch (RuntimeException e) {
                // a source interrupted by cancel(): the user sees why the query stopped, not the interruption
                context.checkCancelled();
                throw e;
            }
            if (batch == null) {
                closeCurrent();
                continue;
            }
            if (batch.getRowCount() == 0) {
                batch.close();
                continue;
            }
            return batch;
        }
    }

    @Override
    public void close()
    {
        if (current != null) {
            closeCurrent();
        }
    }

    private void closeCurrent()
    {
        try {
            cancelHook.close();
        }
        catch (Exception ignored) {
            // removing a hook from a set does not fail
        }
        current.close();
        current = null;
    }
}
