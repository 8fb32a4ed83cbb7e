package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.net.SocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.ServerTransportFilter;
import io.ontul.server.auth.ClientAddress;

/**
 * The client network connections (gRPC transports) that are open, named as
 * {@link ClientAddress#transportOf} names them. When one ends (the client closed it, crashed or
 * the network dropped it) the listeners hear its name: a JDBC connection closed while its query
 * sits between GetFlightInfo and DoGet leaves no result running for ten minutes.
 */
public final class ClientTransports
        extends ServerTransportFilter
{
    private final Set<String> open = ConcurrentHashMap.newKeySet();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    public void onTerminated(Consumer<String> listener)
    {
        listeners.add(requireNonNull(listener, "listener is null"));
    }

    /** False once the connection so named has ended; a name the server never saw is not open either. */
    public boolean isOpen(String transport)
    {
        return open.contains(transport);
    }

    @Override
    public Attributes transportReady(Attributes attributes)
    {
        name(attributes).ifPresent(open::add);
        return attributes;
    }

    @Override
    public void transportTerminated(Attributes attributes)
    {
        name(attributes).ifPresent(transport -> {
            open.remove(transport);
            listeners.forEach(listener -> listener.accept(transport));
        });
    }

    private static java.util.Optional<String> name(Attributes attributes)
    {
        if (attributes == null) {
            // a transport that ended before its handshake (a TLS client on a plain port) has none
            return java.util.Optional.empty();
        }
        SocketAddress remote = attributes.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        return java.util.Optional.ofNullable(remote).map(ClientAddress::transportOf);
    }
}
