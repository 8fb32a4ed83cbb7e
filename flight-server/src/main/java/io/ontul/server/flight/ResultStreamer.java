package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.api.QueryResult;

/**
 * Sends a query result to a DoGet stream batch by batch, as the engine produces them. Before
 * pulling the next batch it waits until the client can take more (gRPC flow control), so a slow
 * client holds back the query instead of making the server buffer its result. A client that
 * cancels, times out or disconnects cancels the query at once, from the gRPC thread that learns
 * of it (the call's {@link io.grpc.Context} is cancelled), so that the query's threads stop at
 * their next batch boundary even while the streaming thread waits for a batch; the streaming
 * thread then closes the result.
 * <p>
 * Each batch's buffers are transferred (not copied) into a root owned by the server's
 * allocator: gRPC may still be writing them after the query has finished and released its own
 * memory.
 */
public final class ResultStreamer
{
    private static final long MAX_PAUSE_NANOS = 1_000_000;

    private final BufferAllocator allocator;
    private final boolean trailer;

    public ResultStreamer(BufferAllocator allocator)
    {
        this(allocator, false);
    }

    /**
     * @param trailer whether a stream ends with a metadata message of the result's
     *        {@link QueryResult#exchangedBytes} (a worker's fragment, for its coordinator)
     */
    public ResultStreamer(BufferAllocator allocator, boolean trailer)
    {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.trailer = trailer;
    }

    /** The metadata message that ends a worker's fragment: the bytes it received from its peers. */
    public static byte[] trailer(long exchangedBytes)
    {
        return java.nio.ByteBuffer.allocate(Long.BYTES).putLong(exchangedBytes).array();
    }

    /** The bytes a trailer carries. */
    public static long exchangedBytes(byte[] trailer)
    {
        return trailer.length == Long.BYTES ? java.nio.ByteBuffer.wrap(trailer).getLong() : 0;
    }

    /** Streams and closes the result; failures reach the client through the listener. */
    public void stream(QueryResult result, ServerStreamListener listener)
    {
        BackpressureStrategy backpressure = new CancellingBackpressureStrategy(result);
        backpressure.register(listener);
        // gRPC runs the stream's cancel callback on the thread of this handler, which is busy in
        // nextBatch() for as long as the query computes its next batch (an aggregation: until all
        // its input is read). The call's Context is cancelled at once, from the transport, when the
        // client cancels, times out or goes away: that is what stops the query.
        io.grpc.Context call = io.grpc.Context.current();
        io.grpc.Context.CancellationListener cancelQuery = cancelled -> result.cancel();
        call.addListener(cancelQuery, Runnable::run);
        try (result; VectorSchemaRoot root = VectorSchemaRoot.create(result.schema(), allocator)) {
            listener.start(root);
            while (true) {
                if (!awaitReady(listener)) {
                    return;
                }
                VectorSchemaRoot batch = result.nextBatch();
                if (batch == null) {
                    break;
                }
                transfer(batch, root);
                listener.putNext();
            }
            long exchanged = trailer ? result.exchangedBytes() : 0;
            if (exchanged > 0) {
                byte[] bytes = trailer(exchanged);
                org.apache.arrow.memory.ArrowBuf metadata = allocator.buffer(bytes.length);
                metadata.writeBytes(bytes);
                listener.putMetadata(metadata);
            }
            listener.completed();
        }
        catch (Throwable e) {
            if (!listener.isCancelled()) {
                listener.error(ErrorMapping.toFlight(e));
            }
        }
        finally {
            call.removeListener(cancelQuery);
        }
    }

    private static final class CancellingBackpressureStrategy
            extends BackpressureStrategy.CallbackBackpressureStrategy
    {
        private final QueryResult result;

        CancellingBackpressureStrategy(QueryResult result)
        {
            this.result = requireNonNull(result, "result is null");
        }

        @Override
        protected void cancelCallback()
        {
            result.cancel();
        }
    }

    /**
     * Waits until gRPC can take another batch. Polls {@code isReady()} with short pauses, growing
     * from 50 µs to 1 ms while the client stays slow: gRPC may deliver its ready callback only on
     * the thread that runs this handler, so waiting for the callback alone stalls every time the
     * transport's buffer fills (measured in bench/RESULTS.md: 20 MB/s instead of 1.7 GB/s).
     */
    private static boolean awaitReady(ServerStreamListener listener)
    {
        long pauseNanos = 50_000;
        while (true) {
            if (listener.isCancelled() || Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (listener.isReady()) {
                return true;
            }
            LockSupport.parkNanos(pauseNanos);
            pauseNanos = Math.min(MAX_PAUSE_NANOS, pauseNanos * 2);
        }
    }

    private static void transfer(VectorSchemaRoot batch, VectorSchemaRoot target)
    {
        List<FieldVector> sources = batch.getFieldVectors();
        for (int column = 0; column < sources.size(); column++) {
            sources.get(column).makeTransferPair(target.getVector(column)).transfer();
        }
        target.setRowCount(batch.getRowCount());
    }
}
