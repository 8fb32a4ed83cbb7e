package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

/**
 * The event-time windows of a TUMBLE or HOP window table function, in the time column's unit
 * (milliseconds or microseconds since the epoch). Windows align to the epoch plus the offset:
 * {@code window_start = floor((t - offset) / slide) * slide + offset} and
 * {@code window_end = window_start + size}; a value belongs to every window with
 * {@code window_start <= t < window_end} (one for TUMBLE, where slide = size; for HOP size / slide
 * when the slide divides the size, else the floor or the ceiling of it, depending on t).
 *
 * @param kind TUMBLE or HOP, as written
 * @param timeColumn the input column named by DESCRIPTOR
 * @param size window length, positive
 * @param slide distance between window starts, positive and at most {@code size}
 * @param offset shift of the windows from the epoch
 */
public record TimeWindowFunction(String kind, int timeColumn, long size, long slide, long offset)
{
    public TimeWindowFunction
    {
        requireNonNull(kind, "kind is null");
        if (size <= 0 || slide <= 0 || slide > size) {
            throw new IllegalArgumentException("window size " + size + " and slide " + slide + " must be positive with slide <= size");
        }
    }

    /** The start of the latest window holding {@code time}. */
    public long lastStart(long time)
    {
        return Math.floorDiv(time - offset, slide) * slide + offset;
    }

    /** How many windows hold {@code time}: starts {@code lastStart(time) - i * slide} for i below this. */
    public int windowCount(long time)
    {
        long last = lastStart(time);
        // windows whose start is after time - size
        return (int) ((last - (time - size)) / slide + (Math.floorMod(last - (time - size), slide) == 0 ? 0 : 1));
    }

    /** The end of the latest window holding {@code time}; every window holding it ends at or before this. */
    public long lastEnd(long time)
    {
        return lastStart(time) + size;
    }

    /** The end of the earliest window holding {@code time}. */
    public long firstEnd(long time)
    {
        return lastStart(time) - (long) (windowCount(time) - 1) * slide + size;
    }
}
