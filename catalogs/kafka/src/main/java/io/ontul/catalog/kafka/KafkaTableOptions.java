package io.ontul.catalog.kafka;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.catalog.kafka.decoder.RawRowDecoder;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The options of {@code CREATE TABLE ... WITH (...)} for Kafka tables, and their validation.
 * Streaming-only options ({@code watermark.*}) are checked and kept verbatim for streaming jobs.
 */
public final class KafkaTableOptions
{
    public static final String TOPIC = "topic";
    public static final String FORMAT = "format";
    public static final String STARTUP_MODE = "scan.startup.mode";
    public static final String STARTUP_TIMESTAMP_MILLIS = "scan.startup.timestamp-millis";
    public static final String GROUP_ID = "properties.group.id";
    public static final String IGNORE_PARSE_ERRORS = "json.ignore-parse-errors";
    public static final String WATERMARK_COLUMN = "watermark.column";
    public static final String WATERMARK_DELAY = "watermark.delay";
    public static final String WATERMARK_IDLE_TIMEOUT = "watermark.idle-timeout";
    public static final String KEY_COLUMN = "key.column";

    public static final List<String> NAMES = List.of(TOPIC, FORMAT, STARTUP_MODE, STARTUP_TIMESTAMP_MILLIS, GROUP_ID, IGNORE_PARSE_ERRORS,
            WATERMARK_COLUMN, WATERMARK_DELAY, WATERMARK_IDLE_TIMEOUT, KEY_COLUMN);

    private KafkaTableOptions() {}

    /**
     * Checks a CREATE TABLE and returns the definition to store.
     *
     * @param qualifiedName the table's name for messages
     * @throws OntulException INVALID_ARGUMENT for a missing, unknown or bad option or column,
     * NOT_SUPPORTED for a column type Kafka tables cannot hold
     */
    public static KafkaTableDefinition validate(String qualifiedName, String schemaName, String tableName, Schema columns, Map<String, Object> properties)
    {
        Map<String, String> options = new TreeMap<>();
        properties.forEach((name, value) -> {
            if (!NAMES.contains(name)) {
                throw unknownOption(qualifiedName, name);
            }
            options.put(name, text(qualifiedName, name, value));
        });

        String topic = options.get(TOPIC);
        if (topic == null || topic.isBlank()) {
            throw invalid("Kafka table '%s' needs option 'topic' (the Kafka topic it reads), e.g. WITH ('topic' = 'events')", qualifiedName);
        }
        KafkaFormat format = KafkaFormat.fromOptionValue(options.getOrDefault(FORMAT, KafkaFormat.JSON.optionValue()))
                .orElseThrow(() -> invalid("Option 'format' of Kafka table '%s' must be 'json' or 'raw', not '%s'", qualifiedName, options.get(FORMAT)));
        List<Field> declared = switch (format) {
            case JSON -> jsonColumns(qualifiedName, columns);
            case RAW -> rawColumns(qualifiedName, columns);
        };
        Schema schema = new KafkaTableDefinition(schemaName, tableName, declared, Map.of(TOPIC, topic)).schema();

        validateStartup(qualifiedName, options);
        if (options.containsKey(IGNORE_PARSE_ERRORS)) {
            if (format != KafkaFormat.JSON) {
                throw invalid("Option '%s' of Kafka table '%s' applies only to 'format' = 'json'", IGNORE_PARSE_ERRORS, qualifiedName);
            }
            String value = options.get(IGNORE_PARSE_ERRORS).toLowerCase(Locale.ROOT);
            if (!value.equals("true") && !value.equals("false")) {
                throw invalid("Option '%s' of Kafka table '%s' must be true or false, not '%s'", IGNORE_PARSE_ERRORS, qualifiedName, options.get(IGNORE_PARSE_ERRORS));
            }
            options.put(IGNORE_PARSE_ERRORS, value);
        }
        validateWatermark(qualifiedName, schema, options);
        if (options.containsKey(KEY_COLUMN)) {
            if (format != KafkaFormat.JSON) {
                throw invalid("Option '%s' of Kafka table '%s' applies only to 'format' = 'json' (raw tables have the column key)", KEY_COLUMN, qualifiedName);
            }
            Field keyColumn = findColumn(declared, options.get(KEY_COLUMN))
                    .orElseThrow(() -> invalid("Option '%s' of Kafka table '%s' names column '%s', which is not declared", KEY_COLUMN, qualifiedName, options.get(KEY_COLUMN)));
            if (!(keyColumn.getType() instanceof ArrowType.Utf8)) {
                throw invalid("Option '%s' of Kafka table '%s' must name a VARCHAR column; '%s' is %s",
                        KEY_COLUMN, qualifiedName, keyColumn.getName(), KafkaColumnTypes.sqlName(keyColumn.getType()).orElseThrow());
            }
        }
        return new KafkaTableDefinition(schemaName, tableName, declared, options);
    }

    /** The column of that name: exactly, else the only one equal without regard to case. */
    static Optional<Field> findColumn(List<Field> columns, String name)
    {
        Optional<Field> exact = columns.stream().filter(column -> column.getName().equals(name)).findFirst();
        if (exact.isPresent()) {
            return exact;
        }
        List<Field> matches = columns.stream().filter(column -> column.getName().equalsIgnoreCase(name)).toList();
        return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
    }

