package io.ontul.server.cluster;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Result;

import io.ontul.engine.api.Engine;

/**
 * The Flight service of a worker. Only members of its cluster get this far (see
 * {@link ClusterCallAuthenticator}): DoGet runs the worker's share of a query fragment (the
 * ticket is the coordinator's request), action {@value ClusterMessages#STATUS} answers with the
 * worker's figures.
 */
final class WorkerProducer
        extends NoOpFlightProducer
{
    private final Engine engine;
    private final java.util.function.Supplier<String> address;
    private final io.ontul.server.flight.ResultStreamer streamer;
    private final org.apache.arrow.memory.BufferAllocator allocator;
    private final java.util.concurrent.atomic.AtomicLong fragmentsRun = new java.util.concurrent.atomic.AtomicLong();

    /** @param address where the worker serves, once its server runs */
    WorkerProducer(Engine engine, java.util.function.Supplier<String> address, org.apache.arrow.memory.BufferAllocator allocator)
    {
        this.streamer = new io.ontul.server.flight.ResultStreamer(allocator, true);
        this.allocator = allocator;
        this.engine = requireNonNull(engine, "engine is null");
        this.address = requireNonNull(address, "address is null");
    }

    /** Runs this worker's share of a fragment (the ticket is the coordinator's request) and streams its rows. */
    @Override
    public void getStream(CallContext context, org.apache.arrow.flight.Ticket ticket, ServerStreamListener listener)
    {
        io.ontul.engine.api.QueryResult result;
        try {
            io.ontul.spi.cluster.FragmentRequest request = ClusterMessages.read(ticket.getBytes(), io.ontul.spi.cluster.FragmentRequest.class);
            fragmentsRun.incrementAndGet();
            // the coordinator cancels the call when the query is cancelled: planning (long on a cold worker) stops then too
            result = engine.runFragment(request, listener::isCancelled);
        }
        catch (RuntimeException e) {
            listener.error(io.ontul.server.flight.ErrorMapping.toFlight(e));
            return;
        }
        streamer.stream(result, listener);
    }

    /**
     * A streaming job's exchange with this worker: the coordinator's session of an attempt (its
     * tasks here live as long as it does), or a channel from a task on another worker into one of
     * this worker's window tasks.
     */
    @Override
    public void doExchange(CallContext context, org.apache.arrow.flight.FlightStream reader, ServerStreamListener writer)
    {
        FlightStreamTransport.StreamCall call;
        try {
            call = ClusterMessages.read(reader.getDescriptor().getCommand(), FlightStreamTransport.StreamCall.class);
        }
        catch (IllegalArgumentException e) {
            writer.error(CallStatus.INVALID_ARGUMENT.withDescription(e.getMessage()).toRuntimeException());
            return;
        }
        if (FlightStreamTransport.StreamCall.SESSION.equals(call.kind()) && call.request() != null) {
            runSession(call.request(), reader, writer);
        }
        else if (FlightStreamTransport.StreamCall.CHANNEL.equals(call.kind()) && call.target() != null) {
            receiveChannel(call.target(), reader, writer);
        }
        else {
            writer.error(CallStatus.INVALID_ARGUMENT.withDescription("Unknown exchange " + call.kind()).toRuntimeException());
        }
    }

    /** Runs this worker's tasks of an attempt until the coordinator ends the session (or is gone): its commands in, the tasks' reports out. */
    private void runSession(io.ontul.spi.cluster.StreamAttemptRequest request, org.apache.arrow.flight.FlightStream reader, ServerStreamListener writer)
    {
        CallEnd end = new CallEnd(writer);
        io.ontul.spi.cluster.StreamTransport.WorkerSession session;
        try {
            session = engine.openStreamSession(request, report -> {
                byte[] bytes = ClusterMessages.write(report);
                synchronized (end) {
                    org.apache.arrow.memory.ArrowBuf buffer = allocator.buffer(bytes.length);
                    buffer.writeBytes(bytes);
                    writer.putMetadata(buffer);
                }
            }, end::fail);
        }
        catch (RuntimeException e) {
            end.fail(e);
            return;
        }
        try {
            while (reader.next()) {
                org.apache.arrow.memory.ArrowBuf metadata = reader.getLatestMetadata();
                if (metadata != null) {
                    // a command that fails ends the session with its failure (the session tells the call)
                    session.command(ClusterMessages.read(FlightStreamTransport.bytes(metadata), io.ontul.spi.cluster.StreamCommand.class));
                }
            }
        }
        catch (RuntimeException e) {
            // the coordinator cancelled the session (the attempt ended) or cannot be reached
            org.slf4j.LoggerFactory.getLogger(WorkerProducer.class).debug("Session of attempt {} of streaming job {} ended: {}", request.attempt(), request.jobName(), e.getMessage());
        }
        finally {
            session.close();
        }
        end.complete();
    }

    /** Ends a call once: completed, or with a failure. */
    private static final class CallEnd
    {
        private final ServerStreamListener writer;
        private boolean ended;

        CallEnd(ServerStreamListener writer)
        {
            this.writer = writer;
        }

        synchronized void fail(RuntimeException failure)
        {
            if (!ended) {
                ended = true;
                try {
                    writer.error(io.ontul.server.flight.ErrorMapping.toFlight(failure));
                }
                catch (RuntimeException e) {
                    // the call is gone already
                }
            }
        }

        synchronized void complete()
        {
            if (!ended) {
                ended = true;
                try {
                    writer.completed();
                }
                catch (RuntimeException e) {
                    // the call is gone already
                }
            }
        }
    }

    /** Delivers a channel from a task on another worker into one of this worker's window tasks. */
    private void receiveChannel(io.ontul.spi.cluster.ChannelTarget target, org.apache.arrow.flight.FlightStream reader, ServerStreamListener writer)
    {
        CallEnd end = new CallEnd(writer);
        try {
            engine.receiveStreamChannel(target, new io.ontul.spi.cluster.ChannelInbound()
            {
                @Override
                public boolean next()
                {
                    return reader.next();
                }

                @Override
                public byte[] metadata()
                {
                    org.apache.arrow.memory.ArrowBuf metadata = reader.getLatestMetadata();
                    return metadata == null ? null : FlightStreamTransport.bytes(metadata);
                }

                @Override
                public org.apache.arrow.vector.VectorSchemaRoot batch(org.apache.arrow.memory.BufferAllocator target)
                {
                    return FlightRemoteTasks.moveInto(reader.getRoot(), target);
                }

                @Override
                public void cancel()
                {
                    end.fail(new io.ontul.spi.OntulException(io.ontul.spi.ErrorCode.QUERY_CANCELLED, "The receiving task's attempt ended"));
                }
            });
            end.complete();
        }
        catch (RuntimeException e) {
            end.fail(e);
        }
    }

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener)
    {
        switch (action.getType()) {
            case ClusterMessages.STATUS -> listener.onNext(new Result(ClusterMessages.write(report())));
            case ClusterMessages.FRAGMENT_STATISTICS -> {
                ClusterMessages.FragmentStatisticsRequest request;
                try {
                    request = ClusterMessages.read(action.getBody(), ClusterMessages.FragmentStatisticsRequest.class);
                }
                catch (IllegalArgumentException e) {
                    listener.onError(CallStatus.INVALID_ARGUMENT.withDescription(e.getMessage()).toRuntimeException());
                    return;
                }
                listener.onNext(new Result(ClusterMessages.write(engine.fragmentStatistics(request.queryId(), request.fragment()))));
            }
            default -> {
                listener.onError(CallStatus.UNIMPLEMENTED.withDescription("A worker has no action " + action.getType()).toRuntimeException());
                return;
            }
        }
        listener.onCompleted();
    }

    /** The worker's figures as it reports them. */
    ClusterMessages.Report report()
    {
        return ClusterMessages.Report.of(address.get(), engine.localStatus(), fragmentsRun.get(), engine.spillStore().writtenBytes());
    }

    @Override
    public void listActions(CallContext context, StreamListener<ActionType> listener)
    {
        listener.onNext(new ActionType(ClusterMessages.STATUS, "the worker's cores, memory and running tasks, as JSON"));
        listener.onNext(new ActionType(ClusterMessages.FRAGMENT_STATISTICS, "the figures of the operators of one fragment it ran, as JSON"));
        listener.onCompleted();
    }
}
