package io.ontul.catalog.kafka.decoder;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Dates, times and timestamps as text, without time zones: {@code 2026-01-01T00:00:05.123} (or a
 * space instead of {@code T}, seconds and fraction optional, up to nine fraction digits, extra
 * precision truncated) is read as that local date-time, and its epoch value is the one of the
 * same date-time in UTC. The JVM's time zone is never involved. A trailing {@code Z} or offset
 * ({@code +02:00}) is accepted and the value converted to UTC.
 */
public final class TimestampText
{
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final DateTimeFormatter MILLIS_FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS");
    private static final DateTimeFormatter MICROS_FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS");

    private TimestampText() {}

    /**
     * Microseconds since 1970-01-01T00:00 of a date-time (a date alone means midnight).
     *
     * @throws IllegalArgumentException if the text is not such a date-time
     */
    public static long parseEpochMicros(String text)
    {
        Cursor cursor = new Cursor(text.trim());
        long epochDay = cursor.date();
        if (cursor.atEnd()) {
            return epochDay * MICROS_PER_DAY;
        }
        char separator = cursor.next();
        if (separator != 'T' && separator != 't' && separator != ' ') {
            throw cursor.invalid();
        }
        long micros = epochDay * MICROS_PER_DAY + cursor.timeMicros();
        if (!cursor.atEnd()) {
            micros -= cursor.offsetSeconds() * 1_000_000L;
        }
        cursor.expectEnd();
        return micros;
    }

    /** Days since 1970-01-01 of {@code yyyy-MM-dd}. */
    public static int parseEpochDay(String text)
    {
        Cursor cursor = new Cursor(text.trim());
        long epochDay = cursor.date();
        cursor.expectEnd();
        return Math.toIntExact(epochDay);
    }

    /** Milliseconds since midnight of {@code HH:mm[:ss[.fraction]]}. */
    public static int parseMillisOfDay(String text)
    {
        Cursor cursor = new Cursor(text.trim());
        long micros = cursor.timeMicros();
        cursor.expectEnd();
        return (int) (micros / 1000);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.SSS} of epoch milliseconds, as a UTC local date-time. */
    public static String formatEpochMillis(long epochMillis)
    {
        return toLocalDateTime(Math.floorDiv(epochMillis, 1000), Math.floorMod(epochMillis, 1000) * 1_000_000).format(MILLIS_FORMAT);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.SSSSSS} of epoch microseconds, as a UTC local date-time. */
    public static String formatEpochMicros(long epochMicros)
    {
        return toLocalDateTime(Math.floorDiv(epochMicros, 1_000_000), Math.floorMod(epochMicros, 1_000_000) * 1000).format(MICROS_FORMAT);
    }

    private static LocalDateTime toLocalDateTime(long epochSeconds, long nanos)
    {
        return LocalDateTime.ofEpochSecond(epochSeconds, (int) nanos, ZoneOffset.UTC);
    }

    private static final class Cursor
    {
        private final String text;
        private int position;

        Cursor(String text)
        {
            this.text = text;
        }

        long date()
        {
            int year = digits(4);
            expect('-');
            int month = digits(2);
            expect('-');
            int day = digits(2);
            try {
                return LocalDate.of(year, month, day).toEpochDay();
            }
            catch (DateTimeException e) {
                throw invalid();
            }
        }

        long timeMicros()
        {
            int hour = digits(2);
            expect(':');
            int minute = digits(2);
            int second = 0;
            long micros = 0;
            if (peek() == ':') {
                position++;
                second = digits(2);
                if (peek() == '.') {
                    position++;
                    int start = position;
                    long fraction = 0;
                    while (position < text.length() && isDigit(text.charAt(position))) {
                        if (position - start < 6) {
                            fraction = fraction * 10 + (text.charAt(position) - '0');
                        }
                        position++;
                    }
                    int length = position - start;
                    if (length == 0 || length > 9) {
                        throw invalid();
                    }
                    for (int i = length; i < 6; i++) {
                        fraction *= 10;
                    }
                    micros = fraction;
                }
            }
            if (hour > 23 || minute > 59 || second > 59) {
                throw invalid();
            }
            return ((hour * 60L + minute) * 60 + second) * 1_000_000 + micros;
        }

        long offsetSeconds()
        {
            char sign = next();
            if (sign == 'Z' || sign == 'z') {
                return 0;
            }
            if (sign != '+' && sign != '-') {
                throw invalid();
            }
            int hours = digits(2);
            int minutes = 0;
            if (peek() == ':') {
                position++;
            }
            if (!atEnd()) {
                minutes = digits(2);
            }
            if (hours > 18 || minutes > 59) {
                throw invalid();
            }
            long seconds = hours * 3600L + minutes * 60L;
            return sign == '-' ? -seconds : seconds;
        }

        boolean atEnd()
        {
            return position >= text.length();
        }

        void expectEnd()
        {
            if (!atEnd()) {
                throw invalid();
            }
        }

        char next()
        {
            if (atEnd()) {
                throw invalid();
            }
            return text.charAt(position++);
        }

        private char peek()
        {
            return atEnd() ? 0 : text.charAt(position);
        }

        private void expect(char expected)
        {
            if (next() != expected) {
                throw invalid();
            }
        }

        private int digits(int count)
        {
            int value = 0;
            for (int i = 0; i < count; i++) {
                char c = next();
                if (!isDigit(c)) {
                    throw invalid();
                }
                value = value * 10 + (c - '0');
            }
            return value;
        }

        private static boolean isDigit(char c)
        {
            return c >= '0' && c <= '9';
        }

        IllegalArgumentException invalid()
        {
            return new IllegalArgumentException("not a date-time without time zone: '" + text + "'");
        }
    }
}
