package io.ontul.server.http;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The statements whose results HTTP clients are paging through. A result nobody asked a page of
 * for {@link #UNFETCHED_TIMEOUT} is closed (its query cancelled, its memory and slot given back),
 * one read to its end is forgotten a minute after its last page.
 */
final class HttpStatements
        implements AutoCloseable
{
    static final Duration UNFETCHED_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration FINISHED_TIMEOUT = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(HttpStatements.class);

    private final Map<String, HttpStatement> statements = new ConcurrentHashMap<>();
    private final java.util.function.LongSupplier nanoTime;

    HttpStatements()
    {
        this(System::nanoTime);
    }

    /** @param nanoTime the clock that statements' last access and {@link #expire} read (a test's own) */
    HttpStatements(java.util.function.LongSupplier nanoTime)
    {
        this.nanoTime = nanoTime;
    }

    java.util.function.LongSupplier clock()
    {
        return nanoTime;
    }

    void add(HttpStatement statement)
    {
        statements.put(statement.queryId(), statement);
    }

    /** The statement {@code queryId} of {@code user}: nobody else reads its pages. */
    Optional<HttpStatement> get(String queryId, String user)
    {
        return Optional.ofNullable(statements.get(queryId)).filter(statement -> statement.user().equals(user));
    }

    /** Closes and forgets the result of {@code queryId}, if one is held. */
    void remove(String queryId)
    {
        HttpStatement statement = statements.remove(queryId);
        if (statement != null) {
            statement.close();
        }
    }

    int size()
    {
        return statements.size();
    }

    /** Closes what clients stopped reading; run every few seconds. */
    void expire()
    {
        long now = nanoTime.getAsLong();
        statements.values().removeIf(statement -> {
            Duration timeout = statement.finished() ? FINISHED_TIMEOUT : UNFETCHED_TIMEOUT;
            if (now - statement.lastAccessNanos() < timeout.toNanos()) {
                return false;
            }
            if (!statement.finished()) {
                LOG.info("Closing the result of query {}: its HTTP client asked for no page in {}", statement.queryId(), timeout);
            }
            statement.close();
            return true;
        });
    }

    @Override
    public void close()
    {
        statements.values().forEach(HttpStatement::close);
        statements.clear();
    }
}
