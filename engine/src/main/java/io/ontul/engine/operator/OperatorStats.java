package io.ontul.engine.operator;

import java.util.concurrent.atomic.AtomicLong;

import io.ontul.engine.operator.join.SharedPartition;

/** Counters of one plan node, summed over its parallel instances, for EXPLAIN ANALYZE. */
public final class OperatorStats
{
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicLong memoryBytes = new AtomicLong();
    private final AtomicLong spilledBytes = new AtomicLong();
    private final AtomicLong spilledRuns = new AtomicLong();
    private final AtomicLong repartitioned = new AtomicLong();
    private final AtomicLong chunked = new AtomicLong();
    private final AtomicLong resident = new AtomicLong();
    private final AtomicLong shared = new AtomicLong();

    public void recordBatch(long rowCount, long elapsedNanos)
    {
        rows.addAndGet(rowCount);
        batches.incrementAndGet();
        nanos.addAndGet(elapsedNanos);
    }

    public void recordTime(long elapsedNanos)
    {
        nanos.addAndGet(elapsedNanos);
    }

    public void recordMemory(long bytes)
    {
        memoryBytes.accumulateAndGet(bytes, Math::max);
    }

    /** A spill run of {@code bytes} on disk was written. */
    public void recordSpill(long bytes)
    {
        spilledBytes.addAndGet(bytes);
        spilledRuns.incrementAndGet();
    }

    /** A spilled partition too large to process in memory was split into smaller ones (written again). */
    public void recordRepartition()
    {
        repartitioned.incrementAndGet();
    }

    /** A spilled partition too large to process in memory was processed in chunks (its other side read once per chunk). */
    public void recordChunkedPartition()
    {
        chunked.incrementAndGet();
    }

    /** {@code partitions} partitions of a spilled join's build side were kept in memory, their probe rows joined as they came. */
    public void recordResidentPartitions(int partitions)
    {
        resident.addAndGet(partitions);
    }

    public long resident()
    {
        return resident.get();
    }

    /** A spilled join partition was read back whole once and probed by every instance together ({@link SharedPartition}). */
    public void recordSharedPartition()
    {
        shared.incrementAndGet();
    }

    public long shared()
    {
        return shared.get();
    }

    public long repartitioned()
    {
        return repartitioned.get();
    }

    public long chunked()
    {
        return chunked.get();
    }

    public long spilledBytes()
    {
        return spilledBytes.get();
    }

    public long spilledRuns()
    {
        return spilledRuns.get();
    }

    public long rows()
    {
        return rows.get();
    }

    public long batches()
    {
        return batches.get();
    }

    public long nanos()
    {
        return nanos.get();
    }

    public long memoryBytes()
    {
        return memoryBytes.get();
    }
}
