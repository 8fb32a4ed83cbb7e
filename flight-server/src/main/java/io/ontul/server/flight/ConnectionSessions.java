package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.arrow.flight.FlightProducer.CallContext;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;

/**
 * One engine {@link Session} per client connection, so that SET SESSION, USE and the default
 * catalog of one connection never reach another, even of the same user. A connection is named
 * by its credential ({@link ConnectionMiddleware}); sessions idle longer than the bearer
 * tokens live are dropped. A closed session (CloseSession) is forgotten; the connection's next
 * call starts a fresh one with no catalog, schema or session properties set.
 */
public final class ConnectionSessions
{
    private final Engine engine;
    private final Duration idleTimeout;
    private final Clock clock;
    private final Map<String, Entry> sessions = new ConcurrentHashMap<>();

    private record Entry(Session session, long lastUsedMillis) {}

    public ConnectionSessions(Engine engine, Duration idleTimeout, Clock clock)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public Session session(CallContext context)
    {
        String user = context.peerIdentity();
        if (io.ontul.server.cluster.ClusterTokens.nodeOf(user).isPresent()) {
            // the cluster secret makes a node, not a user: it runs no statements of its own
            throw new io.ontul.spi.OntulException(io.ontul.spi.ErrorCode.PERMISSION_DENIED,
                    "Cluster members cannot run SQL with the cluster secret: log in as a user");
        }
        long now = clock.millis();
        Entry entry = sessions.compute(connection(context), (key, existing) -> existing == null
                ? new Entry(engine.createSession(user), now)
                : new Entry(existing.session(), now));
        return entry.session();
    }

    /** Forgets the session of the calling connection; returns it if there was one. */
    public Optional<Session> close(CallContext context)
    {
        return Optional.ofNullable(sessions.remove(connection(context))).map(Entry::session);
    }

    /** Drops the sessions nobody used within the idle timeout and returns them. */
    public List<Session> evictIdle()
    {
        long oldest = clock.millis() - idleTimeout.toMillis();
        List<Session> evicted = new ArrayList<>();
        sessions.forEach((connection, entry) -> {
            if (entry.lastUsedMillis() < oldest && sessions.remove(connection, entry)) {
                evicted.add(entry.session());
            }
        });
        return evicted;
    }

    private static String connection(CallContext context)
    {
        ConnectionMiddleware connection = context.getMiddleware(ConnectionMiddleware.KEY);
        return connection == null || connection.credential() == null ? "user:" + context.peerIdentity() : connection.credential();
    }

    public int size()
    {
        return sessions.size();
    }
}
