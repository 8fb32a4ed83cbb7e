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
 * The IP address a call comes from, for counting failed logins per address, and the client
 * connection (transport) it came over, so that what a connection started can be ended when it
 * goes away ({@code ClientTransports}). Arrow's
 * authenticators see only the call's headers, and Arrow installs them ahead of any interceptor
 * of ours, so the address travels as a header: gRPC asks this supplier for each call's executor
 * before any interceptor runs, with the call (whose transport knows the remote address) and its
 * headers; it replaces whatever values of {@value #HEADER} and {@value #TRANSPORT_HEADER} the
 * client sent with the real ones and leaves the executor as it is.
 * {@link JwtCallHeaderAuthenticator} puts the address into the context for
 * {@link PasswordValidator}; {@code ConnectionMiddleware} keeps the transport.
 */
public final class ClientAddress
        implements ServerCallExecutorSupplier
{
    static final String HEADER = "x-ontul-client-address";
    /** The remote socket address of the call's connection, as {@link #transportOf(SocketAddress)} names it. */
    public static final String TRANSPORT_HEADER = "x-ontul-client-transport";
    static final Context.Key<String> KEY = Context.key("ontul-client-address");
    private static final Metadata.Key<String> METADATA_KEY = Metadata.Key.of(HEADER, Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> TRANSPORT_KEY = Metadata.Key.of(TRANSPORT_HEADER, Metadata.ASCII_STRING_MARSHALLER);

    /** The address of the call being authenticated on this thread, if known. */
    static Optional<String> current()
    {
        return Optional.ofNullable(KEY.get());
    }

    /** The address the server recorded in a call's headers. */
    public static Optional<String> of(CallHeaders headers)
    {
        return Optional.ofNullable(headers.get(HEADER));
    }

    /** The name of a client connection: its remote socket address, unique among open connections. */
    public static String transportOf(SocketAddress remote)
    {
        return remote.toString();
    }

    @Override
    public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata headers)
    {
        headers.removeAll(METADATA_KEY);
        headers.removeAll(TRANSPORT_KEY);
        SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        if (remote != null) {
            headers.put(TRANSPORT_KEY, transportOf(remote));
        }
        if (remote instanceof InetSocketAddress address) {
            headers.put(METADATA_KEY, address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress());
        }
        // the server's own executor
        return null;
    }
}
