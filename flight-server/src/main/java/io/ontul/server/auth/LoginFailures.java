package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Failed logins in a row, per user name (names that do not exist included, so the answer never
 * tells whether one does). The first {@value #FREE_FAILURES} cost nothing more; after them a name
 * must wait before its next attempt, 1 s after the sixth failure, doubling with each further
 * one up to {@link #MAX_WAIT}; attempts made while waiting are refused without checking the
 * password, so guessing costs the server nothing. A successful login clears the count. At most
 * {@code maxNames} names are tracked, the least recently failed dropped first.
 */
final class LoginFailures
{
    static final int FREE_FAILURES = 5;
    static final Duration MAX_WAIT = Duration.ofMinutes(1);

    private record State(int failures, long lastFailureNanos) {}

    private final Map<String, State> states;
    private final LongSupplier nanoTime;

    LoginFailures(int maxNames, LongSupplier nanoTime)
    {
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
        this.states = new LinkedHashMap<>(16, 0.75f, true)
        {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, State> eldest)
            {
                return size() > maxNames;
            }
        };
    }

    /** How long {@code user} must still wait before its password is checked again; empty when it need not. */
    synchronized Optional<Duration> remainingWait(String user)
    {
        State state = states.get(user);
        if (state == null || state.failures() < FREE_FAILURES) {
            return Optional.empty();
        }
        long waited = nanoTime.getAsLong() - state.lastFailureNanos();
        long remaining = wait(state.failures()).toNanos() - waited;
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
    static Duration wait(int failures)
    {
        if (failures < FREE_FAILURES) {
            return Duration.ZERO;
        }
        int doublings = Math.min(failures - FREE_FAILURES, 30);
        Duration wait = Duration.ofSeconds(1L << Math.min(doublings, 20));
        return wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait;
    }
}
