package io.ontul.engine.streaming;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The WITH options of CREATE STREAMING JOB.
 *
 * @param checkpointInterval time between checkpoints ({@value #CHECKPOINT_INTERVAL}, default 10s)
 * @param restartMaxAttempts restarts after consecutive failures before the job is FAILED
 * ({@value #RESTART_MAX_ATTEMPTS}, default 3)
 * @param restartBackoff wait before each restart ({@value #RESTART_BACKOFF}, default 1s)
 */
public record StreamingJobOptions(Duration checkpointInterval, int restartMaxAttempts, Duration restartBackoff)
{
    public static final String CHECKPOINT_INTERVAL = "checkpoint.interval";
    public static final String RESTART_MAX_ATTEMPTS = "restart.max-attempts";
    public static final String RESTART_BACKOFF = "restart.backoff";
    public static final String DEFAULT_CHECKPOINT_INTERVAL = "10s";
    public static final String DEFAULT_RESTART_MAX_ATTEMPTS = "3";
    public static final String DEFAULT_RESTART_BACKOFF = "1s";
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|min|h)");
    private static final Set<String> NAMES = Set.of(CHECKPOINT_INTERVAL, RESTART_MAX_ATTEMPTS, RESTART_BACKOFF);

    public StreamingJobOptions
    {
        requireNonNull(checkpointInterval, "checkpointInterval is null");
        requireNonNull(restartBackoff, "restartBackoff is null");
    }

    /** Reads and checks the options; an unknown name or a bad value is an INVALID_ARGUMENT error naming it. */
    public static StreamingJobOptions parse(Map<String, String> options)
    {
        for (String name : options.keySet()) {
            if (!NAMES.contains(name)) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Unknown streaming job option '" + name + "'; the options are " + new TreeSet<>(NAMES));
            }
        }
        Duration interval = duration(options, CHECKPOINT_INTERVAL, DEFAULT_CHECKPOINT_INTERVAL);
        if (interval.toMillis() < 10) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Streaming job option '" + CHECKPOINT_INTERVAL + "' must be at least 10ms: " + options.get(CHECKPOINT_INTERVAL));
        }
        String attempts = options.getOrDefault(RESTART_MAX_ATTEMPTS, DEFAULT_RESTART_MAX_ATTEMPTS).trim();
        int maxAttempts;
        try {
            maxAttempts = Integer.parseInt(attempts);
        }
        catch (NumberFormatException e) {
            maxAttempts = -1;
        }
        if (maxAttempts < 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid value '" + attempts + "' for streaming job option '" + RESTART_MAX_ATTEMPTS + "': use a whole number of at least 0");
        }
        return new StreamingJobOptions(interval, maxAttempts, duration(options, RESTART_BACKOFF, DEFAULT_RESTART_BACKOFF));
    }

    private static Duration duration(Map<String, String> options, String name, String defaultValue)
    {
        String text = options.getOrDefault(name, defaultValue).trim().toLowerCase(Locale.ROOT);
        Matcher matcher = DURATION.matcher(text);
        if (!matcher.matches()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid duration '" + options.get(name) + "' for streaming job option '" + name
                    + "': use a number with a unit, such as 500ms, 10s, 5m or 1h");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m", "min" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }
}
