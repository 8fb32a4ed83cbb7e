package io.ontul.bench;

import java.util.OptionalLong;

/**
 * One engine setting under {@link SpillBenchmark}, loaded with lineitem and orders. Runs one
 * query at a time; {@link #cancel()} may come from another thread while one runs.
 */
public interface SpillContender
{
    String name();

    /** Caps the memory of the queries that follow, or lifts the cap when empty. */
    void limitMemory(OptionalLong bytes)
            throws Exception;

    /** Runs the query and reads every row of its result. */
    SpillRunResult run(String sql)
            throws Exception;

    /** Cancels the running query, if any; safe to call from any thread. */
    void cancel();

    /**
     * One run: elapsed time, rows read, bytes the engine spilled and its peak memory (-1 where
     * the engine does not say).
     */
    record SpillRunResult(long nanos, long rows, long spilledBytes, long peakMemoryBytes) {}
}
