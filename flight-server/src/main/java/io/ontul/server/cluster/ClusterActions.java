package io.ontul.server.cluster;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightProducer.StreamListener;
import org.apache.arrow.flight.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.cluster.ClusterMembership;
import io.ontul.spi.OntulException;

/**
 * The coordinator's side of membership: the Flight actions {@value ClusterMessages#REGISTER}
 * and {@value ClusterMessages#HEARTBEAT}, accepted from cluster members only (a user's call is
 * refused and logged, whoever the user is).
 */
public final class ClusterActions
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterActions.class);

    private final ClusterMembership membership;

    public ClusterActions(ClusterMembership membership)
    {
        this.membership = requireNonNull(membership, "membership is null");
    }

    public static boolean handles(String actionType)
    {
        return actionType.equals(ClusterMessages.REGISTER) || actionType.equals(ClusterMessages.HEARTBEAT);
    }

    public void handle(CallContext context, Action action, StreamListener<Result> listener)
    {
        Optional<String> node = ClusterTokens.nodeOf(context.peerIdentity());
        if (node.isEmpty()) {
            LOG.warn("Refused {} from user '{}': only cluster members (with the cluster secret) may call it", action.getType(), context.peerIdentity());
            listener.onError(CallStatus.UNAUTHENTICATED.withDescription(action.getType() + " is for the members of the cluster, who call it with the cluster secret").toRuntimeException());
            return;
        }
        try {
            ClusterMessages.Report report = ClusterMessages.read(action.getBody(), ClusterMessages.Report.class);
            byte[] reply;
            if (action.getType().equals(ClusterMessages.REGISTER)) {
                membership.register(node.get(), report.address(), report.status());
                reply = ClusterMessages.write(new ClusterMessages.HeartbeatReply(true));
            }
            else {
                reply = ClusterMessages.write(new ClusterMessages.HeartbeatReply(membership.heartbeat(node.get(), report.status())));
            }
            listener.onNext(new Result(reply));
            listener.onCompleted();
        }
        catch (IllegalArgumentException | OntulException e) {
            LOG.warn("Refused {} from node {}: {}", action.getType(), node.get(), e.getMessage());
            listener.onError(CallStatus.INVALID_ARGUMENT.withDescription(e.getMessage()).toRuntimeException());
        }
    }
}
