package io.ontul.server;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import io.ontul.catalog.kafka.broker.SingleNodeKafkaBroker;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;

/**
 * {@code ontul start --with-kafka}: a single-node Kafka broker in the server's process, on
 * 127.0.0.1 and port {@value #PORT} (default {@value #DEFAULT_PORT}), keeping its data in
 * {@code <data-dir>/kafka}, registered as the runtime catalog {@value #CATALOG} unless a catalog
 * of that name exists. For trying Ontul's streaming jobs without a Kafka installation; production
 * catalogs point at a real cluster.
 */
public final class EmbeddedKafkaCatalog
        implements AutoCloseable
{
    public static final String PORT = "ontul.kafka.embedded.port";
    public static final String DEFAULT_PORT = "9092";
    public static final String CATALOG = "kafka";

    private final SingleNodeKafkaBroker broker;
    private boolean closed;

    private EmbeddedKafkaCatalog(SingleNodeKafkaBroker broker)
    {
        this.broker = requireNonNull(broker, "broker is null");
    }

    /** Starts the broker; call before the server so that the catalog connects at once. */
    public static EmbeddedKafkaCatalog start(EngineConfig config, Path dataDirectory)
    {
        int port = Integer.parseInt(config.property(PORT, DEFAULT_PORT).trim());
        return new EmbeddedKafkaCatalog(SingleNodeKafkaBroker.start(dataDirectory.resolve("kafka"), port, freePort()));
    }

    public String bootstrapServers()
    {
        return broker.bootstrapServers();
    }

    /** Creates catalog {@value #CATALOG} for the broker unless one exists, and says which on {@code console}. */
    public void register(Engine engine, String adminUser, PrintStream console)
    {
        Session session = engine.createSession(adminUser);
        boolean exists = session.catalogs().catalogExists(CATALOG);
        if (exists) {
            console.println("Kafka broker on " + bootstrapServers() + "; catalog '" + CATALOG + "' already exists and is left as it is");
            return;
        }
        try (QueryResult result = session.execute("CREATE CATALOG IF NOT EXISTS " + CATALOG + " USING kafka WITH (\"kafka.bootstrap-servers\" = '" + bootstrapServers() + "')")) {
            while (result.nextBatch() != null) {
                // a DDL statement's one update count
            }
        }
        console.println("Kafka broker on " + bootstrapServers() + " registered as catalog '" + CATALOG + "'");
    }

    /** Stops the broker; later calls (the shutdown hook and the main thread both close) do nothing. */
    @Override
    public synchronized void close()
    {
        if (!closed) {
            closed = true;
            broker.close();
        }
    }

    private static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
