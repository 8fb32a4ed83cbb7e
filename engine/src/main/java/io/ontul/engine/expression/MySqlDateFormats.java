package io.ontul.engine.expression;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Trino's {@code date_format(timestamp, format)} and {@code date_parse(text, format)}, whose
 * formats are MySQL's: {@code %Y-%m-%d %H:%i:%s}. Each format is translated once into a
 * {@link DateTimeFormatter} (English names). The specifiers: %a %b %c %d %e %f %H %h %I %i %j %k
 * %l %M %m %p %r %S %s %T %W %Y %y %%; the week-based ones (%U %u %V %v %w %X %x) and %D are
 * refused with the format named, as is an unknown specifier.
 */
public final class MySqlDateFormats
{
    private static final Map<String, DateTimeFormatter> FORMATTERS = new ConcurrentHashMap<>();

    private MySqlDateFormats() {}

    /** The timestamp (epoch milliseconds or microseconds) written in {@code format}. */
    public static String format(long timestamp, boolean micros, String format)
    {
        return formatter(format).format(Functions.toLocalDateTime(timestamp, micros));
    }

    /** The date (epoch days) written in {@code format} (its time fields are 0). */
    public static String formatDate(int days, String format)
    {
        return formatter(format).format(java.time.LocalDate.ofEpochDay(days).atStartOfDay());
    }

    /** {@code text} read with {@code format} as a TIMESTAMP in epoch milliseconds or microseconds; fields left out are the start of their range. */
    public static long parse(String text, String format, boolean micros)
    {
        LocalDateTime value;
        try {
            var parsed = formatter(format).parse(text);
            int year = parsed.isSupported(ChronoField.YEAR) ? parsed.get(ChronoField.YEAR) : 1970;
            int month = parsed.isSupported(ChronoField.MONTH_OF_YEAR) ? parsed.get(ChronoField.MONTH_OF_YEAR) : 1;
            int day = parsed.isSupported(ChronoField.DAY_OF_MONTH) ? parsed.get(ChronoField.DAY_OF_MONTH) : 1;
            value = LocalDateTime.of(year, month, day, 0, 0);
            if (parsed.isSupported(ChronoField.DAY_OF_YEAR) && !parsed.isSupported(ChronoField.DAY_OF_MONTH)) {
                value = value.withDayOfYear(parsed.get(ChronoField.DAY_OF_YEAR));
            }
            int hour = parsed.isSupported(ChronoField.HOUR_OF_DAY) ? parsed.get(ChronoField.HOUR_OF_DAY) : 0;
            int minute = parsed.isSupported(ChronoField.MINUTE_OF_HOUR) ? parsed.get(ChronoField.MINUTE_OF_HOUR) : 0;
            int second = parsed.isSupported(ChronoField.SECOND_OF_MINUTE) ? parsed.get(ChronoField.SECOND_OF_MINUTE) : 0;
            int nanos = parsed.isSupported(ChronoField.NANO_OF_SECOND) ? parsed.get(ChronoField.NANO_OF_SECOND) : 0;
            value = value.withHour(hour).withMinute(minute).withSecond(second).withNano(nanos);
        }
        catch (java.time.DateTimeException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Cannot parse '" + text + "' with format '" + format + "': " + e.getMessage());
        }
        long seconds = value.toEpochSecond(java.time.ZoneOffset.UTC);
        return micros ? seconds * 1_000_000 + value.getNano() / 1000 : seconds * 1000 + value.getNano() / 1_000_000;
    }

    static DateTimeFormatter formatter(String format)
    {
        DateTimeFormatter cached = FORMATTERS.get(format);
        if (cached != null) {
            return cached;
        }
        DateTimeFormatter built = translate(format);
        if (FORMATTERS.size() < 1000) {
            FORMATTERS.put(format, built);
        }
        return built;
    }

    private static DateTimeFormatter translate(String format)
    {
        DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder().parseCaseInsensitive();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                literal.append(c);
                continue;
            }
            char specifier = format.charAt(++i);
            if (specifier == '%') {
                literal.append('%');
                continue;
            }
            if (!literal.isEmpty()) {
                builder.appendLiteral(literal.toString());
                literal.setLength(0);
            }
            switch (specifier) {
                case 'a' -> builder.appendPattern("EEE");
                case 'b' -> builder.appendPattern("MMM");
                case 'c' -> builder.appendValue(ChronoField.MONTH_OF_YEAR);
                case 'd' -> builder.appendValue(ChronoField.DAY_OF_MONTH, 2);
                case 'e' -> builder.appendValue(ChronoField.DAY_OF_MONTH);
                case 'f' -> builder.appendFraction(ChronoField.NANO_OF_SECOND, 6, 6, false);
                case 'H' -> builder.appendValue(ChronoField.HOUR_OF_DAY, 2);
                case 'h', 'I' -> builder.appendValue(ChronoField.CLOCK_HOUR_OF_AMPM, 2);
                case 'i' -> builder.appendValue(ChronoField.MINUTE_OF_HOUR, 2);
                case 'j' -> builder.appendValue(ChronoField.DAY_OF_YEAR, 3);
                case 'k' -> builder.appendValue(ChronoField.HOUR_OF_DAY);
                case 'l' -> builder.appendValue(ChronoField.CLOCK_HOUR_OF_AMPM);
                case 'M' -> builder.appendPattern("MMMM");
                case 'm' -> builder.appendValue(ChronoField.MONTH_OF_YEAR, 2);
                case 'p' -> builder.appendPattern("a");
                case 'r' -> builder.appendPattern("hh:mm:ss a");
                case 'S', 's' -> builder.appendValue(ChronoField.SECOND_OF_MINUTE, 2);
                case 'T' -> builder.appendPattern("HH:mm:ss");
                case 'W' -> builder.appendPattern("EEEE");
                case 'Y' -> builder.appendValue(ChronoField.YEAR, 4);
                case 'y' -> builder.appendValueReduced(ChronoField.YEAR, 2, 2, 2000);
                default -> throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Format '" + format + "': %" + specifier + " is not supported"
                        + ("DUuVvwXx".indexOf(specifier) >= 0 ? " (week-based and ordinal-suffix specifiers are not)" : ""));
            }
        }
        if (!literal.isEmpty()) {
            builder.appendLiteral(literal.toString());
        }
        return builder.toFormatter(Locale.ENGLISH).withResolverStyle(ResolverStyle.STRICT);
    }
}
