package io.ontul.engine.execution;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.DataSize;
import io.ontul.engine.query.Durations;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** The session properties users may SET, with validation and defaults from the engine config. */
public final class SessionProperties
{
    public static final String QUERY_MAX_MEMORY = "query_max_memory";
    public static final String QUERY_MAX_RUN_TIME = "query_max_run_time";
    public static final String QUERY_MAX_PLANNING_TIME = "query_max_planning_time";
    /** {@code none} (default) or {@code query}: a read-only query that loses a worker before its first rows runs again, once. */
    public static final String RETRY_POLICY = "retry_policy";
    /** The session's time zone ({@code SET TIME ZONE 'Europe/Berlin'}); UTC unless set. */
    public static final String TIME_ZONE = "time_zone";
    private static final Set<String> KNOWN = Set.of(QUERY_MAX_MEMORY, QUERY_MAX_RUN_TIME, QUERY_MAX_PLANNING_TIME, RETRY_POLICY, TIME_ZONE);

    private SessionProperties() {}

    /** Whether a property of this name (in any case) exists. */
    public static boolean isKnown(String name)
    {
        return KNOWN.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Checks the name and, unless {@code value} is null (RESET SESSION), the value; returns the name in lower case. */
    public static String validate(String name, String value)
    {
        String key = name.toLowerCase(Locale.ROOT);
        if (!isKnown(key)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Unknown session property '" + name + "'");
        }
        if (value == null) {
            return key;
        }
        if (key.equals(QUERY_MAX_MEMORY)) {
            DataSize.parse(value, QUERY_MAX_MEMORY);
        }
        if (key.equals(QUERY_MAX_RUN_TIME) || key.equals(QUERY_MAX_PLANNING_TIME)) {
            Durations.parse(value, key);
        }
        if (key.equals(TIME_ZONE)) {
            io.ontul.engine.expression.ZonedTimestamps.sessionZone(value);
        }
        if (key.equals(RETRY_POLICY) && !value.equalsIgnoreCase("none") && !value.equalsIgnoreCase("query")) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid value '" + value + "' for session property " + RETRY_POLICY + ": expected 'none' or 'query'");
        }
        return key;
    }

    /**
     * {@link #validate}, and that the value does not raise the server's limit: a session may lower
     * {@code ontul.query.max-memory}, {@code ontul.query.max-run-time} and
     * {@code ontul.query.max-planning-time} for its own queries; only
     * an administrator (or anyone, in an engine without users) may raise them.
     */
    public static String validate(String name, String value, io.ontul.engine.api.Session session)
    {
        String key = validate(name, value);
        if (value == null || isAdministrator(session)) {
            return key;
        }
        EngineConfig config = session.engine().config();
        if (key.equals(QUERY_MAX_MEMORY)) {
            long limit = queryMaxMemory(Map.of(), config);
            if (DataSize.parse(value, QUERY_MAX_MEMORY) > limit) {
                throw new OntulException(ErrorCode.PERMISSION_DENIED, "Permission denied: %s '%s' is above the server's limit of %s (%s); only an administrator may raise it"
                        .formatted(QUERY_MAX_MEMORY, value, config.property(EngineConfig.QUERY_MAX_MEMORY, "2GB"), EngineConfig.QUERY_MAX_MEMORY));
            }
        }
        if (key.equals(QUERY_MAX_RUN_TIME)) {
            Optional<Duration> limit = session.engine().queries().limits().maxRunTime();
            if (limit.isPresent() && Durations.parse(value, QUERY_MAX_RUN_TIME).compareTo(limit.get()) > 0) {
                throw new OntulException(ErrorCode.PERMISSION_DENIED, "Permission denied: %s '%s' is above the server's limit of %s (%s); only an administrator may raise it"
                        .formatted(QUERY_MAX_RUN_TIME, value, config.property(io.ontul.engine.query.QueryLimits.MAX_RUN_TIME, ""), io.ontul.engine.query.QueryLimits.MAX_RUN_TIME));
            }
        }
        if (key.equals(QUERY_MAX_PLANNING_TIME)) {
            Duration limit = session.engine().queries().limits().maxPlanningTime();
            if (Durations.parse(value, QUERY_MAX_PLANNING_TIME).compareTo(limit) > 0) {
                throw new OntulException(ErrorCode.PERMISSION_DENIED, "Permission denied: %s '%s' is above the server's limit of %s (%s); only an administrator may raise it"
                        .formatted(QUERY_MAX_PLANNING_TIME, value, Durations.format(limit), io.ontul.engine.query.QueryLimits.MAX_PLANNING_TIME));
            }
        }
        return key;
    }

    /** Administrators of the server's users; everyone in an engine without users (bin/ontul sql, tests, benchmarks). */
    static boolean isAdministrator(io.ontul.engine.api.Session session)
    {
        return session.engine().userManagement().map(users -> users.isAdmin(session.user())).orElse(true);
    }

    public static long queryMaxMemory(Map<String, String> session, EngineConfig config)
    {
        String value = session.get(QUERY_MAX_MEMORY);
        if (value != null) {
            return DataSize.parse(value, QUERY_MAX_MEMORY);
        }
        return DataSize.parse(config.property(EngineConfig.QUERY_MAX_MEMORY, "2GB"), EngineConfig.QUERY_MAX_MEMORY);
    }

    /** The session's time zone, as {@code ZonedTimestamps.sessionZone} writes it: {@code UTC} unless set. */
    public static String timeZone(Map<String, String> session)
    {
        String value = session.get(TIME_ZONE);
        return value == null ? "UTC" : io.ontul.engine.expression.ZonedTimestamps.sessionZone(value);
    }

    /** Whether the session asked for failed queries to run again ({@value #RETRY_POLICY} = 'query'). */
    public static boolean retriesQueries(Map<String, String> session)
    {
        return "query".equalsIgnoreCase(session.getOrDefault(RETRY_POLICY, "none"));
    }

    /** The session's own run-time limit; empty when it uses the engine's default ({@code ontul.query.max-run-time}). */
    public static Optional<Duration> queryMaxRunTime(Map<String, String> session)
    {
        return Optional.ofNullable(session.get(QUERY_MAX_RUN_TIME)).map(value -> Durations.parse(value, QUERY_MAX_RUN_TIME));
    }

    /** How long the session's statements may plan: its own limit, else {@code ontul.query.max-planning-time}. */
    public static Duration queryMaxPlanningTime(Map<String, String> session, io.ontul.engine.query.QueryLimits limits)
    {
        return Optional.ofNullable(session.get(QUERY_MAX_PLANNING_TIME)).map(value -> Durations.parse(value, QUERY_MAX_PLANNING_TIME)).orElse(limits.maxPlanningTime());
    }
}
