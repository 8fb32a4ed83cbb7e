package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;


import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.Auth2Constants;
import org.apache.arrow.flight.auth2.AuthUtilities;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;


/**
 * Authenticates every Flight call from its {@code Authorization} header.
 * <ul>
 * <li>{@code Basic} (the handshake of a new connection): the password is checked by
 *     {@code passwordAuthenticator} and the response carries a new signed token in
 *     {@code Authorization: Bearer ...}. Each login gets a token of its own, which names the
 *     connection's engine session.</li>
 * <li>{@code Bearer}: the token's signature and expiry are checked and its user must still
 *     exist; the response echoes the token. No password check, no state on the server.</li>
 * </ul>
 * Anything else fails with {@code UNAUTHENTICATED} and a message naming the problem.
 */
public final class JwtCallHeaderAuthenticator
        implements CallHeaderAuthenticator
{
    private final CallHeaderAuthenticator passwordAuthenticator;
    private final Logins logins;

    public JwtCallHeaderAuthenticator(Logins logins)
    {
        this.logins = requireNonNull(logins, "logins is null");
        this.passwordAuthenticator = new BasicCallHeaderAuthenticator(logins.passwords());
    }

    @Override
    public AuthResult authenticate(CallHeaders incomingHeaders)
    {
        String bearer = AuthUtilities.getValueFromAuthHeader(incomingHeaders, Auth2Constants.BEARER_PREFIX);
        if (bearer != null) {
            return withToken(logins.verify(bearer).user(), bearer);
        }
        if (AuthUtilities.getValueFromAuthHeader(incomingHeaders, Auth2Constants.BASIC_PREFIX) == null) {
            throw CallStatus.UNAUTHENTICATED
                    .withDescription("Missing credentials: log in with a user name and password (Authorization: Basic) or send a token (Authorization: Bearer)")
                    .toRuntimeException();
        }
        // the password check counts failures per client address too (see ClientAddress)
        io.grpc.Context withAddress = ClientAddress.of(incomingHeaders)
                .map(address -> io.grpc.Context.current().withValue(ClientAddress.KEY, address))
                .orElse(io.grpc.Context.current());
        io.grpc.Context previous = withAddress.attach();
        String user;
        try {
            user = passwordAuthenticator.authenticate(incomingHeaders).getPeerIdentity();
        }
        finally {
            withAddress.detach(previous);
        }
        return withToken(user, logins.issue(user));
    }

    private static AuthResult withToken(String user, String token)
    {
        return new AuthResult()
        {
            @Override
            public String getPeerIdentity()
            {
                return user;
            }

            @Override
            public void appendToOutgoingHeaders(CallHeaders outgoingHeaders)
            {
                if (AuthUtilities.getValueFromAuthHeader(outgoingHeaders, Auth2Constants.BEARER_PREFIX) == null) {
                    outgoingHeaders.insert(Auth2Constants.AUTHORIZATION_HEADER, Auth2Constants.BEARER_PREFIX + token);
                }
            }
        };
    }
}
