package io.ontul.engine.operator;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunReader;

/**
 * Reads spill runs back one after the other, batch by batch: one run open at a time. The batches
 * belong to the caller; {@link #close} closes the run being read. The runs stay on disk.
 */
public final class SpillRunsReader
        implements Operator
{
    private final OperatorContext context;
    private final List<SpillRun> runs;
    private int next;
    private SpillRunReader current;

    public SpillRunsReader(OperatorContext context, List<SpillRun> runs)
    {
        this.context = requireNonNull(context, "context is null");
        this.runs = List.copyOf(runs);
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            if (current == null) {
                if (next == runs.size()) {
                    return null;
                }
                context.checkCancelled();
                current = runs.get(next++).open(context.allocator());
            }
            VectorSchemaRoot batch = current.next();
            if (batch != null) {
                return batch;
            }
            current.close();
            current = null;
        }
    }

    @Override
    public void close()
    {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
