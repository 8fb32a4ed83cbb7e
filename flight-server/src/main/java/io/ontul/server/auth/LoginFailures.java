package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Failed logins in a row, per key: a user name (names that do not exist included, so the answer
 * never tells whether one does) or a client address. The first {@code freeFailures} cost
 * nothing more; after them the key must wait before its next attempt, 1 s after the next
 * failure, doubling with each further one up to {@link #MAX_WAIT}; attempts made while waiting
 * are refused without checking the password, so guessing costs the server nothing. A successful
 * login clears the count. At most {@code maxKeys} keys are tracked, the least recently failed
 * dropped first.
 */
final class LoginFailures
{
    /** Free failures per user name. */
    static final int FREE_FAILURES = 5;
    /** Free failures per client address: several users may share one (a NAT, a BI server). */
    static final int FREE_ADDRESS_FAILURES = 20;
    static final Duration MAX_WAIT = Duration.ofMinutes(1);

    private record State(int failures, long lastFailureNanos) {}

    private final Map<String, State> states;
    private final LongSupplier nanoTime;
    private final int freeFailures;

    LoginFailures(int freeFailures, int maxKeys, LongSupplier nanoTime)
    {
        this.freeFailures = freeFailures;
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
        this.states = new LinkedHashMap<>(16, 0.75f, true)
        {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, State> eldest)
            {
                return size() > maxKeys;
            }
        };
    }

    /** How long {@code key} must still wait before its password is checked again; empty when it need not. */
    synchronized Optional<Duration> remainingWait(String key)
    {
        State state = states.get(key);
        if (state == null || state.failures() < freeFailures) {
            return Optional.empty();
        }
        long waited = nanoTime.getAsLong() - state.lastFailureNanos();
        long remaining = waitAfter(state.failures()).toNanos() - waited;
        return remaining > 0 ? Optional.of(Duration.ofNanos(remaining)) : Optional.empty();
    }

    /** Records a failed check; returns the failures in a row. */
    synchronized int failed(String user)
    {
        State state = states.get(user);
        int failures = state == null ? 1 : state.failures() + 1;
        states.put(user, new State(failures, nanoTime.getAsLong()));
        return failures;
    }

    synchronized void succeeded(String user)
    {
        states.remove(user);
    }

    /** The wait after {@code failures} failures in a row. */
    Duration waitAfter(int failures)
    {
        return wait(failures, freeFailures);
    }

    /** The wait after {@code failures} failures in a row when the first {@code freeFailures} are free. */
    static Duration wait(int failures, int freeFailures)
    {
        if (failures < freeFailures) {
            return Duration.ZERO;
        }
        int doublings = Math.min(failures - freeFailures, 30);
        Duration wait = Duration.ofSeconds(1L << Math.min(doublings, 20));
        return wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait;
    }
}
