package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.arrow.flight.FlightProducer.CallContext;

import io.ontul.engine.Engine;
import io.ontul.engine.Session;

/**
 * One engine {@link Session} per client connection, so that SET SESSION, USE and the default
 * catalog of one connection never reach another, even of the same user. A connection is named
 * by its credential ({@link ConnectionMiddleware}); sessions idle longer than the bearer
 * tokens live are dropped.
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
        ConnectionMiddleware connection = context.getMiddleware(ConnectionMiddleware.KEY);
        String credential = connection == null || connection.credential() == null ? "user:" + user : connection.credential();
        long now = clock.millis();
        Entry entry = sessions.compute(credential, (key, existing) -> existing == null
                ? new Entry(engine.createSession(user), now)
                : new Entry(existing.session(), now));
        return entry.session();
    }

    /** Drops the sessions nobody used within the idle timeout. */
    public void evictIdle()
    {
        long oldest = clock.millis() - idleTimeout.toMillis();
        sessions.values().removeIf(entry -> entry.lastUsedMillis() < oldest);
    }

    public int size()
    {
        return sessions.size();
    }
}
