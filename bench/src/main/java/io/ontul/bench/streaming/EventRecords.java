package io.ontul.bench.streaming;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The benchmark's events as the JSON values of Kafka records:
 * {@code {"event_id":..,"category":"c0".."c99","amount":..,"event_time":"2026-01-01T00:00:00.000"}}.
 * Pre-filled event {@code i} goes to partition {@code i % partitions}; its event time is
 * {@code i} ms after 2026-01-01 00:00, minus up to 499 ms (a little out of order, within the
 * tables' 1 s watermark delay, so no event is late); its amount is a multiple of 0.5, so sums are
 * exact in any order. After them, one closing event per partition, a day ahead, moves every
 * partition's watermark past every window of the pre-filled events.
 */
final class EventRecords
{
    static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);
    static final long EPOCH_MILLIS = EPOCH.toInstant(ZoneOffset.UTC).toEpochMilli();
    static final int CATEGORIES = 100;
    static final long WINDOW_MILLIS = 10_000;
    static final double CLOSING_AMOUNT = 0.5;

    /** Milliseconds after {@link #EPOCH} of pre-filled event {@code i}. */
    static long eventMillis(long i)
    {
        return i - (i * 7919L % 500);
    }

    static int category(long i)
    {
        return (int) (i % CATEGORIES);
    }

    static double amount(long i)
    {
        return (i * 37 % 200) + 0.5;
    }

    /** Milliseconds after {@link #EPOCH} of the closing events that follow {@code rows} pre-filled ones. */
    static long closingMillis(long rows)
    {
        return rows + 86_400_000L;
    }

    String prefilled(long i)
    {
        return json(i, category(i), amount(i), EPOCH_MILLIS + eventMillis(i));
    }

    String closing(long rows, int partition)
    {
        return json(-1 - partition, 0, CLOSING_AMOUNT, EPOCH_MILLIS + closingMillis(rows));
    }

    /** An event whose event time is {@code epochMillis} (UTC wall-clock time for live events). */
    String json(long id, int category, double amount, long epochMillis)
    {
        StringBuilder json = new StringBuilder(96)
                .append("{\"event_id\":").append(id)
                .append(",\"category\":\"c").append(category)
                .append("\",\"amount\":").append(amount)
                .append(",\"event_time\":\"");
        appendTimestamp(json, epochMillis);
        return json.append("\"}").toString();
    }

    /** {@code epochMillis} as ISO-8601 local date-time in UTC with milliseconds: {@code 2026-01-01T00:00:00.000}. */
    static void appendTimestamp(StringBuilder text, long epochMillis)
    {
        long ofDay = Math.floorMod(epochMillis, 86_400_000L);
        text.append(LocalDate.ofEpochDay(Math.floorDiv(epochMillis, 86_400_000L))).append('T');
        pad(text, ofDay / 3_600_000, 2).append(':');
        pad(text, ofDay / 60_000 % 60, 2).append(':');
        pad(text, ofDay / 1000 % 60, 2).append('.');
        pad(text, ofDay % 1000, 3);
    }

    private static StringBuilder pad(StringBuilder text, long value, int digits)
    {
        String number = Long.toString(value);
        for (int i = number.length(); i < digits; i++) {
            text.append('0');
        }
        return text.append(number);
    }
}
