package io.ontul.engine.query;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** Parses and prints durations such as {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h} or {@code 1d}. */
public final class Durations
{
    private static final Pattern PATTERN = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)\\s*", Pattern.CASE_INSENSITIVE);

    private Durations() {}

    /** @throws OntulException INVALID_ARGUMENT naming {@code settingName} unless the text is a positive duration */
    public static Duration parse(String text, String settingName)
    {
        Matcher matcher = PATTERN.matcher(text);
        if (!matcher.matches()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid duration '%s' for %s: expected a number with a unit ms, s, m, h or d, e.g. 30s or 5m", text, settingName);
        }
        long unitMillis = switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 86_400_000;
        };
        long millis = new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(unitMillis)).longValue();
        if (millis <= 0) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid duration '%s' for %s: it must be at least 1ms", text, settingName);
        }
        return Duration.ofMillis(millis);
    }

    /** The duration in the largest unit that states it exactly: {@code 30s}, {@code 5m}, {@code 1500ms}. */
    public static String format(Duration duration)
    {
        long millis = duration.toMillis();
        if (millis % 86_400_000 == 0 && millis > 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0 && millis > 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0 && millis > 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0 && millis > 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }
}
