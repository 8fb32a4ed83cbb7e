package io.ontul.engine.expression;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * TIMESTAMP WITH TIME ZONE, as PostgreSQL and DuckDB have it: an instant, held as epoch
 * milliseconds or microseconds (UTC). The session's time zone ({@code SET TIME ZONE}, UTC unless
 * set) is where text without a zone is read and values print; the planner passes it to the
 * two-argument forms here ({@code plan.SessionTimeZone}), and in UTC CAST to and from TIMESTAMP
 * keeps the digits. {@code AT
 * TIME ZONE} moves between the two types in any zone (IANA names such as
 * {@code Europe/Berlin}, or offsets such as {@code +02:00}), with the zone's rules for daylight
 * saving: a local time the clocks skip is moved forward by the gap, one they repeat takes the
 * earlier offset.
 */
public final class ZonedTimestamps
{
    private static final Pattern TEXT = Pattern.compile(
            "\\s*(\\d{4}-\\d{1,2}-\\d{1,2})(?:[ T](\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?))?\\s*(Z|[+-]\\d{1,2}(?::?\\d{2})?|[A-Za-z][A-Za-z0-9_/+:-]*)?\\s*");
    private static final Pattern OFFSET = Pattern.compile("([+-])(\\d{1,2})(?::?(\\d{2}))?");
    private static final Map<String, ZoneId> ZONES = new ConcurrentHashMap<>();

    private ZonedTimestamps() {}

    /** {@code CAST(text AS TIMESTAMP WITH TIME ZONE)}: a date and time with an optional offset or zone name (UTC without one). */
    public static long parse(String text, boolean micros)
    {
        return parse(text, micros, "UTC");
    }

    /** {@code CAST(text AS TIMESTAMP WITH TIME ZONE)} in a session whose time zone is {@code sessionZone}: text without a zone is a local time there. */
    public static long parse(String text, boolean micros, String sessionZone)
    {
        Matcher matcher = TEXT.matcher(text);
        if (!matcher.matches()) {
            throw Functions.invalidCast(text, "TIMESTAMP WITH TIME ZONE");
        }
        try {
            LocalDate date = LocalDate.parse(normalizeDate(matcher.group(1)));
            LocalDateTime local = matcher.group(2) == null ? date.atStartOfDay() : LocalDateTime.of(date, java.time.LocalTime.parse(normalizeTime(matcher.group(2))));
            ZoneId zone = zone(matcher.group(3) == null ? sessionZone : matcher.group(3));
            return epoch(local.atZone(zone).toInstant(), micros);
        }
        catch (DateTimeException e) {
            throw Functions.invalidCast(text, "TIMESTAMP WITH TIME ZONE");
        }
    }

    /** The text of an instant in the session's zone (UTC): {@code 2024-01-02 03:04:05.678 UTC}. */
    public static String format(long value, boolean micros)
    {
        return Functions.timestampToString(value, micros) + " UTC";
    }

    /** The text of an instant in a session's zone: its local time there and the zone as the session named it ({@code 2024-01-02 04:04:05.678 Europe/Berlin}). */
    public static String format(long value, boolean micros, String sessionZone)
    {
        return Functions.timestampToString(toLocal(value, micros, sessionZone), micros) + " " + zone(sessionZone).getId();
    }

    /**
     * The session time zone {@code SET TIME ZONE} names, as the engine writes it: a name such as
     * {@code Europe/Berlin}, an offset as {@code +02:00}, {@code UTC}.
     *
     * @throws io.ontul.spi.OntulException INVALID_ARGUMENT naming an unknown zone
     */
    public static String sessionZone(String name)
    {
        ZoneId zone = zone(name);
        return zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
    }

    /** {@code instant AT TIME ZONE zone}: the local date and time there, as a TIMESTAMP. */
    public static long toLocal(long instant, boolean micros, String zone)
    {
        ZonedDateTime there = instant(instant, micros).atZone(zone(zone));
        return epoch(there.toLocalDateTime().toInstant(ZoneOffset.UTC), micros);
    }

    /** {@code timestamp AT TIME ZONE zone} (and Trino's {@code with_timezone}): the instant the local time is in that zone. */
    public static long fromLocal(long local, boolean micros, String zone)
    {
        LocalDateTime dateTime = Functions.toLocalDateTime(local, micros);
        return epoch(ZonedDateTime.ofLocal(dateTime, zone(zone), null).toInstant(), micros);
    }

    /** For format(): the instant in the session's zone. */
    public static ZonedDateTime toZonedDateTime(long value, boolean micros)
    {
        return instant(value, micros).atZone(ZoneOffset.UTC);
    }

    static ZoneId zone(String name)
    {
        ZoneId cached = ZONES.get(name);
        if (cached != null) {
            return cached;
        }
        try {
            String trimmed = name.strip();
            ZoneId zone = trimmed.equalsIgnoreCase("UTC") || trimmed.equals("Z") ? ZoneOffset.UTC : ZoneId.of(normalizeOffset(trimmed));
            if (ZONES.size() < 10_000) {
                ZONES.put(name, zone);
            }
            return zone;
        }
        catch (DateTimeException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Unknown time zone '" + name + "': use a name such as 'Europe/Berlin' or an offset such as '+02:00'");
        }
    }

    /** {@code +2}, {@code +02} and {@code +0200} as {@code +02:00}. */
    private static String normalizeOffset(String zone)
    {
        Matcher offset = OFFSET.matcher(zone);
        if (!offset.matches()) {
            return zone;
        }
        String hours = offset.group(2).length() == 1 ? "0" + offset.group(2) : offset.group(2);
        return offset.group(1) + hours + ":" + (offset.group(3) == null ? "00" : offset.group(3));
    }

    private static String normalizeDate(String date)
    {
        String[] parts = date.split("-");
        return parts[0] + "-" + (parts[1].length() == 1 ? "0" : "") + parts[1] + "-" + (parts[2].length() == 1 ? "0" : "") + parts[2];
    }

    private static String normalizeTime(String time)
    {
        return time.indexOf(':') == 1 ? "0" + time : time;
    }

    private static Instant instant(long value, boolean micros)
    {
        long unitsPerSecond = micros ? 1_000_000 : 1000;
        return Instant.ofEpochSecond(Math.floorDiv(value, unitsPerSecond), Math.floorMod(value, unitsPerSecond) * (1_000_000_000L / unitsPerSecond));
    }

    private static long epoch(Instant instant, boolean micros)
    {
        return micros
                ? Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000)
                : Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1000L), instant.getNano() / 1_000_000);
    }
}
