package io.ontul.engine.query;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The engine-wide limits on statements, from {@code conf/ontul.properties}.
 *
 * @param maxConcurrent queries and DML statements that may run at once; 0 means no limit
 * @param maxQueued statements that may wait for a slot; one more is rejected
 * @param maxRunTime the default of the session property {@code query_max_run_time}; empty means no limit
 * @param maxHistory finished statements kept for {@code system.runtime.queries}
 * @param historyMaxAge how long a finished statement stays there at most
 * @param maxSqlLength characters a statement may have
 * @param maxExpressionDepth how deeply expressions and queries may nest (parentheses, subqueries, operators)
 * @param maxGroupingSets grouping sets one GROUP BY may make (CUBE of n columns makes 2^n)
 * @param maxPlanningTime how long a statement may take to validate and plan
 */
public record QueryLimits(int maxConcurrent, int maxQueued, Optional<Duration> maxRunTime, int maxHistory, Duration historyMaxAge,
        int maxSqlLength, int maxExpressionDepth, int maxGroupingSets, Duration maxPlanningTime)
{
    public static final String MAX_CONCURRENT = "ontul.query.max-concurrent";
    public static final String MAX_QUEUED = "ontul.query.max-queued";
    public static final String MAX_RUN_TIME = "ontul.query.max-run-time";
    public static final String MAX_HISTORY = "ontul.query.max-history";
    public static final String HISTORY_MAX_AGE = "ontul.query.history-max-age";
    public static final String MAX_SQL_LENGTH = "ontul.query.max-sql-length";
    public static final String MAX_EXPRESSION_DEPTH = "ontul.query.max-expression-depth";
    public static final String MAX_GROUPING_SETS = "ontul.query.max-grouping-sets";
    public static final String MAX_PLANNING_TIME = "ontul.query.max-planning-time";

    public QueryLimits
    {
        requireNonNull(maxRunTime, "maxRunTime is null");
        requireNonNull(historyMaxAge, "historyMaxAge is null");
        requireNonNull(maxPlanningTime, "maxPlanningTime is null");
    }

    public static QueryLimits fromConfig(EngineConfig config)
    {
        String maxRunTime = config.property(MAX_RUN_TIME, "").trim();
        return new QueryLimits(
                count(config, MAX_CONCURRENT, 0),
                count(config, MAX_QUEUED, 1000),
                maxRunTime.isEmpty() ? Optional.empty() : Optional.of(Durations.parse(maxRunTime, MAX_RUN_TIME)),
                count(config, MAX_HISTORY, 100),
                Durations.parse(config.property(HISTORY_MAX_AGE, "15m"), HISTORY_MAX_AGE),
                count(config, MAX_SQL_LENGTH, 1_000_000),
                count(config, MAX_EXPRESSION_DEPTH, 200),
                count(config, MAX_GROUPING_SETS, 2048),
                Durations.parse(config.property(MAX_PLANNING_TIME, "2m"), MAX_PLANNING_TIME));
    }

    private static int count(EngineConfig config, String key, int defaultValue)
    {
        String text = config.property(key, String.valueOf(defaultValue)).trim();
        try {
            int value = Integer.parseInt(text);
            if (value >= 0) {
                return value;
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid value '%s' for %s: expected a whole number, 0 or more", text, key);
    }
}
