package io.ontul.engine.stream.job;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ontul.spi.DataSize;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The WITH options of CREATE STREAMING JOB.
 *
 * @param checkpointInterval time from the start of one checkpoint to the start of the next
 * ({@value #CHECKPOINT_INTERVAL}, default 10s)
 * @param checkpointTimeout a checkpoint that not every task has acknowledged this long after its
 * barriers were injected is aborted: the job carries on and a later checkpoint commits its rows
 * ({@value #CHECKPOINT_TIMEOUT}, default 10m)
 * @param checkpointMinPause least time from the end of one checkpoint to the start of the next
 * ({@value #CHECKPOINT_MIN_PAUSE}, default 0s)
 * @param restartMaxAttempts restarts after consecutive failures before the job is FAILED
 * ({@value #RESTART_MAX_ATTEMPTS}, default 3)
 * @param restartBackoff wait before each restart ({@value #RESTART_BACKOFF}, default 1s)
 * @param deliveryGuarantee {@value #DELIVERY_GUARANTEE}, default exactly-once
 * @param rejectsTable {@value #REJECTS_TABLE}: the table undecodable records are written to, as
 * written ({@code catalog.schema.table}), if any
 * @param maxMemory {@value #MAX_MEMORY}: the job's memory budget in bytes, if set (else the
 * engine's {@code ontul.query.max-memory}); window state spills when it runs short
 * @param parallelism {@value #PARALLELISM}: the job's tasks of each kind (source readers, window
 * aggregations, sink writers); a job created without it gets the engine's
 * {@code ontul.streaming.default-parallelism} (1 unless set)
 * @param maxParallelism {@value #MAX_PARALLELISM}: the number of key groups a windowed job's
 * keys are hashed into, the most tasks it can ever have (default 128); fixed for the job's life
 */
public record StreamingJobOptions(Duration checkpointInterval, Duration checkpointTimeout, Duration checkpointMinPause, int restartMaxAttempts, Duration restartBackoff,
        DeliveryGuarantee deliveryGuarantee, Optional<String> rejectsTable, OptionalLong maxMemory, int parallelism, int maxParallelism)
{
    public static final String CHECKPOINT_INTERVAL = "checkpoint.interval";
    public static final String CHECKPOINT_TIMEOUT = "checkpoint.timeout";
    public static final String CHECKPOINT_MIN_PAUSE = "checkpoint.min-pause";
    public static final String RESTART_MAX_ATTEMPTS = "restart.max-attempts";
    public static final String RESTART_BACKOFF = "restart.backoff";
    public static final String DELIVERY_GUARANTEE = "delivery.guarantee";
    public static final String PARALLELISM = "parallelism";
    public static final String MAX_PARALLELISM = "max-parallelism";
    /** The most key groups a job may have. */
    public static final int MAX_KEY_GROUPS = 32768;
    public static final String REJECTS_TABLE = "rejects.table";
    public static final String MAX_MEMORY = "max-memory";
    /** Every option with its default, in the order DESCRIBE shows them. */
    public static final Map<String, String> DEFAULTS = orderedDefaults();
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|min|h)");

    /** What a sink promises when the job restarts after a failure. */
    public enum DeliveryGuarantee
    {
        /** Two-phase: sinks commit a checkpoint only once it is stored; a replay never writes a row twice. */
        EXACTLY_ONCE("exactly-once"),
        /** Sinks commit at the barrier, before the checkpoint is stored: a failure in between replays rows already written. */
        AT_LEAST_ONCE("at-least-once");

        private final String text;

        DeliveryGuarantee(String text)
        {
            this.text = text;
        }

        public String text()
        {
            return text;
        }
    }

    public StreamingJobOptions
    {
        requireNonNull(checkpointInterval, "checkpointInterval is null");
        requireNonNull(checkpointTimeout, "checkpointTimeout is null");
        requireNonNull(checkpointMinPause, "checkpointMinPause is null");
        requireNonNull(restartBackoff, "restartBackoff is null");
        requireNonNull(deliveryGuarantee, "deliveryGuarantee is null");
        requireNonNull(rejectsTable, "rejectsTable is null");
        requireNonNull(maxMemory, "maxMemory is null");
    }

    /** Reads and checks the options; an unknown name or a bad value is an INVALID_ARGUMENT error naming it. */
    public static StreamingJobOptions parse(Map<String, String> options)
    {
        for (String name : options.keySet()) {
            if (!DEFAULTS.containsKey(name)) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Unknown streaming job option '" + name + "'; the options are " + new TreeSet<>(DEFAULTS.keySet()));
            }
        }
        Duration interval = duration(options, CHECKPOINT_INTERVAL);
        if (interval.toMillis() < 10) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Streaming job option '" + CHECKPOINT_INTERVAL + "' must be at least 10ms: " + options.get(CHECKPOINT_INTERVAL));
        }
        Duration timeout = duration(options, CHECKPOINT_TIMEOUT);
        if (timeout.toMillis() < 10) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Streaming job option '" + CHECKPOINT_TIMEOUT + "' must be at least 10ms: " + options.get(CHECKPOINT_TIMEOUT));
        }
        int maxAttempts = wholeNumber(options, RESTART_MAX_ATTEMPTS, 0);
        int parallelism = wholeNumber(options, PARALLELISM, 1);
        int maxParallelism = wholeNumber(options, MAX_PARALLELISM, 1);
        if (maxParallelism > MAX_KEY_GROUPS) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Streaming job option '" + MAX_PARALLELISM + "' = " + maxParallelism + " is more than " + MAX_KEY_GROUPS);
        }
        if (parallelism > maxParallelism) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Streaming job option '" + PARALLELISM + "' = " + parallelism + " is more than its '" + MAX_PARALLELISM + "' of "
                    + maxParallelism + ": a job cannot have more tasks than key groups");
        }
        String guarantee = value(options, DELIVERY_GUARANTEE).toLowerCase(Locale.ROOT);
        DeliveryGuarantee deliveryGuarantee = null;
        for (DeliveryGuarantee candidate : DeliveryGuarantee.values()) {
            if (candidate.text().equals(guarantee)) {
                deliveryGuarantee = candidate;
            }
        }
        if (deliveryGuarantee == null) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid value '" + options.get(DELIVERY_GUARANTEE) + "' for streaming job option '" + DELIVERY_GUARANTEE
                    + "': use 'exactly-once' or 'at-least-once'");
        }
        Optional<String> rejectsTable = Optional.of(value(options, REJECTS_TABLE)).filter(name -> !name.isEmpty());
        String memory = value(options, MAX_MEMORY);
        OptionalLong maxMemory = memory.isEmpty() ? OptionalLong.empty() : OptionalLong.of(DataSize.parse(memory, "streaming job option '" + MAX_MEMORY + "'"));
        return new StreamingJobOptions(interval, timeout, duration(options, CHECKPOINT_MIN_PAUSE), maxAttempts, duration(options, RESTART_BACKOFF), deliveryGuarantee, rejectsTable, maxMemory,
                parallelism, maxParallelism);
    }

    private static int wholeNumber(Map<String, String> options, String name, int minimum)
    {
        String text = value(options, name);
        int number;
        try {
            number = Integer.parseInt(text);
        }
        catch (NumberFormatException e) {
            number = minimum - 1;
        }
        if (number < minimum) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid value '" + text + "' for streaming job option '" + name + "': use a whole number of at least " + minimum);
        }
        return number;
    }

    private static String value(Map<String, String> options, String name)
    {
        return options.getOrDefault(name, DEFAULTS.get(name)).trim();
    }

    private static Duration duration(Map<String, String> options, String name)
    {
        String text = value(options, name).toLowerCase(Locale.ROOT);
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

    private static Map<String, String> orderedDefaults()
    {
        Map<String, String> defaults = new java.util.LinkedHashMap<>();
        defaults.put(CHECKPOINT_INTERVAL, "10s");
        defaults.put(CHECKPOINT_TIMEOUT, "10m");
        defaults.put(CHECKPOINT_MIN_PAUSE, "0s");
        defaults.put(DELIVERY_GUARANTEE, DeliveryGuarantee.EXACTLY_ONCE.text());
        defaults.put(PARALLELISM, "1");
        defaults.put(MAX_PARALLELISM, String.valueOf(io.ontul.engine.stream.shuffle.KeyGroups.DEFAULT_MAX_PARALLELISM));
        defaults.put(REJECTS_TABLE, "");
        defaults.put(MAX_MEMORY, "");
        defaults.put(RESTART_MAX_ATTEMPTS, "3");
        defaults.put(RESTART_BACKOFF, "1s");
        return java.util.Collections.unmodifiableMap(defaults);
    }
}
