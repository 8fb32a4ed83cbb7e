package io.ontul.engine.stream.task;

import java.util.concurrent.atomic.AtomicLong;

import io.ontul.engine.stream.window.WatermarkTracker;

/** What one task counts, written by the task's thread, read by SHOW and DESCRIBE from others. */
public final class TaskMetrics
{
    public final AtomicLong recordsIn = new AtomicLong();
    public final AtomicLong recordsOut = new AtomicLong();
    public final AtomicLong rejected = new AtomicLong();
    public final AtomicLong late = new AtomicLong();
    /** Nanoseconds the task waited for room in the channels it sends to (back-pressure). */
    public final AtomicLong blockedNanos = new AtomicLong();
    public volatile long watermark = WatermarkTracker.NONE;
    /** Records behind the end of the task's partitions, or -1 when unknown. */
    public volatile long lag = -1;
    /** {@link #lag} per partition (split id), when known. */
    public volatile java.util.Map<String, Long> partitionLags = java.util.Map.of();
    public volatile long lastCheckpointBytes;
    public volatile long lastCheckpointMillis;
}
