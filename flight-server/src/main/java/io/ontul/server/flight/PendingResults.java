package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.arrow.flight.CallStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;

/**
 * Query results between GetFlightInfo and DoGet. GetFlightInfo starts the query and parks its
 * result under a random handle (the ticket); DoGet takes it out exactly once, and only from the
 * session that started it. Results nobody fetches within the timeout are closed, which cancels
 * their query and frees its memory. A taken result stays known until its stream is
 * {@linkplain #finished finished}, so that a client can still {@linkplain #cancel cancel} it.
 * When the client connection that parked a result ends, the result is closed at once, and when
 * the prepared statement a result was executed from is closed, the result is closed or its
 * stream cancelled too (JDBC: closing a statement closes its result set).
 */
public final class PendingResults
        implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PendingResults.class);

    private final Duration timeout;
    private final Clock clock;
    private final Map<ByteString, Entry> results = new ConcurrentHashMap<>();
    private final Map<ByteString, Entry> streaming = new ConcurrentHashMap<>();

    /** @param preparedStatement the handle of the prepared statement the result was executed from, if any */
    private record Entry(Session session, QueryResult result, long createdMillis, Optional<String> transport, Optional<ByteString> preparedStatement) {}

    public PendingResults(Duration timeout, Clock clock)
    {
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Parks a started result until its ticket is fetched.
     *
     * @param transport the client connection that asked for it (see {@link #closeAll(String)}), if known
     */
    public ByteString park(Session session, QueryResult result, Optional<String> transport)
    {
        return park(session, result, transport, Optional.empty());
    }

    /**
     * Parks a started result of a prepared statement until its ticket is fetched.
     *
     * @param preparedStatement the prepared statement's handle (see {@link #closeAll(Session, ByteString)})
     */
    public ByteString park(Session session, QueryResult result, Optional<String> transport, Optional<ByteString> preparedStatement)
    {
        ByteString handle = newHandle();
        results.put(handle, new Entry(requireNonNull(session, "session is null"), requireNonNull(result, "result is null"), clock.millis(),
                requireNonNull(transport, "transport is null"), requireNonNull(preparedStatement, "preparedStatement is null")));
        return handle;
    }

    /** Removes and returns the result, which the caller then owns and must close. */
    public QueryResult take(Session session, ByteString handle)
    {
        Entry entry = results.get(handle);
        if (entry == null || entry.session() != session) {
            throw CallStatus.NOT_FOUND.withDescription("Unknown or already fetched query ticket").toRuntimeException();
        }
        // known as streaming before it leaves the parked ones: a closeAll running meanwhile finds
        // it in one map or the other, never in neither (it would have streamed on for nobody)
        streaming.put(handle, entry);
        if (!results.remove(handle, entry)) {
            // taken or closed meanwhile
            streaming.remove(handle, entry);
            throw CallStatus.NOT_FOUND.withDescription("Unknown or already fetched query ticket").toRuntimeException();
        }
        return entry.result();
    }

    /** The stream of a taken result ended; its owner closes it. */
    public void finished(ByteString handle)
    {
        streaming.remove(handle);
    }

    /**
     * Cancels the query of a ticket of this session: closes it if nobody took it yet, else asks
     * the streaming query to stop.
     *
     * @return false if the ticket is unknown or its stream already ended
     */
    public boolean cancel(Session session, ByteString handle)
    {
        Entry parked = results.get(handle);
        if (parked != null && parked.session() == session && results.remove(handle, parked)) {
            abandon(parked.result());
            return true;
        }
        Entry running = streaming.get(handle);
        if (running != null && running.session() == session) {
            running.result().cancel();
            return true;
        }
        return false;
    }

    /** Closes the parked results of a session and cancels its streaming ones. */
    public void closeAll(Session session)
    {
        results.forEach((handle, entry) -> {
            if (entry.session() == session && results.remove(handle, entry)) {
                abandon(entry.result());
            }
        });
        streaming.values().stream()
                .filter(entry -> entry.session() == session)
                .forEach(entry -> entry.result().cancel());
    }

    /** The prepared statement of this session so named was closed: closes its parked results and cancels its streaming ones. */
    public void closeAll(Session session, ByteString preparedStatement)
    {
        results.forEach((handle, entry) -> {
            if (entry.session() == session && entry.preparedStatement().filter(preparedStatement::equals).isPresent() && results.remove(handle, entry)) {
                abandon(entry.result());
            }
        });
        streaming.values().stream()
                .filter(entry -> entry.session() == session && entry.preparedStatement().filter(preparedStatement::equals).isPresent())
                .forEach(entry -> entry.result().cancel());
    }

    /**
     * The client connection so named ended: closes the results it parked, which nobody can fetch
     * over it any more, and cancels the streams it was reading.
     */
    public void closeAll(String transport)
    {
        results.forEach((handle, entry) -> {
            if (entry.transport().filter(transport::equals).isPresent() && results.remove(handle, entry)) {
                abandon(entry.result());
            }
        });
        streaming.values().stream()
                .filter(entry -> entry.transport().filter(transport::equals).isPresent())
                .forEach(entry -> entry.result().cancel());
    }

    public void closeExpired()
    {
        long oldest = clock.millis() - timeout.toMillis();
        results.forEach((handle, entry) -> {
            if (entry.createdMillis() < oldest && results.remove(handle, entry)) {
                LOG.warn("Closing result of query {}: nobody fetched it within {}", entry.result().queryId(), timeout);
                abandon(entry.result());
            }
        });
    }

    public int size()
    {
        return results.size();
    }

    @Override
    public void close()
    {
        results.keySet().forEach(handle -> {
            Entry entry = results.remove(handle);
            if (entry != null) {
                abandon(entry.result());
            }
        });
    }

    static ByteString newHandle()
    {
        UUID uuid = UUID.randomUUID();
        ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        return ByteString.copyFrom(bytes.array());
    }

    /** Ends a result nobody will read: its query is CANCELLED, its memory freed. */
    static void abandon(QueryResult result)
    {
        try {
            result.cancel();
        }
        catch (RuntimeException e) {
            LOG.warn("Cancelling query {} failed", result.queryId(), e);
        }
        closeQuietly(result);
    }

    static void closeQuietly(QueryResult result)
    {
        try {
            result.close();
        }
        catch (RuntimeException e) {
            LOG.warn("Closing result of query {} failed", result.queryId(), e);
        }
    }
}
