package io.ontul.server.auth;

import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClientMiddleware;
import org.apache.arrow.flight.auth2.Auth2Constants;
import org.apache.arrow.flight.auth2.AuthUtilities;

/** Client middleware that keeps the last bearer token a server sent back, for tests. */
final class BearerTokenCapture
        implements FlightClientMiddleware.Factory
{
    private volatile String token;

    String token()
    {
        return token;
    }

    @Override
    public FlightClientMiddleware onCallStarted(CallInfo info)
    {
        return new FlightClientMiddleware()
        {
            @Override
            public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

            @Override
            public void onHeadersReceived(CallHeaders incomingHeaders)
            {
                String bearer = AuthUtilities.getValueFromAuthHeader(incomingHeaders, Auth2Constants.BEARER_PREFIX);
                if (bearer != null) {
                    token = bearer;
                }
            }

            @Override
            public void onCallCompleted(CallStatus status) {}
        };
    }
}
