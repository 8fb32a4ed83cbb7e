package io.ontul.engine.operator.exchange;

import java.util.List;
import java.util.function.Supplier;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Operator;
import io.ontul.spi.cluster.RemoteStream;
import io.ontul.engine.operator.OperatorContext;

/**
 * Reads remote streams one after another, each batch moved into the query's memory. Closing it
 * early (LIMIT satisfied, cancel, failure elsewhere) closes the open stream, which stops its
 * producer on the other node.
 */
final class RemoteSourceOperator
        implements Operator
{
    private final OperatorContext context;
    private final List<Supplier<RemoteStream>> streams;
    private int next;
    private RemoteStream current;
    private AutoCloseable cancelHook;

    RemoteSourceOperator(OperatorContext context, List<Supplier<RemoteStream>> streams)
    {
        this.context = context;
        this.streams = List.copyOf(streams);
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (true) {
            context.checkCancelled();
            if (current == null) {
                if (next == streams.size()) {
                    return null;
                }
                current = streams.get(next++).get();
                // a cancelled query must not wait for the worker's next batch: cancelling the stream wakes this thread
                RemoteStream opened = current;
                cancelHook = context.onCancel(opened::cancel);
            }
            VectorSchemaRoot batch = current.next(context.allocator());
            if (batch == null) {
                // what the worker's fragment received from its peers crossed the network for this query too
                context.recordExchanged(current.producerExchangedBytes());
                closeCurrent();
                continue;
            }
            if (batch.getRowCount() == 0) {
                batch.close();
                continue;
            }
            context.recordExchanged(io.ontul.engine.operator.Batches.bytes(batch));
            return batch;
        }
    }

    @Override
    public void close()
    {
        closeCurrent();
    }

    private void closeCurrent()
    {
        if (current == null) {
            return;
        }
        RemoteStream open = current;
        current = null;
        try {
            cancelHook.close();
        }
        catch (Exception e) {
            // removing a hook from a list does not fail
        }
        open.close();
    }
}
