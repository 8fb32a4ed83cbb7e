package io.ontul.server.cluster;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.server.auth.ClientAddress;
import io.ontul.server.auth.InvalidTokenException;

/**
 * Authenticates the calls of a cluster member: a call with a {@value ClusterTokens#HEADER}
 * header is a node's, accepted when its token was signed with the cluster secret (the peer
 * identity is then {@code node:<id>}); any other call goes to the users' authenticator, which a
 * worker does not have — a worker accepts cluster members only. Every refused cluster call is
 * logged with the caller's address.
 */
public final class ClusterCallAuthenticator
        implements CallHeaderAuthenticator
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCallAuthenticator.class);

    private final Optional<ClusterTokens> tokens;
    private final Optional<CallHeaderAuthenticator> users;

    /**
     * @param tokens the cluster's tokens; empty when no cluster secret is set (cluster calls are refused)
     * @param users how users log in; empty on a worker
     */
    public ClusterCallAuthenticator(Optional<ClusterTokens> tokens, Optional<CallHeaderAuthenticator> users)
    {
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.users = requireNonNull(users, "users is null");
    }

    @Override
    public AuthResult authenticate(CallHeaders incomingHeaders)
    {
        String token = incomingHeaders.get(ClusterTokens.HEADER);
        if (token == null) {
            if (users.isPresent()) {
                return users.get().authenticate(incomingHeaders);
            }
            throw refused(incomingHeaders, "This is an Ontul worker: it accepts calls from the members of its cluster only, not from clients; connect to the coordinator");
        }
        if (tokens.isEmpty()) {
            throw refused(incomingHeaders, "This node takes no cluster members: ontul.cluster.secret is not set here");
        }
        String nodeId;
        try {
            nodeId = tokens.get().verify(token);
        }
        catch (InvalidTokenException e) {
            throw refused(incomingHeaders, "Cluster call refused: its token was not signed with this cluster's secret, or has expired (" + e.getMessage() + ")");
        }
        String identity = ClusterTokens.NODE_IDENTITY_PREFIX + nodeId;
        return () -> identity;
    }

    private static RuntimeException refused(CallHeaders headers, String message)
    {
        LOG.warn("Refused a call from {}: {}", ClientAddress.of(headers).orElse("an unknown address"), message);
        return CallStatus.UNAUTHENTICATED.withDescription(message).toRuntimeException();
    }
}
