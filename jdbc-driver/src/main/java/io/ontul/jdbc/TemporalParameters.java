package io.ontul.jdbc;

import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Locale;

/**
 * Binds DATE, TIME and TIMESTAMP parameters as the raw numbers of the server's parameter vector.
 * <p>
 * Arrow's driver 18.3.0 writes a timestamp's milliseconds into the parameter vector whatever
 * its unit (a TIMESTAMP(6) parameter then reads as a day in January 1970), shifts DATE and TIME
 * parameters by the client's time zone, and rejects java.time values. Its binders do put an
 * integer (days, seconds or milliseconds) or a long (epoch units) into the vector unchanged, so
 * the value is converted here to that number from the parameter type the server announced,
 * which Arrow reports as the Arrow type ({@code Date(DAY)}, {@code Time(MILLISECOND, 32)},
 * {@code Timestamp(MICROSECOND, null)}).
 */
final class TemporalParameters
{
    private TemporalParameters() {}

    /**
     * Binds a setDate/setTime/setTimestamp/setObject call if its value is temporal and the
     * parameter's type is one this class knows; returns false to leave the call to Arrow.
     */
    static boolean bind(PreparedStatement statement, String parameterType, String method, Object[] arguments)
            throws SQLException
    {
        if (parameterType == null || arguments.length < 2 || arguments[1] == null) {
            return false;
        }
        Calendar calendar = arguments.length == 3 && arguments[2] instanceof Calendar given ? given : null;
        LocalDateTime value = value(method, arguments[1], calendar);
        if (value == null) {
            return false;
        }
        int index = (Integer) arguments[0];
        String type = parameterType.toUpperCase(Locale.ROOT).replace(" ", "");
        if (type.equals("DATE(DAY)")) {
            statement.setInt(index, Math.toIntExact(value.toLocalDate().toEpochDay()));
            return true;
        }
        if (type.startsWith("TIME(SECOND")) {
            statement.setInt(index, value.toLocalTime().toSecondOfDay());
            return true;
        }
        if (type.startsWith("TIME(MILLISECOND")) {
            statement.setInt(index, (int) (value.toLocalTime().toNanoOfDay() / 1_000_000L));
            return true;
        }
        if (type.startsWith("TIMESTAMP(") && type.endsWith(",NULL)")) {
            long seconds = value.toEpochSecond(ZoneOffset.UTC);
            long nanos = value.getNano();
            String unit = type.substring("TIMESTAMP(".length(), type.indexOf(','));
            long raw = switch (unit) {
                case "SECOND" -> seconds;
                case "MILLISECOND" -> Math.addExact(Math.multiplyExact(seconds, 1_000L), nanos / 1_000_000L);
                case "MICROSECOND" -> Math.addExact(Math.multiplyExact(seconds, 1_000_000L), nanos / 1_000L);
                case "NANOSECOND" -> Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos);
                default -> Long.MIN_VALUE;
            };
            if (raw == Long.MIN_VALUE) {
                return false;
            }
            statement.setLong(index, raw);
            return true;
        }
        return false;
    }

    /** The wall-clock value the caller means, or null when it is not a temporal value. */
    private static LocalDateTime value(String method, Object value, Calendar calendar)
    {
        ZoneId zone = calendar == null ? ZoneId.systemDefault() : calendar.getTimeZone().toZoneId();
        if (value instanceof LocalDateTime local) {
            return local;
        }
        if (value instanceof LocalDate local) {
            return local.atStartOfDay();
        }
        if (value instanceof LocalTime local) {
            return local.atDate(LocalDate.ofEpochDay(0));
        }
        if (value instanceof Timestamp timestamp) {
            return calendar == null ? timestamp.toLocalDateTime() : LocalDateTime.ofInstant(timestamp.toInstant(), zone);
        }
        if (value instanceof Date || value instanceof Time) {
            return LocalDateTime.ofInstant(Instant.ofEpochMilli(((java.util.Date) value).getTime()), zone);
        }
        if (value instanceof java.util.Date date && method.equals("setObject")) {
            return LocalDateTime.ofInstant(date.toInstant(), zone);
        }
        return null;
    }
}