    private static List<Field> jsonColumns(String qualifiedName, Schema columns)
    {
        if (columns.getFields().isEmpty()) {
            throw invalid("Kafka table '%s' with 'format' = 'json' needs at least one column", qualifiedName);
        }
        Set<String> names = new HashSet<>();
        for (Field column : columns.getFields()) {
            if (KafkaHiddenColumns.isHidden(column.getName())) {
                throw invalid("Column name '%s' of Kafka table '%s' is reserved for a hidden column (%s)", column.getName(), qualifiedName, String.join(", ", List.of(KafkaHiddenColumns.PARTITION, KafkaHiddenColumns.OFFSET, KafkaHiddenColumns.TIMESTAMP)));
            }
            if (!names.add(column.getName())) {
                throw invalid("Column '%s' specified more than once in table '%s'", column.getName(), qualifiedName);
            }
            if (KafkaColumnTypes.sqlName(column.getType()).isEmpty()) {
                throw OntulException.userError(ErrorCode.NOT_SUPPORTED,
                        "Column '%s' of Kafka table '%s' has type %s, which Kafka tables do not support (use BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL, VARCHAR, DATE, TIME, TIMESTAMP(3) or TIMESTAMP(6))",
                        column.getName(), qualifiedName, column.getType());
            }
        }
        return columns.getFields();
    }

    private static List<Field> rawColumns(String qualifiedName, Schema columns)
    {
        List<Field> fields = columns.getFields();
        boolean fixed = fields.size() == 2
                && fields.get(0).getName().equalsIgnoreCase("key") && fields.get(0).getType() instanceof ArrowType.Utf8
                && fields.get(1).getName().equalsIgnoreCase("value") && fields.get(1).getType() instanceof ArrowType.Utf8;
        if (!fields.isEmpty() && !fixed) {
            throw invalid("Kafka table '%s' with 'format' = 'raw' has the columns (key VARCHAR, value VARCHAR); declare those or none", qualifiedName);
        }
        return RawRowDecoder.COLUMNS;
    }

    private static void validateStartup(String qualifiedName, Map<String, String> options)
    {
        String modeText = options.getOrDefault(STARTUP_MODE, KafkaStartupMode.EARLIEST_OFFSET.optionValue());
        KafkaStartupMode mode = KafkaStartupMode.fromOptionValue(modeText)
                .orElseThrow(() -> invalid("Option '%s' of Kafka table '%s' must be one of 'earliest-offset', 'latest-offset', 'group-offsets', 'timestamp', not '%s'",
                        STARTUP_MODE, qualifiedName, modeText));
        String timestamp = options.get(STARTUP_TIMESTAMP_MILLIS);
        if (mode == KafkaStartupMode.TIMESTAMP) {
            if (timestamp == null) {
                throw invalid("Kafka table '%s' with '%s' = 'timestamp' needs option '%s' (epoch milliseconds)", qualifiedName, STARTUP_MODE, STARTUP_TIMESTAMP_MILLIS);
            }
            try {
                if (Long.parseLong(timestamp) < 0) {
                    throw new NumberFormatException();
                }
            }
            catch (NumberFormatException e) {
                throw invalid("Option '%s' of Kafka table '%s' must be a number of milliseconds since 1970-01-01 UTC, not '%s'", STARTUP_TIMESTAMP_MILLIS, qualifiedName, timestamp);
            }
        }
        else if (timestamp != null) {
            throw invalid("Option '%s' of Kafka table '%s' needs '%s' = 'timestamp'", STARTUP_TIMESTAMP_MILLIS, qualifiedName, STARTUP_MODE);
        }
        String groupId = options.get(GROUP_ID);
        if (groupId != null && groupId.isBlank()) {
            throw invalid("Option '%s' of Kafka table '%s' must not be empty", GROUP_ID, qualifiedName);
        }
        if (mode == KafkaStartupMode.GROUP_OFFSETS && groupId == null) {
            throw invalid("Kafka table '%s' with '%s' = 'group-offsets' needs option '%s' (the consumer group whose committed offsets it starts from)", qualifiedName, STARTUP_MODE, GROUP_ID);
        }
    }

    private static void validateWatermark(String qualifiedName, Schema schema, Map<String, String> options)
    {
        String column = options.get(WATERMARK_COLUMN);
        if (column != null) {
            Field field = findColumn(schema.getFields(), column)
                    .orElseThrow(() -> invalid("Option '%s' of Kafka table '%s' names column '%s', which does not exist", WATERMARK_COLUMN, qualifiedName, column));
            if (!KafkaColumnTypes.isTimestamp(field.getType())) {
                throw invalid("Option '%s' of Kafka table '%s' must name a TIMESTAMP column; '%s' is %s",
                        WATERMARK_COLUMN, qualifiedName, field.getName(), KafkaColumnTypes.sqlName(field.getType()).orElse(field.getType().toString()));
            }
        }
        for (String name : List.of(WATERMARK_DELAY, WATERMARK_IDLE_TIMEOUT)) {
            String value = options.get(name);
            if (value == null) {
                continue;
            }
            if (KafkaDurations.tryParse(value).isEmpty()) {
                throw invalid("Option '%s' of Kafka table '%s' must be a duration such as '5s', '500ms' or '1m', not '%s'", name, qualifiedName, value);
            }
            if (column == null) {
                throw invalid("Option '%s' of Kafka table '%s' needs option '%s'", name, qualifiedName, WATERMARK_COLUMN);
            }
        }
    }

    private static String text(String qualifiedName, String name, Object value)
    {
        if (value instanceof String text) {
            return text;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Boolean) {
            return value.toString();
        }
        throw invalid("Option '%s' of Kafka table '%s' must be a single value, not %s", name, qualifiedName, value);
    }

    private static OntulException unknownOption(String qualifiedName, String name)
    {
        String hint = name.equals("group.id") ? "; did you mean '" + GROUP_ID + "'?" : " (supported: " + String.join(", ", NAMES) + ")";
        return invalid("Unknown option '%s' for Kafka table '%s'%s", name, qualifiedName, hint);
    }

    private static OntulException invalid(String format, Object... args)
    {
        return OntulException.userError(ErrorCode.INVALID_ARGUMENT, format, args);
    }
}
