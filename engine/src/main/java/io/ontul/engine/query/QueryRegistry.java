package io.ontul.engine.query;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Every statement the engine runs, with its state and figures, and the recently finished ones
 * (at most {@link QueryLimits#maxHistory()}, none older than {@link QueryLimits#historyMaxAge()}).
 * It also enforces the engine's limits: at most {@link QueryLimits#maxConcurrent()} queries and DML
 * statements hold a slot at once, the others wait in one FIFO queue of at most
 * {@link QueryLimits#maxQueued()}; a statement that runs longer than its maximum run time is
 * failed by one shared timer thread. A statement gives its slot back when it reaches a final
 * state, including when it is killed while its client still holds the result open.
 * Thread-safe; one lock guards all states.
 */
public final class QueryRegistry
        implements AutoCloseable
{
    private final QueryLimits limits;
    private final Predicate<String> administrators;
    private final ScheduledThreadPoolExecutor timer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, TrackedQuery> queries = new LinkedHashMap<>();
    private final Deque<TrackedQuery> queue = new ArrayDeque<>();
    private final Set<QueryContext> openContexts = new HashSet<>();
    private final QueryCounters counters = new QueryCounters();
    private final List<Consumer<QueryInfo>> endListeners = new CopyOnWriteArrayList<>();
    private int slotsTaken;

    /** @param administrators which users see and may kill every query */
    public QueryRegistry(QueryLimits limits, Predicate<String> administrators)
    {
        this.limits = requireNonNull(limits, "limits is null");
        this.administrators = requireNonNull(administrators, "administrators is null");
        this.timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "ontul-query-timer");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    public QueryLimits limits()
    {
        return limits;
    }

    /**
     * Adds a statement, QUEUED. Its run time counts from now, queueing included.
     *
     * @param maxRunTime the session's limit; empty for the engine's default ({@link QueryLimits#maxRunTime()})
     */
    public TrackedQuery register(String queryId, String user, String sql, Optional<Duration> maxRunTime)
    {
        TrackedQuery query = new TrackedQuery(this, queryId, user, sql);
        lock.lock();
        try {
            prune(System.nanoTime());
            queries.put(queryId, query);
            counters.started++;
        }
        finally {
            lock.unlock();
        }
        maxRunTime.or(limits::maxRunTime).ifPresent(limit -> scheduleTimeout(query, limit));
        return query;
    }

    private void scheduleTimeout(TrackedQuery query, Duration limit)
    {
        OntulException exceeded = new OntulException(ErrorCode.EXCEEDED_TIME_LIMIT, "Query exceeded maximum run time of " + Durations.format(limit)
                + " (raise it with SET SESSION query_max_run_time = '...')");
        lock.lock();
        try {
            if (!query.state.isDone()) {
                query.timeout = timer.schedule(() -> terminate(query, QueryState.FAILED, exceeded.getMessage(), exceeded), limit.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        finally {
            lock.unlock();
        }
    }

    /** The statements {@code viewer} may see, oldest first: an administrator sees all, others their own. */
    public List<QueryInfo> queries(String viewer)
    {
        boolean admin = administrators.test(viewer);
        lock.lock();
        try {
            long now = System.nanoTime();
            prune(now);
            List<QueryInfo> visible = new ArrayList<>();
            for (TrackedQuery query : queries.values()) {
                if (admin || query.user().equals(viewer)) {
                    visible.add(query.info(now));
                }
            }
            return visible;
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Calls {@code listener} with each statement that ends (finished, failed or cancelled), at once
     * and while the registry is locked: it must only record figures, quickly, without calling back.
     */
    public void onEnd(Consumer<QueryInfo> listener)
    {
        endListeners.add(requireNonNull(listener, "listener is null"));
    }

    /** Statements started and ended since the engine started, with those running and queued now. */
    public QueryCounts counts()
    {
        lock.lock();
        try {
            return new QueryCounts(counters.started, counters.finished, counters.failed, counters.cancelled, runningLocked(), queue.size());
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * How many statements the engine saw: started, ended by state, running and waiting for a slot now.
     */
    public record QueryCounts(long started, long finished, long failed, long cancelled, int running, int queued) {}

    /** Guarded by the registry's lock. */
    private static final class QueryCounters
    {
        long started;
        long finished;
        long failed;
        long cancelled;

        void ended(QueryState state)
        {
            switch (state) {
                case FINISHED -> finished++;
                case FAILED -> failed++;
                case CANCELLED -> cancelled++;
                default -> throw new IllegalArgumentException("not an end state: " + state);
            }
        }
    }

    /** How many statements run now (for a node's figures in system.runtime.nodes). */
    public int running()
    {
        lock.lock();
        try {
            return runningLocked();
        }
        finally {
            lock.unlock();
        }
    }

    private int runningLocked()
    {
        int running = 0;
        for (TrackedQuery query : queries.values()) {
            if (query.state == QueryState.RUNNING) {
                running++;
            }
        }
        return running;
    }

    /** How many statements wait in the queue for a slot (a QUEUED statement may still be planning instead). */
    public int waitingForSlot()
    {
        lock.lock();
        try {
            return queue.size();
        }
        finally {
            lock.unlock();
        }
    }

    /** The statement with this id, if it is still known; no visibility check. */
    public Optional<QueryInfo> query(String queryId)
    {
        lock.lock();
        try {
            return Optional.ofNullable(queries.get(queryId)).map(query -> query.info(System.nanoTime()));
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Stops a statement whose client went away or gave up (a cancelled or dropped call): it ends
     * CANCELLED with the reason, and whatever still runs it fails with QUERY_CANCELLED. Nothing
     * happens for an unknown or finished statement.
     */
    public void cancelByClient(String queryId)
    {
        lock.lock();
        try {
            TrackedQuery query = queries.get(queryId);
            if (query == null || query.state.isDone()) {
                return;
            }
            OntulException cancelled = new OntulException(ErrorCode.QUERY_CANCELLED, TrackedQuery.cancelledByClientMessage(queryId));
            terminateLocked(query, QueryState.CANCELLED, cancelled.getMessage(), cancelled);
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Cancels a queued or running statement on behalf of {@code killer}; its client sees
     * QUERY_CANCELLED "Query ID was killed by KILLER".
     *
     * @throws OntulException NOT_FOUND for an unknown id, PERMISSION_DENIED when the killer is
     *         neither its user nor an administrator, INVALID_ARGUMENT when it is already done
     */
    public void kill(String queryId, String killer)
    {
        lock.lock();
        try {
            TrackedQuery query = queries.get(queryId);
            if (query == null) {
                throw new OntulException(ErrorCode.NOT_FOUND, "Query '" + queryId + "' does not exist");
            }
            if (!query.user().equals(killer) && !administrators.test(killer)) {
                throw new OntulException(ErrorCode.PERMISSION_DENIED, "Access denied: user '" + killer + "' cannot kill query " + queryId
                        + " of another user; only an administrator can");
            }
            if (query.state.isDone()) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Query " + queryId + " is not running: it is already " + query.state);
            }
            OntulException killed = new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was killed by " + killer);
            terminateLocked(query, QueryState.CANCELLED, killed.getMessage(), killed);
        }
        finally {
            lock.unlock();
        }
    }

    // ---- the protocol of TrackedQuery

    void admit(TrackedQuery query, boolean takesSlot)
    {
        lock.lock();
        try {
            throwIfDone(query);
            if (query.state == QueryState.RUNNING) {
                return;
            }
            if (!takesSlot || limits.maxConcurrent() == 0) {
                query.state = QueryState.RUNNING;
                return;
            }
            if (slotsTaken < limits.maxConcurrent() && queue.isEmpty()) {
                slotsTaken++;
                query.holdsSlot = true;
                query.state = QueryState.RUNNING;
                return;
            }
            if (queue.size() >= limits.maxQueued()) {
                OntulException full = new OntulException(ErrorCode.QUERY_QUEUE_FULL, "Too many queries: " + slotsTaken + " are running and " + queue.size()
                        + " waiting, the most " + QueryLimits.MAX_QUEUED + " = " + limits.maxQueued() + " allows; try again later");
                terminateLocked(query, QueryState.FAILED, full.getMessage(), null);
                throw full;
            }
            queue.addLast(query);
            while (query.state == QueryState.QUEUED) {
                try {
                    changed.await();
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    OntulException interrupted = new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + query.queryId() + " was cancelled while queued");
                    terminateLocked(query, QueryState.CANCELLED, interrupted.getMessage(), interrupted);
                }
            }
            throwIfDone(query);
        }
        finally {
            lock.unlock();
        }
    }

    /** Throws the reason the statement ended (killed, out of time) if it has. */
    void throwIfEnded(TrackedQuery query)
    {
        lock.lock();
        try {
            throwIfDone(query);
        }
        finally {
            lock.unlock();
        }
    }

    private static void throwIfDone(TrackedQuery query)
    {
        if (query.state.isDone()) {
            throw query.cancellation == null
                    ? new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + query.queryId() + " was cancelled")
                    : copy(query.cancellation);
        }
    }

    void attach(TrackedQuery query, QueryContext context)
    {
        lock.lock();
        try {
            openContexts.add(context);
            query.context = context;
            if (query.cancellation != null) {
                context.cancel(query.cancellation);
            }
        }
        finally {
            lock.unlock();
        }
    }

    void detach(TrackedQuery query, QueryContext context)
    {
        lock.lock();
        try {
            openContexts.remove(context);
            query.peakMemory = Math.max(query.peakMemory, context.peakMemory());
            // the context's spill space is closed by now, but keeps its figures
            SpillStatistics spill = context.spillStatistics();
            query.spilledBytes += spill.bytes();
            query.spillFiles += spill.files();
            query.exchangedBytes += context.exchangedBytes();
            if (query.context == context) {
                query.context = null;
            }
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    RuntimeException fail(TrackedQuery query, RuntimeException failure)
    {
        lock.lock();
        try {
            if (query.cancellation != null) {
                return sameError(failure, query.cancellation) ? failure : copy(query.cancellation);
            }
            boolean cancelled = failure instanceof OntulException ontul && ontul.code() == ErrorCode.QUERY_CANCELLED;
            terminateLocked(query, cancelled ? QueryState.CANCELLED : QueryState.FAILED, String.valueOf(failure.getMessage()), null);
            return failure;
        }
        finally {
            lock.unlock();
        }
    }

    private static boolean sameError(RuntimeException failure, OntulException cancellation)
    {
        return failure instanceof OntulException ontul && ontul.code() == cancellation.code() && ontul.getMessage().equals(cancellation.getMessage());
    }

    /** A fresh exception per thread that throws it: one instance must not collect suppressed errors from several. */
    private static OntulException copy(OntulException error)
    {
        return new OntulException(error.code(), error.getMessage());
    }

    void terminate(TrackedQuery query, QueryState state, String error, OntulException cancellation)
    {
        lock.lock();
        try {
            terminateLocked(query, state, error, cancellation);
        }
        finally {
            lock.unlock();
        }
    }

    private void terminateLocked(TrackedQuery query, QueryState state, String error, OntulException cancellation)
    {
        if (query.state.isDone()) {
            return;
        }
        query.state = state;
        query.ended = true;
        query.endNanos = System.nanoTime();
        query.error = error;
        query.cancellation = cancellation;
        queue.remove(query);
        counters.ended(state);
        if (!endListeners.isEmpty()) {
            // under the lock: listeners only record figures (a timer, a counter)
            QueryInfo info = query.info(query.endNanos);
            endListeners.forEach(listener -> listener.accept(info));
        }
        if (query.timeout != null) {
            query.timeout.cancel(false);
            query.timeout = null;
        }
        if (cancellation != null && query.context != null) {
            query.context.cancel(cancellation);
        }
        if (query.holdsSlot) {
            query.holdsSlot = false;
            slotsTaken--;
            while (!queue.isEmpty() && slotsTaken < limits.maxConcurrent()) {
                TrackedQuery next = queue.removeFirst();
                slotsTaken++;
                next.holdsSlot = true;
                next.state = QueryState.RUNNING;
            }
        }
        changed.signalAll();
    }

    /** Forgets finished statements beyond the history's size or age; oldest first. */
    private void prune(long now)
    {
        int done = 0;
        for (TrackedQuery query : queries.values()) {
            if (query.state.isDone()) {
                done++;
            }
        }
        long maxAge = limits.historyMaxAge().toNanos();
        Iterator<TrackedQuery> iterator = queries.values().iterator();
        while (iterator.hasNext()) {
            TrackedQuery query = iterator.next();
            if (query.state.isDone() && (done > limits.maxHistory() || now - query.endNanos > maxAge)) {
                iterator.remove();
                done--;
            }
        }
    }

    // ---- shutdown

    /**
     * Cancels every statement that is not done and waits up to {@code timeout} for their owners
     * to close their query contexts, so that their memory is released.
     */
    public void cancelAll(String reason, Duration timeout)
    {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            for (TrackedQuery query : List.copyOf(queries.values())) {
                OntulException cancelled = new OntulException(ErrorCode.QUERY_CANCELLED, "Query " + query.queryId() + " was cancelled: " + reason);
                terminateLocked(query, QueryState.CANCELLED, cancelled.getMessage(), cancelled);
            }
            // ended statements whose results are still open hold contexts too
            openContexts.forEach(QueryContext::cancel);
            while (!openContexts.isEmpty()) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    break;
                }
                changed.awaitNanos(remaining);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finally {
            lock.unlock();
        }
    }

    @Override
    public void close()
    {
        timer.shutdownNow();
    }
}
