package io.ontul.server.cluster;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.cluster.ChannelSender;
import io.ontul.spi.cluster.ChannelTarget;
import io.ontul.spi.cluster.StreamAttemptRequest;
import io.ontul.spi.cluster.StreamCommand;
import io.ontul.spi.cluster.StreamReport;
import io.ontul.spi.cluster.StreamTransport;
import io.ontul.spi.cluster.WorkerAddress;

/**
 * Streaming jobs between the nodes over Arrow Flight's DoExchange, signed with the cluster
 * secret like every call between them. An attempt's session with a worker is one exchange:
 * commands go as JSON metadata messages one way, the worker's reports the other, and cancelling
 * it (the attempt ends, or the coordinator is gone) stops the worker's tasks. A channel of the
 * shuffle is one exchange of its own, from the sending task's worker to the receiving task's:
 * Arrow batches and metadata messages tagged by the engine, started with the first batch's
 * schema. gRPC's flow control is the back-pressure: a sender waits while its call is not ready
 * (the receiver stopped reading because the task's channel is full).
 */
public final class FlightStreamTransport
        implements StreamTransport
{
    private static final Logger LOG = LoggerFactory.getLogger(FlightStreamTransport.class);

    private final FlightRemoteTasks nodes;
    private final BufferAllocator allocator;

    /**
     * @param nodes the Flight clients of the other nodes, and how their failures read
     * @param allocator where batches wait while they are sent
     */
    public FlightStreamTransport(FlightRemoteTasks nodes, BufferAllocator allocator)
    {
        this.nodes = requireNonNull(nodes, "nodes is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** What an exchange between the nodes is for: its descriptor's command, as JSON. */
    record StreamCall(String kind, StreamAttemptRequest request, ChannelTarget target)
    {
        static final String SESSION = "session";
        static final String CHANNEL = "channel";
    }

    @Override
    public StreamSession openSession(WorkerAddress worker, StreamAttemptRequest request, Consumer<StreamReport> reports, Consumer<RuntimeException> ended)
    {
        FlightClient.ExchangeReaderWriter exchange = exchange(worker, new StreamCall(StreamCall.SESSION, request, null), "streaming job " + request.jobName());
        String what = "tasks of streaming job " + request.jobName();
        Thread reader = new Thread(() -> {
            RuntimeException failure = null;
            try {
                FlightStream stream = exchange.getReader();
                while (stream.next()) {
                    ArrowBuf metadata = stream.getLatestMetadata();
                    if (metadata != null) {
                        reports.accept(ClusterMessages.read(bytes(metadata), StreamReport.class));
                    }
                }
            }
            catch (FlightRuntimeException e) {
                failure = nodes.translate(e, worker.id(), worker.address(), what);
            }
            catch (RuntimeException e) {
                failure = new OntulException(ErrorCode.EXTERNAL_ERROR, "The session with worker " + worker.id() + " of streaming job " + request.jobName() + " failed: " + e.getMessage(), e);
            }
            finally {
                closeQuietly(exchange);
            }
            ended.accept(failure);
        }, "ontul-stream-" + request.jobName() + "-session-" + worker.id());
        reader.setDaemon(true);
        reader.start();
        return new StreamSession()
        {
            private boolean closed;

            @Override
            public synchronized void send(StreamCommand command)
            {
                if (closed) {
                    return;
                }
                try {
                    exchange.getWriter().putMetadata(buffer(ClusterMessages.write(command)));
                }
                catch (FlightRuntimeException e) {
                    throw nodes.translate(e, worker.id(), worker.address(), what);
                }
            }

            @Override
            public synchronized void close()
            {
                if (closed) {
                    return;
                }
                closed = true;
                try {
                    exchange.getReader().cancel("the attempt ended", null);
                }
                catch (RuntimeException e) {
                    LOG.debug("Cancelling the session with worker {} failed", worker.id(), e);
                }
            }
        };
    }

    @Override
    public ChannelSender openChannel(WorkerAddress worker, ChannelTarget target)
    {
        return new FlightChannelSender(worker, exchange(worker, new StreamCall(StreamCall.CHANNEL, null, target), "a channel of a streaming job"));
    }

    private FlightClient.ExchangeReaderWriter exchange(WorkerAddress worker, StreamCall call, String what)
    {
        try {
            return nodes.client(worker.address()).doExchange(FlightDescriptor.command(ClusterMessages.write(call)), nodes.signed());
        }
        catch (FlightRuntimeException e) {
            throw nodes.translate(e, worker.id(), worker.address(), what);
        }
    }

    /** Releases what the exchange's reading side still holds (its call ended, or is cancelled by this). */
    private static void closeQuietly(FlightClient.ExchangeReaderWriter exchange)
    {
        try {
            exchange.getReader().close();
        }
        catch (Exception e) {
            LOG.debug("Closing an exchange failed", e);
        }
    }

    private ArrowBuf buffer(byte[] bytes)
    {
        ArrowBuf buffer = allocator.buffer(bytes.length);
        buffer.writeBytes(bytes);
        return buffer;
    }

    static byte[] bytes(ArrowBuf metadata)
    {
        byte[] bytes = new byte[(int) metadata.readableBytes()];
        metadata.getBytes(metadata.readerIndex(), bytes);
        return bytes;
    }

    /**
     * One channel's sending end. A thread of its own reads the exchange's other side, which
     * carries nothing but its end: how a sender learns that the receiver is gone while it waits.
     */
    private final class FlightChannelSender
            implements ChannelSender
    {
        private final WorkerAddress worker;
        private final FlightClient.ExchangeReaderWriter exchange;
        private final Object lock = new Object();
        private VectorSchemaRoot root;
        private volatile boolean closed;
        private volatile RuntimeException failure;
        private volatile boolean receiverEnded;

        FlightChannelSender(WorkerAddress worker, FlightClient.ExchangeReaderWriter exchange)
        {
            this.worker = worker;
            this.exchange = exchange;
            Thread watcher = new Thread(this::watch, "ontul-stream-channel-" + worker.id());
            watcher.setDaemon(true);
            watcher.start();
        }

        private void watch()
        {
            try {
                while (exchange.getReader().next()) {
                    // the receiver sends nothing
                }
            }
            catch (FlightRuntimeException e) {
                failure = nodes.translate(e, worker.id(), worker.address(), "a task of a streaming job");
            }
            catch (RuntimeException e) {
                failure = e;
            }
            finally {
                closeQuietly(exchange);
            }
            receiverEnded = true;
        }

        @Override
        public long send(VectorSchemaRoot batch, byte[] metadata)
                throws InterruptedException
        {
            long waited = awaitReady();
            synchronized (lock) {
                checkOpen();
                if (root == null) {
                    root = VectorSchemaRoot.create(batch.getSchema(), allocator);
                    exchange.getWriter().start(root);
                }
                java.util.List<FieldVector> vectors = batch.getFieldVectors();
                for (int column = 0; column < vectors.size(); column++) {
                    vectors.get(column).makeTransferPair(root.getVector(column)).transfer();
                }
                root.setRowCount(batch.getRowCount());
                try {
                    exchange.getWriter().putNext(buffer(metadata));
                }
                finally {
                    root.clear();
                }
            }
            return waited;
        }

        @Override
        public long sendMetadata(byte[] metadata)
                throws InterruptedException
        {
            long waited = awaitReady();
            synchronized (lock) {
                checkOpen();
                exchange.getWriter().putMetadata(buffer(metadata));
            }
            return waited;
        }

        /** Waits until gRPC takes more (the receiver reads), polling: a Flight client cannot be told when. */
        private long awaitReady()
                throws InterruptedException
        {
            long start = System.nanoTime();
            long pause = TimeUnit.MICROSECONDS.toNanos(50);
            while (!exchange.getWriter().isReady()) {
                checkOpen();
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for worker " + worker.id() + " to take a channel's rows");
                }
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(5));
            }
            return System.nanoTime() - start;
        }

        private void checkOpen()
        {
            if (failure != null) {
                throw failure;
            }
            if (closed) {
                throw new IllegalStateException("The channel to worker " + worker.id() + " was closed");
            }
            if (receiverEnded) {
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Worker " + worker.id() + " ended a channel of a streaming job while rows were sent on it (its task's attempt ended)");
            }
        }

        @Override
        public void complete()
        {
            synchronized (lock) {
                checkOpen();
                exchange.getWriter().completed();
                closeRoot();
            }
        }

        @Override
        public void close()
        {
            if (closed) {
                return;
            }
            closed = true;
            try {
                exchange.getReader().cancel("the sending task's attempt ended", null);
            }
            catch (RuntimeException e) {
                LOG.debug("Cancelling a channel to worker {} failed", worker.id(), e);
            }
            synchronized (lock) {
                closeRoot();
            }
        }

        private void closeRoot()
        {
            if (root != null) {
                root.close();
                root = null;
            }
        }
    }
}
