package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One query on one {@link SpillContender}, with or without the memory limit: its timed runs and
 * what the engine reported, or why it failed (after which it is not run again).
 */
final class SpillCase
{
    private final String name;
    private final SpillContender contender;
    private final boolean limited;
    private final List<Long> nanos = new ArrayList<>();
    private long rows = -1;
    private long spilledBytes = -1;
    private long peakMemoryBytes = -1;
    private String failure;

    SpillCase(String name, SpillContender contender, boolean limited)
    {
        this.name = requireNonNull(name, "name is null");
        this.contender = requireNonNull(contender, "contender is null");
        this.limited = limited;
    }

    String name()
    {
        return name;
    }

    SpillContender contender()
    {
        return contender;
    }

    boolean limited()
    {
        return limited;
    }

    void record(SpillContender.SpillRunResult result, boolean timed)
    {
        if (timed) {
            nanos.add(result.nanos());
        }
        rows = result.rows();
        spilledBytes = Math.max(spilledBytes, result.spilledBytes());
        peakMemoryBytes = Math.max(peakMemoryBytes, result.peakMemoryBytes());
    }

    void fail(String message)
    {
        failure = requireNonNull(message, "message is null");
    }

    boolean failed()
    {
        return failure != null;
    }

    Optional<String> failure()
    {
        return Optional.ofNullable(failure);
    }

    List<Long> nanos()
    {
        return List.copyOf(nanos);
    }

    /** The median timed run (the mean of the middle two for an even count), or empty. */
    OptionalLong medianNanos()
    {
        if (failed() || nanos.isEmpty()) {
            return OptionalLong.empty();
        }
        List<Long> sorted = nanos.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return OptionalLong.of(sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2);
    }

    long rows()
    {
        return rows;
    }

    /** The most bytes one run spilled; -1 when the engine does not say. */
    long spilledBytes()
    {
        return spilledBytes;
    }

    /** The highest peak memory of a run; -1 when the engine does not say. */
    long peakMemoryBytes()
    {
        return peakMemoryBytes;
    }
}
