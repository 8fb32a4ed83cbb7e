package io.ontul.engine.query;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes query ids such as {@code 20261130_142512_00003_k7m2q}: the UTC date and time, a counter
 * (five digits, wrapping), and a suffix chosen once per engine, so ids stay unique across
 * restarts and sort by time.
 */
public final class QueryIds
{
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss");
    private static final String LETTERS = "abcdefghijkmnpqrstuvwxyz23456789";

    private final AtomicLong counter = new AtomicLong();
    private final String suffix;

    public QueryIds()
    {
        SecureRandom random = new SecureRandom();
        StringBuilder builder = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            builder.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        }
        this.suffix = builder.toString();
    }

    public String next()
    {
        long number = counter.incrementAndGet() % 100_000;
        return TIME.format(ZonedDateTime.now(ZoneOffset.UTC)) + "_" + String.format("%05d", number) + "_" + suffix;
    }
}
