package io.ontul.catalog.kafka;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as users write them in catalog properties and table options: a whole number and a
 * unit, {@code 500ms}, {@code 5s}, {@code 1m}, {@code 2h}, {@code 1d} (a space between them is
 * allowed; {@code sec}, {@code min}, {@code second(s)}, {@code minute(s)}, {@code hour(s)},
 * {@code day(s)}, {@code millisecond(s)} too).
 */
public final class KafkaDurations
{
    private static final Pattern DURATION = Pattern.compile("\\s*(\\d{1,12})\\s*([a-zA-Z]+)\\s*");

    private KafkaDurations() {}

    /** The duration, or empty if the text is not a duration. */
    public static Optional<Duration> tryParse(String text)
    {
        Matcher matcher = DURATION.matcher(text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
            case "ms", "millisecond", "milliseconds" -> Optional.of(Duration.ofMillis(amount));
            case "s", "sec", "second", "seconds" -> Optional.of(Duration.ofSeconds(amount));
            case "m", "min", "minute", "minutes" -> Optional.of(Duration.ofMinutes(amount));
            case "h", "hour", "hours" -> Optional.of(Duration.ofHours(amount));
            case "d", "day", "days" -> Optional.of(Duration.ofDays(amount));
            default -> Optional.empty();
        };
    }

    /** Formats a duration the way {@link #tryParse} reads it, in the largest exact unit. */
    public static String format(Duration duration)
    {
        long millis = duration.toMillis();
        if (millis % 86_400_000 == 0 && millis != 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0 && millis != 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0 && millis != 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }
}
