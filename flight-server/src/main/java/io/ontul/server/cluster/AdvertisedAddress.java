package io.ontul.server.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.apache.arrow.flight.Location;

import io.ontul.engine.api.EngineConfig;

/**
 * Where the other members of a cluster reach this node: {@value #ADVERTISED_HOST}, else the
 * host it listens on, else (when it listens on every interface, 0.0.0.0 or ::) this machine's
 * address as the JVM resolves its host name: a container's or pod's own address.
 */
public final class AdvertisedAddress
{
    public static final String ADVERTISED_HOST = "ontul.cluster.advertised-host";

    private AdvertisedAddress() {}

    /** The URI of a node listening on {@code host}:{@code port}, as the cluster should call it. */
    public static String of(EngineConfig config, String host, int port, boolean tls)
    {
        String advertised = config.property(ADVERTISED_HOST, "").trim();
        if (advertised.isEmpty()) {
            advertised = host;
            if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
                try {
                    advertised = InetAddress.getLocalHost().getHostAddress();
                }
                catch (UnknownHostException e) {
                    advertised = "localhost";
                }
            }
        }
        return (tls ? Location.forGrpcTls(advertised, port) : Location.forGrpcInsecure(advertised, port)).getUri().toString();
    }
}
