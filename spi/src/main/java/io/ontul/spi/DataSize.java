package io.ontul.spi;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses sizes such as {@code 512MB}, {@code 2GB}, {@code 1048576B} or a plain byte count. */
public final class DataSize
{
    private static final Pattern PATTERN = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([kmgt]?i?b?)\\s*", Pattern.CASE_INSENSITIVE);

    private DataSize() {}

    public static long parse(String text, String settingName)
    {
        Matcher matcher = PATTERN.matcher(text);
        if (!matcher.matches()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid size '%s' for %s: expected a number with an optional unit B, kB, MB, GB or TB", text, settingName);
        }
        double value = Double.parseDouble(matcher.group(1));
        String unit = matcher.group(2).toLowerCase(Locale.ROOT);
        long multiplier = switch (unit.isEmpty() ? 'b' : unit.charAt(0)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            case 't' -> 1L << 40;
            default -> 1;
        };
        return (long) (value * multiplier);
    }

    public static String format(long bytes)
    {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "kB";
        }
        return bytes + "B";
    }
}
