package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.arrow.driver.jdbc.client.CloseableEndpointStreamPair;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.flight.FlightStream;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.FieldVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.util.TransferPair;

/**
 * The batches of a result's Flight streams, received on a thread of their own while the client
 * reads the batch before: each batch's buffers move (zero-copy) out of the stream's root into a
 * root of their own and wait in a queue of {@value #AHEAD} batches, so a client that reads
 * slower than the server sends holds at most that many batches and gRPC's flow control slows
 * the server. A failure of the stream reaches the reader at the batch where it happened.
 * <p>
 * Two ways to stop: {@link #cancel} from any thread (a statement's cancel, a query timeout)
 * stops the streams and makes the reader's next {@link #next} fail with SQLState 57014;
 * {@link #close}, on the reading thread, also waits for the receiver and frees the batches
 * not read.
 */
final class PrefetchedBatches
        implements AutoCloseable
{
    /** How many received batches may wait for the reader. */
    static final int AHEAD = 2;

    private static final Object END = new Object();

    private final List<CloseableEndpointStreamPair> streams;
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(AHEAD);
    private final Thread receiver;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean received;
    private boolean ended;

    PrefetchedBatches(List<CloseableEndpointStreamPair> streams)
    {
        this.streams = List.copyOf(requireNonNull(streams, "streams is null"));
        this.receiver = new Thread(this::receive, "ontul-jdbc-results");
        receiver.setDaemon(true);
        receiver.start();
    }

    private void receive()
    {
        try {
            for (CloseableEndpointStreamPair pair : streams) {
                FlightStream stream = pair.getStream();
                while (!cancelled.get() && stream.next()) {
                    VectorSchemaRoot root = stream.getRoot();
                    if (root.getRowCount() == 0) {
                        continue;
                    }
                    VectorSchemaRoot batch = moveOut(root);
                    if (!offer(batch)) {
                        batch.close();
                        return;
                    }
                }
            }
            received = true;
            offer(END);
        }
        catch (Throwable failure) {
            if (!cancelled.get()) {
                offer(failure);
            }
        }
    }

    /** The root's buffers in a root of their own; the stream's root is empty afterwards and takes the next batch. */
    private static VectorSchemaRoot moveOut(VectorSchemaRoot root)
    {
        List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors().size());
        for (FieldVector vector : root.getFieldVectors()) {
            TransferPair transfer = vector.getTransferPair(vector.getAllocator());
            transfer.transfer();
            vectors.add((FieldVector) transfer.getTo());
        }
        return new VectorSchemaRoot(root.getSchema().getFields(), vectors, root.getRowCount());
    }

    private boolean offer(Object item)
    {
        try {
            while (!cancelled.get()) {
                if (queue.offer(item, 50, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** Whether every batch of the streams has arrived (the reader may still be reading them). */
    boolean received()
    {
        return received;
    }

    /**
     * The next batch, which the caller closes when it has read it, or null after the last one.
     *
     * @throws SQLException what the stream failed with; SQLState 57014 after a cancel
     */
    VectorSchemaRoot next()
            throws SQLException
    {
        if (ended) {
            return null;
        }
        Object item = null;
        try {
            while (item == null) {
                if (cancelled.get()) {
                    ended = true;
                    throw new SQLException("The query was cancelled: its statement was cancelled, closed or timed out", "57014");
                }
                item = queue.poll(100, TimeUnit.MILLISECONDS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for the next rows", "57014", e);
        }
        if (item == END) {
            ended = true;
            return null;
        }
        if (item instanceof Throwable failure) {
            ended = true;
            throw SqlErrors.translate(failure);
        }
        return (VectorSchemaRoot) item;
    }

    /** Stops the streams if they have not ended; safe from any thread, and quick (it waits for nothing). */
    void cancel()
    {
        if (!cancelled.compareAndSet(false, true) || received) {
            return;
        }
        for (CloseableEndpointStreamPair pair : streams) {
            try {
                pair.getStream().cancel("The result set was closed", null);
            }
            catch (RuntimeException ignored) {
                // the stream ended meanwhile
            }
        }
    }

    /** Cancels, waits for the receiver, and frees the batches not read; for the reading thread. */
    @Override
    public void close()
    {
        cancel();
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            receiver.join(TimeUnit.SECONDS.toMillis(10));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Object item;
        while ((item = queue.poll()) != null) {
            if (item instanceof VectorSchemaRoot batch) {
                batch.close();
            }
        }
        for (CloseableEndpointStreamPair pair : streams) {
            try {
                pair.close();
            }
            catch (Exception ignored) {
                // closing a cancelled stream reports the cancellation again
            }
        }
    }
}
