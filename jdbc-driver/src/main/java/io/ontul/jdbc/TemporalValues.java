package io.ontul.jdbc;

import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Calendar;

/**
 * Reads Ontul's DATE, TIME and TIMESTAMP values, which have no time zone, exactly as written,
 * whatever the client's default time zone and Arrow's {@code timeZone} setting.
 * <p>
 * Arrow's driver 18.3.0 converts them through the JVM's default zone in ways no single
 * {@code timeZone} value undoes (found by reading every accessor under UTC,
 * America/Los_Angeles and Asia/Kolkata): {@code getTimestamp} and {@code getTime} shift by the
 * zone offset, and with {@code timeZone=UTC} {@code getDate} shifts as well. What it returns
 * without any conversion: {@code getObject(i, LocalDateTime.class)} for TIMESTAMP, and the
 * epoch value of {@code getObject(i, Date.class)} and {@code getObject(i, Time.class)}, which
 * are built without a calendar. The JDBC objects are then made here the way JDBC defines them:
 * the written wall-clock value in the default zone, or in the zone of a given Calendar.
 */
final class TemporalValues
{
    private static final LocalDate EPOCH = LocalDate.ofEpochDay(0);
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private TemporalValues() {}

    static boolean isTemporal(int sqlType)
    {
        return sqlType == Types.DATE || sqlType == Types.TIME || sqlType == Types.TIMESTAMP;
    }

    /** The value of a DATE, TIME or TIMESTAMP column as a LocalDateTime (a DATE at midnight, a TIME on 1970-01-01), or null. */
    static LocalDateTime read(ResultSet result, int column, int sqlType)
            throws SQLException
    {
        switch (sqlType) {
            case Types.DATE -> {
                Date date = result.getObject(column, Date.class);
                return date == null ? null : date.toLocalDate().atStartOfDay();
            }
            case Types.TIME -> {
                // Arrow builds the Time from the raw milliseconds of the day, read as an instant
                Time time = result.getObject(column, Time.class);
                return time == null ? null : LocalTime.ofNanoOfDay(Math.floorMod(time.getTime(), MILLIS_PER_DAY) * 1_000_000L).atDate(EPOCH);
            }
            default -> {
                return result.getObject(column, LocalDateTime.class);
            }
        }
    }

    static Date date(LocalDateTime value, Calendar calendar)
    {
        return new Date(value.toLocalDate().atStartOfDay(zone(calendar)).toInstant().toEpochMilli());
    }

    static Time time(LocalDateTime value, Calendar calendar)
    {
        return new Time(value.toLocalTime().atDate(EPOCH).atZone(zone(calendar)).toInstant().toEpochMilli());
    }

    static Timestamp timestamp(LocalDateTime value, Calendar calendar)
    {
        if (calendar == null) {
            return Timestamp.valueOf(value);
        }
        return Timestamp.from(value.atZone(zone(calendar)).toInstant());
    }

    /** The JDBC object getObject(i) returns for the column type. */
    static Object object(LocalDateTime value, int sqlType)
    {
        return switch (sqlType) {
            case Types.DATE -> date(value, null);
            case Types.TIME -> time(value, null);
            default -> timestamp(value, null);
        };
    }

    /** getObject(i, type) for the types JDBC 4.2 names for temporal columns; null when the type is none of them. */
    static Object convert(LocalDateTime value, int sqlType, Class<?> type)
    {
        if (type == LocalDate.class && sqlType != Types.TIME) {
            return value.toLocalDate();
        }
        if (type == LocalTime.class && sqlType != Types.DATE) {
            return value.toLocalTime();
        }
        if (type == LocalDateTime.class) {
            return value;
        }
        if (type == Date.class) {
            return date(value, null);
        }
        if (type == Time.class) {
            return time(value, null);
        }
        if (type == Timestamp.class || type == java.util.Date.class) {
            return timestamp(value, null);
        }
        return null;
    }

    /** getString for a TIME column: Arrow's renders it in the default zone. */
    static String timeText(LocalDateTime value)
    {
        return DateTimeFormatter.ISO_LOCAL_TIME.format(value.toLocalTime());
    }

    private static ZoneId zone(Calendar calendar)
    {
        return calendar == null ? ZoneId.systemDefault() : calendar.getTimeZone().toZoneId();
    }
}
