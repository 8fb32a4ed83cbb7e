package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The properties of a {@code connector.name=jdbc} catalog, validated. {@link #toString()} never
 * shows the password.
 * <ul>
 * <li>{@code connection-url} (required): the JDBC URL; a {@code password=} parameter in it is
 * taken out and used as the password</li>
 * <li>{@code connection-user}, {@code connection-password}</li>
 * <li>{@code connection-pool.max-size} (default 8), {@code connection-pool.connection-timeout}
 * (default 10s): how long a statement waits for a free connection</li>
 * <li>{@code read.fetch-size} (default 10000): rows the driver fetches per round trip</li>
 * <li>{@code read.split-column.<schema>.<table>}: a numeric column to cut scans of the table
 * into ranges; {@code read.splits}: how many (default: the engine's hint, at most half the pool)</li>
 * <li>{@code read.aggregate-pushdown} (default true): let the database compute the GROUP BY of
 * aggregations it computes exactly as the engine (PostgreSQL)</li>
 * <li>{@code write.batch-size} (default 1000): rows per batched INSERT</li>
 * <li>{@code stream.marker-schema} (default public): the schema of the table
 * {@code ontul_stream_commits} where streaming jobs record their committed checkpoints</li>
 * </ul>
 */
public final class JdbcConfig
{
    public static final String CONNECTION_URL = "connection-url";
    public static final String CONNECTION_USER = "connection-user";
    public static final String CONNECTION_PASSWORD = "connection-password";
    public static final String POOL_MAX_SIZE = "connection-pool.max-size";
    public static final String POOL_CONNECTION_TIMEOUT = "connection-pool.connection-timeout";
    public static final String FETCH_SIZE = "read.fetch-size";
    public static final String SPLITS = "read.splits";
    public static final String SPLIT_COLUMN_PREFIX = "read.split-column.";
    public static final String AGGREGATE_PUSHDOWN = "read.aggregate-pushdown";
    public static final String WRITE_BATCH_SIZE = "write.batch-size";
    public static final String STREAM_MARKER_SCHEMA = "stream.marker-schema";

    private static final Set<String> PROPERTIES = Set.of(CONNECTION_URL, CONNECTION_USER, CONNECTION_PASSWORD, POOL_MAX_SIZE, POOL_CONNECTION_TIMEOUT,
            FETCH_SIZE, SPLITS, AGGREGATE_PUSHDOWN, WRITE_BATCH_SIZE, STREAM_MARKER_SCHEMA);
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m)?");

    private final String catalogName;
    private final JdbcUrl url;
    private final Optional<String> user;
    private final Optional<String> password;
    private final int poolMaxSize;
    private final Duration connectionTimeout;
    private final int fetchSize;
    private final OptionalInt splits;
    private final Map<String, String> splitColumns;
    private final boolean aggregatePushdown;
    private final int writeBatchSize;
    private final String streamMarkerSchema;

    private JdbcConfig(String catalogName, JdbcUrl url, Optional<String> user, Optional<String> password, int poolMaxSize, Duration connectionTimeout, int fetchSize,
            OptionalInt splits, Map<String, String> splitColumns, boolean aggregatePushdown, int writeBatchSize, String streamMarkerSchema)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.url = requireNonNull(url, "url is null");
        this.user = requireNonNull(user, "user is null");
        this.password = requireNonNull(password, "password is null");
        this.poolMaxSize = poolMaxSize;
        this.connectionTimeout = requireNonNull(connectionTimeout, "connectionTimeout is null");
        this.fetchSize = fetchSize;
        this.splits = requireNonNull(splits, "splits is null");
        this.splitColumns = Map.copyOf(requireNonNull(splitColumns, "splitColumns is null"));
        this.aggregatePushdown = aggregatePushdown;
        this.writeBatchSize = writeBatchSize;
        this.streamMarkerSchema = requireNonNull(streamMarkerSchema, "streamMarkerSchema is null");
    }

    /**
     * @throws OntulException INVALID_ARGUMENT naming the first unknown, missing or bad property
     */
    public static JdbcConfig parse(String catalogName, Map<String, String> properties)
    {
        Map<String, String> splitColumns = new TreeMap<>();
        for (Map.Entry<String, String> property : new TreeMap<>(properties).entrySet()) {
            String name = property.getKey();
            if (name.startsWith(SPLIT_COLUMN_PREFIX)) {
                String table = name.substring(SPLIT_COLUMN_PREFIX.length());
                int dot = table.indexOf('.');
                if (dot <= 0 || dot == table.length() - 1 || property.getValue().isBlank()) {
                    throw invalid(catalogName, name, "must be written " + SPLIT_COLUMN_PREFIX + "<schema>.<table>=<numeric column>");
                }
                splitColumns.put(table.toLowerCase(Locale.ROOT), property.getValue().strip());
            }
            else if (!PROPERTIES.contains(name)) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown property '%s' (the jdbc connector takes %s, %s<schema>.<table>)",
                        catalogName, name, String.join(", ", new TreeSet<>(PROPERTIES)), SPLIT_COLUMN_PREFIX);
            }
        }
        String urlText = properties.get(CONNECTION_URL);
        if (urlText == null || urlText.isBlank()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' is required", catalogName, CONNECTION_URL);
        }
        JdbcUrl url = JdbcUrl.parse(catalogName, CONNECTION_URL, urlText.strip());
        Optional<String> password = Optional.ofNullable(properties.get(CONNECTION_PASSWORD));
        if (password.isPresent() && url.password().isPresent()) {
            throw invalid(catalogName, CONNECTION_URL, "has a password parameter and '" + CONNECTION_PASSWORD + "' is set too: keep only '" + CONNECTION_PASSWORD + "'");
        }
        int poolMaxSize = integer(catalogName, properties, POOL_MAX_SIZE, 8, 1, 1000);
        String streamMarkerSchema = properties.getOrDefault(STREAM_MARKER_SCHEMA, "public").strip();
        if (streamMarkerSchema.isEmpty()) {
            throw invalid(catalogName, STREAM_MARKER_SCHEMA, "must name a schema");
        }
        return new JdbcConfig(
                catalogName,
                url,
                Optional.ofNullable(properties.get(CONNECTION_USER)).map(String::strip).filter(user -> !user.isEmpty()),
                password.or(url::password),
                poolMaxSize,
                duration(catalogName, properties, POOL_CONNECTION_TIMEOUT, Duration.ofSeconds(10)),
                integer(catalogName, properties, FETCH_SIZE, 10_000, 1, 1_000_000),
                properties.containsKey(SPLITS) ? OptionalInt.of(integer(catalogName, properties, SPLITS, 1, 1, 1024)) : OptionalInt.empty(),
                splitColumns,
                bool(catalogName, properties, AGGREGATE_PUSHDOWN, true),
                integer(catalogName, properties, WRITE_BATCH_SIZE, 1000, 1, 1_000_000),
                streamMarkerSchema);
    }

    private static int integer(String catalogName, Map<String, String> properties, String name, int defaultValue, int min, int max)
    {
        String text = properties.get(name);
        if (text == null) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw invalid(catalogName, name, "must be a whole number from " + min + " to " + max + ", not '" + text + "'");
    }

    private static boolean bool(String catalogName, Map<String, String> properties, String name, boolean defaultValue)
    {
        String text = properties.get(name);
        if (text == null) {
            return defaultValue;
        }
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(catalogName, name, "must be true or false, not '" + text + "'");
        };
    }

    private static Duration duration(String catalogName, Map<String, String> properties, String name, Duration defaultValue)
    {
        String text = properties.get(name);
        if (text == null) {
            return defaultValue;
        }
        Matcher matcher = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            String unit = matcher.group(2) == null ? "ms" : matcher.group(2);
            Duration duration = switch (unit) {
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofMillis(amount);
            };
            // HikariCP's lower bound
            if (duration.toMillis() >= 250) {
                return duration;
            }
        }
        throw invalid(catalogName, name, "must be a duration of at least 250ms such as 10s or 500ms, not '" + text + "'");
    }

    private static OntulException invalid(String catalogName, String property, String problem)
    {
        return OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' %s", catalogName, property, problem);
    }

    public String catalogName()
    {
        return catalogName;
    }

    public JdbcUrl url()
    {
        return url;
    }

    public Optional<String> user()
    {
        return user;
    }

    public Optional<String> password()
    {
        return password;
    }

    public int poolMaxSize()
    {
        return poolMaxSize;
    }

    public Duration connectionTimeout()
    {
        return connectionTimeout;
    }

    public int fetchSize()
    {
        return fetchSize;
    }

    /** Whether aggregations may be offered to the database ({@code read.aggregate-pushdown}). */
    public boolean aggregatePushdown()
    {
        return aggregatePushdown;
    }

    public int writeBatchSize()
    {
        return writeBatchSize;
    }

    /** The schema of the table where streaming jobs record their committed checkpoints ({@code stream.marker-schema}). */
    public String streamMarkerSchema()
    {
        return streamMarkerSchema;
    }

    /**
     * How many splits a table with a split column is read in: {@code read.splits}, else the
     * engine's hint, at most half the pool (another scan of the query needs connections too).
     */
    public int splitCount(int desiredSplits)
    {
        return splits.orElse(Math.max(1, Math.min(desiredSplits, poolMaxSize / 2)));
    }

    /** The configured split column of a table, matching schema and table names ignoring case. */
    public Optional<String> splitColumn(String schema, String table)
    {
        return Optional.ofNullable(splitColumns.get((schema + "." + table).toLowerCase(Locale.ROOT)));
    }

    @Override
    public String toString()
    {
        return "JdbcConfig{catalog=" + catalogName + ", url=" + url + ", user=" + user.orElse("") + ", password=" + (password.isPresent() ? "****" : "")
                + ", poolMaxSize=" + poolMaxSize + ", splitColumns=" + splitColumns + "}";
    }
}
