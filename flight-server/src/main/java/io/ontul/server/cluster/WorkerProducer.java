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
 * {@link ClusterCallAuthenticator}); action {@value ClusterMessages#STATUS} answers with the
 * worker's figures.
 */
final class WorkerProducer
        extends NoOpFlightProducer
{
    private final Engine engine;
    private final java.util.function.Supplier<String> address;

    /** @param address where the worker serves, once its server runs */
    WorkerProducer(Engine engine, java.util.function.Supplier<String> address)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.address = requireNonNull(address, "address is null");
    }

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener)
    {
        if (!action.getType().equals(ClusterMessages.STATUS)) {
            listener.onError(CallStatus.UNIMPLEMENTED.withDescription("A worker has no action " + action.getType()).toRuntimeException());
            return;
        }
        listener.onNext(new Result(ClusterMessages.write(ClusterMessages.Report.of(address.get(), engine.localStatus()))));
        listener.onCompleted();
    }

    @Override
    public void listActions(CallContext context, StreamListener<ActionType> listener)
    {
        listener.onNext(new ActionType(ClusterMessages.STATUS, "the worker's cores, memory and running tasks, as JSON"));
        listener.onCompleted();
    }
}
