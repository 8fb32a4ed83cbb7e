package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * A minimal Arrow Flight producer that sends recorded batches: GetFlightInfo of a descriptor
 * whose command names a {@link FlowControl} answers with one endpoint, DoGet of its ticket sends
 * every batch, loading the batch's buffers into the stream's root without copying them. It has
 * no authentication, no query and no per-call session.
 */
public final class ReplayFlightProducer
        extends NoOpFlightProducer
{
    private static final long CALLBACK_WAIT_MILLIS = 1_000;
    private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    /** How DoGet waits for gRPC flow control before each batch. */
    public enum FlowControl
    {
        /** Never waits: gRPC buffers what the client cannot take yet (the simplest producer). */
        NONE("no flow control"),
        /** Arrow's CallbackBackpressureStrategy with a 1 s wait, as Ontul's ResultStreamer does. */
        CALLBACK("CallbackBackpressureStrategy, 1 s wait"),
        /** Checks {@code isReady()} every 0.1 ms until the client can take more. */
        POLLING("polls isReady() every 0.1 ms");

        private final String description;

        FlowControl(String description)
        {
            this.description = description;
        }

        public String description()
        {
            return description;
        }

        public FlightDescriptor descriptor()
        {
            return FlightDescriptor.command(name().getBytes(StandardCharsets.UTF_8));
        }
    }

    private final RecordedBatches recorded;
    private final BufferAllocator allocator;
    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong timedOutWaits = new AtomicLong();
    private final AtomicLong readyCallbacks = new AtomicLong();

    /** @param allocator the streams' roots; must share the root allocator of the recorded batches */
    public ReplayFlightProducer(RecordedBatches recorded, BufferAllocator allocator)
    {
        this.recorded = requireNonNull(recorded, "recorded is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor)
    {
        FlowControl flowControl = flowControl(descriptor.getCommand());
        Ticket ticket = new Ticket(flowControl.name().getBytes(StandardCharsets.UTF_8));
        return new FlightInfo(recorded.schema(), descriptor, List.of(new FlightEndpoint(ticket)), -1, recorded.rows());
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener)
    {
        FlowControl flowControl;
        try {
            flowControl = flowControl(ticket.getBytes());
        }
        catch (RuntimeException e) {
            listener.error(CallStatus.NOT_FOUND.withDescription(e.getMessage()).toRuntimeException());
            return;
        }
        CountingBackpressureStrategy backpressure = null;
        if (flowControl == FlowControl.CALLBACK) {
            backpressure = new CountingBackpressureStrategy();
            backpressure.register(listener);
        }
        try (VectorSchemaRoot root = VectorSchemaRoot.create(recorded.schema(), allocator)) {
            VectorLoader loader = new VectorLoader(root);
            listener.start(root);
            for (ArrowRecordBatch batch : recorded.batches()) {
                if (flowControl == FlowControl.CALLBACK && !awaitReady(backpressure, listener)) {
                    return;
                }
                if (flowControl == FlowControl.POLLING && !pollReady(listener)) {
                    return;
                }
                loader.load(batch);
                listener.putNext();
            }
            listener.completed();
        }
        catch (RuntimeException e) {
            if (!listener.isCancelled()) {
                listener.error(CallStatus.INTERNAL.withCause(e).withDescription(String.valueOf(e.getMessage())).toRuntimeException());
            }
        }
    }

    /** What the flow control waits did since the last call, e.g. how many timed out; then resets. */
    public String takeWaitStatistics()
    {
        return String.format(Locale.ROOT, "%d waits for a not-ready client, %d of them ended by the 1 s timeout, %d ready callbacks",
                waits.getAndSet(0), timedOutWaits.getAndSet(0), readyCallbacks.getAndSet(0));
    }

    private static FlowControl flowControl(byte[] name)
    {
        String text = new String(name, StandardCharsets.UTF_8);
        for (FlowControl flowControl : FlowControl.values()) {
            if (flowControl.name().equals(text)) {
                return flowControl;
            }
        }
        throw new IllegalArgumentException("Unknown flow control: " + text);
    }

    private boolean awaitReady(BackpressureStrategy backpressure, ServerStreamListener listener)
    {
        if (listener.isReady()) {
            return true;
        }
        waits.incrementAndGet();
        while (true) {
            switch (backpressure.waitForListener(CALLBACK_WAIT_MILLIS)) {
                case READY:
                    return true;
                case CANCELLED:
                    return false;
                case TIMEOUT:
                    timedOutWaits.incrementAndGet();
                    // fall through
                default:
                    if (listener.isCancelled()) {
                        return false;
                    }
            }
        }
    }

    private boolean pollReady(ServerStreamListener listener)
    {
        if (listener.isReady()) {
            return true;
        }
        waits.incrementAndGet();
        while (!listener.isReady()) {
            if (listener.isCancelled()) {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return true;
    }

    private final class CountingBackpressureStrategy
            extends BackpressureStrategy.CallbackBackpressureStrategy
    {
        @Override
        protected void readyCallback()
        {
            readyCallbacks.incrementAndGet();
        }
    }
}
