package io.ontul.sdk.stream;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An event-time window: tumbling (fixed, back to back), sliding (fixed size, a new one every
 * slide) or session (closed after a gap without rows, per key). Written in job documents as
 * {@code TUMBLING(SIZE 10 SECONDS)}, {@code SLIDING(SIZE 1 MINUTE, SLIDE 10 SECONDS)} and
 * {@code SESSION(GAP 30 SECONDS)}.
 */
public record WindowSpec(Kind kind, Duration size, Optional<Duration> slide)
{
    public enum Kind { TUMBLING, SLIDING, SESSION }

    private static final Pattern TUMBLING = Pattern.compile("TUMBLING\\s*\\(\\s*SIZE\\s+(\\d+)\\s+([A-Z]+)\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SLIDING = Pattern.compile("SLIDING\\s*\\(\\s*SIZE\\s+(\\d+)\\s+([A-Z]+)\\s*,\\s*SLIDE\\s+(\\d+)\\s+([A-Z]+)\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SESSION = Pattern.compile("SESSION\\s*\\(\\s*GAP\\s+(\\d+)\\s+([A-Z]+)\\s*\\)", Pattern.CASE_INSENSITIVE);

    public WindowSpec
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(size, "size is null");
        requireNonNull(slide, "slide is null");
        positive(size, "size");
        slide.ifPresent(value -> positive(value, "slide"));
        if (slide.isPresent() != (kind == Kind.SLIDING)) {
            throw new IllegalArgumentException("only a sliding window has a slide");
        }
    }

    public static WindowSpec tumbling(Duration size)
    {
        return new WindowSpec(Kind.TUMBLING, size, Optional.empty());
    }

    public static WindowSpec sliding(Duration size, Duration slide)
    {
        return new WindowSpec(Kind.SLIDING, size, Optional.of(slide));
    }

    /** Rows of a key closer than {@code gap} to each other in event time share a window. */
    public static WindowSpec session(Duration gap)
    {
        return new WindowSpec(Kind.SESSION, gap, Optional.empty());
    }

    /**
     * Reads the text form of job documents.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static WindowSpec parse(String text)
    {
        String trimmed = text.trim();
        Matcher tumbling = TUMBLING.matcher(trimmed);
        if (tumbling.matches()) {
            return tumbling(duration(tumbling.group(1), tumbling.group(2)));
        }
        Matcher sliding = SLIDING.matcher(trimmed);
        if (sliding.matches()) {
            return sliding(duration(sliding.group(1), sliding.group(2)), duration(sliding.group(3), sliding.group(4)));
        }
        Matcher session = SESSION.matcher(trimmed);
        if (session.matches()) {
            return session(duration(session.group(1), session.group(2)));
        }
        throw new IllegalArgumentException("must be TUMBLING(SIZE n UNIT), SLIDING(SIZE n UNIT, SLIDE n UNIT) or SESSION(GAP n UNIT), not '" + text + "'");
    }

    private static Duration duration(String amount, String unit)
    {
        long value;
        try {
            value = Long.parseLong(amount);
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + amount + "' is too large");
        }
        return switch (unit.toUpperCase(Locale.ROOT)) {
            case "MILLISECOND", "MILLISECONDS" -> Duration.ofMillis(value);
            case "SECOND", "SECONDS" -> Duration.ofSeconds(value);
            case "MINUTE", "MINUTES" -> Duration.ofMinutes(value);
            case "HOUR", "HOURS" -> Duration.ofHours(value);
            case "DAY", "DAYS" -> Duration.ofDays(value);
            default -> throw new IllegalArgumentException("unknown unit '" + unit + "' (MILLISECONDS, SECONDS, MINUTES, HOURS or DAYS)");
        };
    }

    private static void positive(Duration duration, String what)
    {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a window's " + what + " must be positive, not " + duration);
        }
    }
}
