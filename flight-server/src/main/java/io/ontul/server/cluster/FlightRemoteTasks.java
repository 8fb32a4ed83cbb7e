package io.ontul.server.cluster;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.server.flight.ErrorMapping;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.cluster.FragmentRequest;
import io.ontul.spi.cluster.OperatorFigures;
import io.ontul.spi.cluster.RemoteStream;
import io.ontul.spi.cluster.RemoteTasks;

/**
 * The coordinator's transport to its workers over Arrow Flight: a fragment starts with a DoGet
 * whose ticket is the {@link FragmentRequest} as JSON, signed with the cluster secret, and its
 * rows come back on that stream with gRPC's flow control (a coordinator that stops reading holds
 * the worker back). One Flight client per worker, kept while the worker is known.
 */
public final class FlightRemoteTasks
        implements RemoteTasks, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(FlightRemoteTasks.class);

    private final BufferAllocator allocator;
    private final ClusterTokens tokens;
    private final String nodeId;
    private final Map<String, FlightClient> clients = new ConcurrentHashMap<>();
    private final java.util.function.BiConsumer<String, String> lostWorkers;
    private final java.util.Optional<java.nio.file.Path> rootCertificates;
    private volatile boolean closed;

    /**
     * @param allocator where incoming batches land before they move into the reading query's memory
     * @param nodeId the coordinator's node id, the subject of its cluster tokens
     * @param lostWorkers told the id of a worker that could not be reached, and why (it is then
     *        declared dead at once rather than after its heartbeats stop)
     * @param rootCertificates a PEM file of the certificates to trust for the workers' TLS
     *        endpoints (else the JVM's)
     */
    public FlightRemoteTasks(BufferAllocator allocator, ClusterTokens tokens, String nodeId, java.util.function.BiConsumer<String, String> lostWorkers,
            java.util.Optional<java.nio.file.Path> rootCertificates)
    {
        this.rootCertificates = requireNonNull(rootCertificates, "rootCertificates is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.nodeId = requireNonNull(nodeId, "nodeId is null");
        this.lostWorkers = requireNonNull(lostWorkers, "lostWorkers is null");
    }

    @Override
    public RemoteStream open(String workerId, String address, FragmentRequest request)
    {
        Source source = new Source(workerId, address);
        FlightClient client = client(address);
        try {
            FlightStream stream = client.getStream(new Ticket(ClusterMessages.write(request)), signed());
            return new FlightRemoteStream(stream, source);
        }
        catch (FlightRuntimeException e) {
            throw translate(e, source);
        }
    }

    /** Where a stream comes from. */
    private record Source(String workerId, String address)
    {
        @Override
        public String toString()
        {
            return "worker " + workerId + " at " + address;
        }
    }

    @Override
    public List<OperatorFigures> statistics(String workerId, String address, String queryId, int fragment)
    {
        CallHeaders headers = new FlightCallHeaders();
        headers.insert(ClusterTokens.HEADER, tokens.issue(nodeId));
        try {
            java.util.Iterator<org.apache.arrow.flight.Result> results = client(address).doAction(new org.apache.arrow.flight.Action(ClusterMessages.FRAGMENT_STATISTICS,
                    ClusterMessages.write(new ClusterMessages.FragmentStatisticsRequest(queryId, fragment))), new HeaderCallOption(headers));
            List<OperatorFigures> figures = List.of();
            while (results.hasNext()) {
                figures = List.of(ClusterMessages.read(results.next().getBody(), OperatorFigures[].class));
            }
            return figures;
        }
        catch (RuntimeException e) {
            LOG.debug("No figures of fragment {} of query {} from worker {}: {}", fragment, queryId, workerId, e.getMessage());
            return List.of();
        }
    }

    /** The cluster token of a call from this node, fresh. */
    HeaderCallOption signed()
    {
        CallHeaders headers = new FlightCallHeaders();
        headers.insert(ClusterTokens.HEADER, tokens.issue(nodeId));
        return new HeaderCallOption(headers);
    }

    /** The Flight client of the node at {@code address}, one per node. */
    FlightClient client(String address)
    {
        if (closed) {
            throw new OntulException(ErrorCode.QUERY_CANCELLED, "The coordinator is shutting down");
        }
        return clients.computeIfAbsent(address, key -> {
            FlightClient.Builder builder = FlightClient.builder(allocator, new Location(java.net.URI.create(key)));
            if (key.startsWith("grpc+tls:") && rootCertificates.isPresent()) {
                try (java.io.InputStream certificates = java.nio.file.Files.newInputStream(rootCertificates.get())) {
                    return builder.trustedCertificates(certificates).build();
                }
                catch (java.io.IOException e) {
                    throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot read " + CoordinatorClient.TLS_ROOT_CERTIFICATES + " " + rootCertificates.get() + ": " + e.getMessage(), e);
                }
            }
            return builder.build();
        });
    }

    /** A new batch in {@code target} holding the buffers of {@code root}, moved (not copied): {@code root} is left empty. */
    static VectorSchemaRoot moveInto(VectorSchemaRoot root, BufferAllocator target)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(root.getSchema(), target);
        try {
            List<FieldVector> vectors = root.getFieldVectors();
            for (int column = 0; column < vectors.size(); column++) {
                vectors.get(column).makeTransferPair(batch.getVector(column)).transfer();
            }
            batch.setRowCount(root.getRowCount());
            return batch;
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    /** Forgets the client of a worker that died (the next query to it connects again). */
    public void forget(String address)
    {
        FlightClient client = clients.remove(address);
        if (client != null) {
            closeQuietly(client);
        }
    }

    /**
     * A worker's failure as the query's: its own error code and message; WORKER_LOST naming the
     * worker when it cannot be reached (and it is declared dead); else EXTERNAL_ERROR naming it.
     */
    private OntulException translate(FlightRuntimeException e, Source source)
    {
        return translate(e, source.workerId(), source.address(), "part of the query");
    }

    /**
     * A failure of a call to worker {@code workerId} while it ran {@code what}, as
     * {@link #translate(FlightRuntimeException, Source)} makes it.
     */
    OntulException translate(FlightRuntimeException e, String workerId, String address, String what)
    {
        Source source = new Source(workerId, address);
        org.apache.arrow.flight.ErrorFlightMetadata metadata = e.status().metadata();
        String code = metadata == null || !metadata.containsKey(ErrorMapping.ERROR_CODE_HEADER) ? null : metadata.get(ErrorMapping.ERROR_CODE_HEADER);
        if (code != null) {
            try {
                return new OntulException(ErrorCode.valueOf(code), e.getMessage());
            }
            catch (IllegalArgumentException unknown) {
                // a worker of another version: reported as its failure below
            }
        }
        if (e.status().code() == FlightStatusCode.CANCELLED) {
            return new OntulException(ErrorCode.QUERY_CANCELLED, "The call to " + source + " for " + what + " was cancelled: " + e.getMessage());
        }
        if (e.status().code() == FlightStatusCode.UNAVAILABLE || e.status().code() == FlightStatusCode.TIMED_OUT) {
            String message = "Lost " + source + " while it ran " + what + ": " + e.getMessage();
            lostWorkers.accept(source.workerId(), message);
            return new OntulException(ErrorCode.WORKER_LOST, message, e);
        }
        return new OntulException(ErrorCode.EXTERNAL_ERROR, source + " failed to run " + what + ": " + e.getMessage(), e);
    }

    @Override
    public void close()
    {
        closed = true;
        List<FlightClient> open = List.copyOf(clients.values());
        clients.clear();
        open.forEach(FlightRemoteTasks::closeQuietly);
    }

    private static void closeQuietly(FlightClient client)
    {
        try {
            client.close();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (RuntimeException e) {
            LOG.debug("Closing a worker's Flight client failed", e);
        }
    }

    /** One worker's output: each batch's buffers move (not copied) into the reading query's allocator. */
    private final class FlightRemoteStream
            implements RemoteStream
    {
        private final FlightStream stream;
        private final Source source;
        private boolean ended;
        private long producerExchangedBytes;

        @Override
        public long producerExchangedBytes()
        {
            return producerExchangedBytes;
        }

        FlightRemoteStream(FlightStream stream, Source source)
        {
            this.stream = stream;
            this.source = source;
        }

        @Override
        public VectorSchemaRoot next(BufferAllocator target)
        {
            try {
                while (true) {
                    if (!stream.next()) {
                        ended = true;
                        return null;
                    }
                    org.apache.arrow.memory.ArrowBuf metadata = stream.getLatestMetadata();
                    if (metadata == null || stream.getRoot().getRowCount() > 0) {
                        break;
                    }
                    // the fragment's trailer: what it received from its peers
                    producerExchangedBytes += io.ontul.server.flight.ResultStreamer.exchangedBytes(FlightStreamTransport.bytes(metadata));
                }
            }
            catch (FlightRuntimeException e) {
                ended = true;
                throw translate(e, source);
            }
            return moveInto(stream.getRoot(), target);
        }

        @Override
        public void cancel()
        {
            try {
                stream.cancel("the query was cancelled", null);
            }
            catch (RuntimeException e) {
                LOG.debug("Cancelling the stream of {} failed", source, e);
            }
        }

        @Override
        public void close()
        {
            try {
                if (!ended) {
                    // stops the fragment on the worker: its stream's call is cancelled
                    stream.cancel("the coordinator no longer needs the rows", null);
                }
                stream.close();
            }
            catch (Exception e) {
                LOG.debug("Closing the stream of {} failed", source, e);
            }
        }
    }
}
