package io.ontul.server.auth;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Optional;
import java.util.concurrent.Executor;

import org.apache.arrow.flight.CallHeaders;

import io.grpc.Context;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;

/**
 * The IP address a call comes from, for counting failed logins per address. Arrow's
 * authenticators see only the call's headers, and Arrow installs them ahead of any interceptor
 * of ours, so the address travels as a header: gRPC asks this supplier for each call's executor
 * before any interceptor runs, with the call (whose transport knows the remote address) and its
 * headers; it replaces whatever value of {@value #HEADER} the client sent with the real one and
 * leaves the executor as it is. {@link JwtCallHeaderAuthenticator} puts the header's value into
 * the context for {@link PasswordValidator}.
 */
public final class ClientAddress
        implements ServerCallExecutorSupplier
{
    static final String HEADER = "x-ontul-client-address";
    static final Context.Key<String> KEY = Context.key("ontul-client-address");
    private static final Metadata.Key<String> METADATA_KEY = Metadata.Key.of(HEADER, Metadata.ASCII_STRING_MARSHALLER);

    /** The address of the call being authenticated on this thread, if known. */
    static Optional<String> current()
    {
        return Optional.ofNullable(KEY.get());
    }

    /** The address the server recorded in a call's headers. */
    static Optional<String> of(CallHeaders headers)
    {
        return Optional.ofNullable(headers.get(HEADER));
    }

    @Override
    public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata headers)
    {
        headers.removeAll(METADATA_KEY);
        SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        if (remote instanceof InetSocketAddress address) {
            headers.put(METADATA_KEY, address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress());
        }
        // the server's own executor
        return null;
    }
}
