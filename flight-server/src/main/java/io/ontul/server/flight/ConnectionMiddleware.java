package io.ontul.server.flight;

import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;
import org.apache.arrow.flight.auth2.Auth2Constants;

/**
 * Remembers the credential a call came with, which names the client connection: after the
 * basic-auth handshake every call of one connection carries the same bearer token, and two
 * connections never share one. {@link ConnectionSessions} keys engine sessions on it.
 */
public final class ConnectionMiddleware
        implements FlightServerMiddleware
{
    public static final Key<ConnectionMiddleware> KEY = Key.of("ontul.connection");

    private final String credential;

    private ConnectionMiddleware(String credential)
    {
        this.credential = credential;
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
            return new ConnectionMiddleware(incomingHeaders.get(Auth2Constants.AUTHORIZATION_HEADER));
        }
    }
}
