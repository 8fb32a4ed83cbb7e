package io.ontul.engine.query;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;

import io.ontul.spi.OntulException;

/**
 * One statement in the {@link QueryRegistry}, from {@code Session.execute} until it is done.
 * <p>
 * Protocol for the thread that runs the statement: {@link QueryRegistry#register} it; then call
 * {@link #start()} if it needs no slot (SHOW, SET, USE), or {@link #admit} before it opens
 * operators, which may wait QUEUED; {@link #attach} every {@link QueryContext} it opens (the
 * context calls {@link #detach} when it closes); end with {@link #finish} or {@link #fail}, or
 * hand its streaming result to a {@link TrackedQueryResult}, which ends it when the result is
 * read to the end, fails or is closed. Any thread may end it earlier ({@link QueryRegistry#kill},
 * the run-time limit): that cancels its context, whose operators then fail with the reason.
 * The first final state wins; later calls change nothing.
 */
public final class TrackedQuery
{
    private final QueryRegistry registry;
    private final String queryId;
    private final String user;
    private final String sql;
    private final Instant created = Instant.now();
    private final long createdNanos = System.nanoTime();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    // guarded by the registry's lock
    QueryState state = QueryState.QUEUED;
    long endNanos;
    String error;
    OntulException cancellation;
    QueryContext context;
    long peakMemory;
    long spilledBytes;
    long spillFiles;
    long exchangedBytes;
    boolean holdsSlot;
    ScheduledFuture<?> timeout;
    // set under the registry's lock with the final state; read without it by throwIfEnded
    volatile boolean ended;

    TrackedQuery(QueryRegistry registry, String queryId, String user, String sql)
    {
        this.registry = requireNonNull(registry, "registry is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.user = requireNonNull(user, "user is null");
        this.sql = requireNonNull(sql, "sql is null");
    }

    public String queryId()
    {
        return queryId;
    }

    public String user()
    {
        return user;
    }

    /** Runs a statement that takes no slot: QUEUED becomes RUNNING at once. */
    public void start()
    {
        registry.admit(this, false);
    }

    /**
     * Waits, QUEUED, for a slot when {@code takesSlot} and the engine already runs as many
     * queries as it may; then RUNNING. Does nothing when already running.
     *
     * @throws OntulException QUERY_QUEUE_FULL when the queue is full, or the reason the query
     *         was cancelled while it waited
     */
    public void admit(boolean takesSlot)
    {
        registry.admit(this, takesSlot);
    }

    /**
     * Throws the reason the statement was ended by someone else (killed, out of run time), for
     * work that has no context to be cancelled through yet (planning).
     */
    public void throwIfEnded()
    {
        if (ended) {
            registry.throwIfEnded(this);
        }
    }

    public void attach(QueryContext context)
    {
        registry.attach(this, context);
    }

    public void detach(QueryContext context)
    {
        registry.detach(this, context);
    }

    /** Counts a batch returned to the client. */
    public void recordOutput(long rowCount, long byteCount)
    {
        rows.addAndGet(rowCount);
        bytes.addAndGet(byteCount);
    }

    /** Ends the statement as FINISHED, its output being {@code rowCount} rows (or the update count). */
    public void finish(long rowCount, long byteCount)
    {
        rows.set(rowCount);
        bytes.set(byteCount);
        finish();
    }

    public void finish()
    {
        registry.terminate(this, QueryState.FINISHED, null, null);
    }

    /** Ends the statement as CANCELLED because its client asked (QueryResult.cancel). */
    public void cancelledByClient()
    {
        registry.terminate(this, QueryState.CANCELLED, cancelledByClientMessage(queryId), null);
    }

    static String cancelledByClientMessage(String queryId)
    {
        return "Query " + queryId + " was cancelled by its client (a cancel, a timeout or a closed connection)";
    }

    /**
     * Ends the statement as FAILED (CANCELLED for QUERY_CANCELLED) and returns what its client
     * should see: the reason it was killed or timed out, if it was, else {@code failure}.
     */
    public RuntimeException fail(RuntimeException failure)
    {
        RuntimeException result = registry.fail(this, failure);
        if (result instanceof OntulException ontul) {
            ontul.withQueryId(queryId);
        }
        return result;
    }

    QueryInfo info(long nowNanos)
    {
        long end = state.isDone() ? endNanos : nowNanos;
        long peak = context == null ? peakMemory : Math.max(peakMemory, context.peakMemory());
        SpillStatistics spill = context == null ? SpillStatistics.NONE : context.spillStatistics();
        return new QueryInfo(queryId, user, state, sql, created, (end - createdNanos) / 1_000_000, rows.get(), bytes.get(), peak,
                spilledBytes + spill.bytes(), spillFiles + spill.files(), exchangedBytes + (context == null ? 0 : context.exchangedBytes()), Optional.ofNullable(error));
    }
}
