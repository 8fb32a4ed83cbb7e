package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalLong;

/** The timed runs of one query on one engine: the best time, the row count, or why it failed. */
public final class EngineTimings
{
    private long bestNanos = Long.MAX_VALUE;
    private long rows = -1;
    private String failure;

    public void record(long nanos, long rowCount)
    {
        bestNanos = Math.min(bestNanos, nanos);
        rows = rowCount;
    }

    public void fail(String message)
    {
        failure = requireNonNull(message, "message is null");
    }

    public boolean failed()
    {
        return failure != null;
    }

    public Optional<String> failure()
    {
        return Optional.ofNullable(failure);
    }

    /** The fastest run, or empty when the query failed or never ran. */
    public OptionalLong bestNanos()
    {
        return failed() || bestNanos == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(bestNanos);
    }

    public long rows()
    {
        return rows;
    }
}
