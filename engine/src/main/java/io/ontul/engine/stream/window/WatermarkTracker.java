package io.ontul.engine.stream.window;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import io.ontul.engine.stream.window.EventTimeWindowAggregation;
import io.ontul.spi.stream.WatermarkDeclaration;

/**
 * The event-time watermark of one task of a streaming job, in epoch microseconds.
 * <p>
 * Each split's watermark is the greatest event time it has delivered minus the declared delay.
 * The task's watermark is the minimum over the splits that are active: a split is idle once it
 * has delivered no record for the declared idle timeout, and stops holding the watermark back
 * until it delivers again (a split that has delivered nothing yet holds it back, from the
 * tracker's creation, for that long too). With every split idle nothing is in flight, and the
 * watermark moves up to the greatest split watermark, so the last records before a quiet spell
 * close their windows (a split that later delivers older records has them counted late).
 * The watermark never goes back. Time comes from the given nanosecond clock, so tests control it.
 * <p>
 * Idle time counts only while the task polls: a gap between two {@link #advance} calls longer
 * than {@link #POLL_GAP} (a slow checkpoint, a pause of the process) is left out, so partitions
 * with a backlog are not taken for silent ones after the task itself stood still.
 */
public final class WatermarkTracker
{
    /** No watermark yet: every window is open. */
    public static final long NONE = EventTimeWindowAggregation.NO_WATERMARK;
    /** Longest time between two polls that still counts as polling. */
    static final long POLL_GAP = 1_000_000_000L;

    private final long delayMicros;
    private final long idleTimeoutNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Long> maxEventTimes = new HashMap<>();
    private final Map<String, Long> lastActivity = new HashMap<>();
    private long watermark = NONE;
    private long lastAdvance;

    public WatermarkTracker(WatermarkDeclaration declaration, Collection<String> splits, LongSupplier nanoClock)
    {
        requireNonNull(declaration, "declaration is null");
        this.delayMicros = declaration.delay().toNanos() / 1000;
        this.idleTimeoutNanos = declaration.idleTimeout().map(timeout -> timeout.toNanos()).orElse(Long.MAX_VALUE);
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        long now = nanoClock.getAsLong();
        for (String split : splits) {
            maxEventTimes.put(split, NONE);
            lastActivity.put(split, now);
        }
        lastAdvance = now;
    }

    /** Continues from a checkpoint: the splits' greatest event times and the watermark then. */
    public void restore(Map<String, Long> savedMaxEventTimes, long savedWatermark)
    {
        savedMaxEventTimes.forEach((split, time) -> {
            if (maxEventTimes.containsKey(split)) {
                maxEventTimes.put(split, time);
            }
        });
        watermark = Math.max(watermark, savedWatermark);
    }

    /** Takes in one poll's greatest event time per split ({@code StreamBatch.maxEventTimes}) and returns the watermark now. */
    public long advance(Map<String, Long> polledMaxEventTimes)
    {
        long now = nanoClock.getAsLong();
        long paused = now - lastAdvance - POLL_GAP;
        if (paused > 0) {
            lastActivity.replaceAll((split, time) -> time + paused);
        }
        lastAdvance = now;
        polledMaxEventTimes.forEach((split, time) -> {
            maxEventTimes.merge(split, time, Math::max);
            lastActivity.put(split, now);
        });
        long active = Long.MAX_VALUE;
        long delivered = NONE;
        boolean anyActive = false;
        boolean anyDelivered = false;
        for (Map.Entry<String, Long> split : maxEventTimes.entrySet()) {
            long max = split.getValue();
            long splitWatermark = max == NONE ? NONE : max - delayMicros;
            if (max != NONE) {
                anyDelivered = true;
                delivered = Math.max(delivered, splitWatermark);
            }
            if (now - lastActivity.get(split.getKey()) < idleTimeoutNanos) {
                anyActive = true;
                active = Math.min(active, splitWatermark);
            }
        }
        long candidate = anyActive ? active : anyDelivered ? delivered : NONE;
        if (candidate > watermark) {
            watermark = candidate;
        }
        return watermark;
    }

    public long watermark()
    {
        return watermark;
    }

    /** The greatest event time per split that delivered one, for the checkpoint. */
    public Map<String, Long> maxEventTimes()
    {
        Map<String, Long> seen = new HashMap<>();
        maxEventTimes.forEach((split, time) -> {
            if (time != NONE) {
                seen.put(split, time);
            }
        });
        return seen;
    }
}
