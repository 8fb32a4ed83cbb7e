package io.ontul.server.cluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A worker's Flight client to its coordinator: registration and heartbeats, each call signed
 * with a fresh cluster token.
 */
public final class CoordinatorClient
        implements AutoCloseable
{
    /** A PEM file of the certificates a node trusts for the other nodes' TLS endpoints (else the JVM's). */
    public static final String TLS_ROOT_CERTIFICATES = "ontul.cluster.tls.root-certificates";
    private static final long CALL_TIMEOUT_SECONDS = 10;

    private final FlightClient client;
    private final ClusterTokens tokens;
    private final String nodeId;
    private final Location location;

    public CoordinatorClient(BufferAllocator allocator, Location location, Optional<Path> rootCertificates, ClusterTokens tokens, String nodeId)
            throws IOException
    {
        this.location = requireNonNull(location, "location is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.nodeId = requireNonNull(nodeId, "nodeId is null");
        FlightClient.Builder builder = FlightClient.builder(allocator, location);
        if (rootCertificates.isPresent()) {
            try (InputStream certificates = Files.newInputStream(rootCertificates.get())) {
                builder.trustedCertificates(certificates);
                this.client = builder.build();
            }
        }
        else {
            this.client = builder.build();
        }
    }

    /**
     * The coordinator's Flight location: {@code host:port} (plain gRPC), or a URI
     * {@code grpc+tcp://host:port} or {@code grpc+tls://host:port}.
     *
     * @throws OntulException INVALID_ARGUMENT naming the setting when it is neither
     */
    public static Location parseLocation(String text, String setting)
    {
        try {
            if (text.contains("://")) {
                URI uri = new URI(text);
                if (!uri.getScheme().equals("grpc+tcp") && !uri.getScheme().equals("grpc+tls") && !uri.getScheme().equals("grpc")) {
                    throw new IllegalArgumentException("scheme " + uri.getScheme());
                }
                return new Location(uri);
            }
            int colon = text.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("no port");
            }
            return Location.forGrpcInsecure(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        }
        catch (java.net.URISyntaxException | RuntimeException e) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid %s '%s': expected host:port, grpc+tcp://host:port or grpc+tls://host:port", setting, text);
        }
    }

    public Location location()
    {
        return location;
    }

    /** Joins the cluster (again). */
    public void register(ClusterMessages.Report report)
    {
        call(ClusterMessages.REGISTER, report);
    }

    /** Reports; false when the coordinator does not know this worker (it must register again). */
    public boolean heartbeat(ClusterMessages.Report report)
    {
        return call(ClusterMessages.HEARTBEAT, report).known();
    }

    private ClusterMessages.HeartbeatReply call(String type, ClusterMessages.Report report)
    {
        CallHeaders headers = new FlightCallHeaders();
        headers.insert(ClusterTokens.HEADER, tokens.issue(nodeId));
        Iterator<Result> results = client.doAction(new Action(type, ClusterMessages.write(report)), new HeaderCallOption(headers), CallOptions.timeout(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        ClusterMessages.HeartbeatReply reply = new ClusterMessages.HeartbeatReply(false);
        while (results.hasNext()) {
            reply = ClusterMessages.read(results.next().getBody(), ClusterMessages.HeartbeatReply.class);
        }
        return reply;
    }

    @Override
    public void close()
            throws InterruptedException
    {
        client.close();
    }
}
