package io.ontul.server.flight;

import java.util.Optional;

import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;
import org.apache.arrow.flight.auth2.Auth2Constants;

import io.ontul.server.auth.ClientAddress;

/**
 * Remembers the credential a call came with, which names the client connection: after the
 * basic-auth handshake every call of one connection carries the same bearer token, and two
 * connections never share one. {@link ConnectionSessions} keys engine sessions on it. Also
 * remembers the network connection the call came over (the header {@link ClientAddress} writes),
 * so that results it started can be closed when that connection ends ({@link ClientTransports}).
 */
public final class ConnectionMiddleware
        implements FlightServerMiddleware
{
    public static final Key<ConnectionMiddleware> KEY = Key.of("ontul.connection");

    private final String credential;
    private final String transport;

    private ConnectionMiddleware(String credential, String transport)
    {
        this.credential = credential;
        this.transport = transport;
    }

    /** The call's network connection, named by the server; empty where none was recorded (in-process servers). */
    public Optional<String> transport()
    {
        return Optional.ofNullable(transport);
    }

    /** The Authorization header of the call, or null when it had none. */
    public String credential()
    {
        return credential;
    }

    @Override
    public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

    @Override
    public void onCallCompleted(CallStatus status) {}

    @Override
    public void onCallErrored(Throwable error) {}

    public static final class Factory
            implements FlightServerMiddleware.Factory<ConnectionMiddleware>
    {
        @Override
        public ConnectionMiddleware onCallStarted(CallInfo info, CallHeaders incomingHeaders, RequestContext context)
        {
            return new ConnectionMiddleware(incomingHeaders.get(Auth2Constants.AUTHORIZATION_HEADER), incomingHeaders.get(ClientAddress.TRANSPORT_HEADER));
        }
    }
}
