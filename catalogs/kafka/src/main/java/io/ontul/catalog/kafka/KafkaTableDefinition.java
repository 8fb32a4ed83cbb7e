package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A Kafka table as created by {@code CREATE TABLE ... WITH ('topic' = ...)}: its declared columns
 * and its options exactly as the user gave them (validated by {@link KafkaTableOptions}). This is
 * what the catalog keeps in the metadata store, as JSON, under kind {@code table} and key
 * {@code schema.table}; streaming jobs read the same definition.
 */
public final class KafkaTableDefinition
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int VERSION = 1;

    private final String schemaName;
    private final String tableName;
    private final List<Field> columns;
    private final Map<String, String> options;

    /**
     * @param columns the declared columns (for the raw format: {@code key} and {@code value})
     * @param options validated options, values as text
     */
    public KafkaTableDefinition(String schemaName, String tableName, List<Field> columns, Map<String, String> options)
    {
        this.schemaName = requireNonNull(schemaName, "schemaName is null");
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.options = new TreeMap<>(requireNonNull(options, "options is null"));
        requireNonNull(options.get(KafkaTableOptions.TOPIC), "options have no topic");
    }

    public String schemaName()
    {
        return schemaName;
    }

    public String tableName()
    {
        return tableName;
    }

    public String topic()
    {
        return options.get(KafkaTableOptions.TOPIC);
    }

    public KafkaFormat format()
    {
        return KafkaFormat.fromOptionValue(options.getOrDefault(KafkaTableOptions.FORMAT, KafkaFormat.JSON.optionValue())).orElseThrow();
    }

    /** The declared columns, without the hidden ones. */
    public List<Field> columns()
    {
        return columns;
    }

    /** The declared columns followed by the hidden {@code _partition}, {@code _offset}, {@code _timestamp}. */
    public Schema schema()
    {
        List<Field> fields = new ArrayList<>(columns);
        fields.addAll(KafkaHiddenColumns.FIELDS);
        return new Schema(fields);
    }

    /** Every option as given, names in order, values as text. */
    public Map<String, String> options()
    {
        return Collections.unmodifiableMap(options);
    }

    public Optional<String> option(String name)
    {
        return Optional.ofNullable(options.get(name));
    }

    public KafkaStartupMode startupMode()
    {
        return KafkaStartupMode.fromOptionValue(options.getOrDefault(KafkaTableOptions.STARTUP_MODE, KafkaStartupMode.EARLIEST_OFFSET.optionValue())).orElseThrow();
    }

    /** {@code 'scan.startup.timestamp-millis'}, present with the timestamp startup mode. */
    public OptionalLong startupTimestampMillis()
    {
        String value = options.get(KafkaTableOptions.STARTUP_TIMESTAMP_MILLIS);
        return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
    }

    /** {@code 'properties.group.id'}: whose committed offsets group-offsets starts from. */
    public Optional<String> groupId()
    {
        return option(KafkaTableOptions.GROUP_ID);
    }

    /** {@code 'json.ignore-parse-errors'} (default true): skip and count malformed records instead of failing. */
    public boolean ignoreParseErrors()
    {
        return Boolean.parseBoolean(options.getOrDefault(KafkaTableOptions.IGNORE_PARSE_ERRORS, "true"));
    }

    /** The column {@code 'watermark.column'} names (a declared TIMESTAMP column or {@code _timestamp}). */
    public Optional<String> watermarkColumn()
    {
        return option(KafkaTableOptions.WATERMARK_COLUMN).map(this::resolveColumn);
    }

    /** {@code 'watermark.delay'}: how far event time may run behind the largest seen before records are late. */
    public Optional<Duration> watermarkDelay()
    {
        return option(KafkaTableOptions.WATERMARK_DELAY).map(value -> KafkaDurations.tryParse(value).orElseThrow());
    }

    /** {@code 'watermark.idle-timeout'}: after how long without records a partition stops holding the watermark back. */
    public Optional<Duration> watermarkIdleTimeout()
    {
        return option(KafkaTableOptions.WATERMARK_IDLE_TIMEOUT).map(value -> KafkaDurations.tryParse(value).orElseThrow());
    }

    /** {@code 'key.column'}: the declared VARCHAR column that holds the record key (UTF-8) instead of a JSON field. */
    public Optional<String> keyColumn()
    {
        return option(KafkaTableOptions.KEY_COLUMN).map(this::resolveColumn);
    }

    public String qualifiedName(String catalogName)
    {
        return catalogName + "." + schemaName + "." + tableName;
    }

    /** The declared or hidden column of that name: exact, else the one matching without regard to case. */
    private String resolveColumn(String name)
    {
        return KafkaTableOptions.findColumn(schema().getFields(), name).map(Field::getName).orElse(name);
    }

    public String toJson()
    {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("schema", schemaName);
        root.put("table", tableName);
        ArrayNode columnsNode = root.putArray("columns");
        for (Field column : columns) {
            ObjectNode columnNode = columnsNode.addObject();
            columnNode.put("name", column.getName());
            columnNode.put("type", KafkaColumnTypes.sqlName(column.getType()).orElseThrow());
            columnNode.put("nullable", column.isNullable());
            Map<String, String> metadata = column.getMetadata();
            if (metadata != null && !metadata.isEmpty()) {
                ObjectNode metadataNode = columnNode.putObject("metadata");
                new TreeMap<>(metadata).forEach(metadataNode::put);
            }
        }
        ObjectNode optionsNode = root.putObject("options");
        options.forEach(optionsNode::put);
        try {
            return MAPPER.writeValueAsString(root);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads what {@link #toJson()} wrote. */
    public static KafkaTableDefinition fromJson(String json)
    {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        }
        catch (IOException e) {
            throw new IllegalArgumentException("Stored Kafka table definition is not JSON: " + e.getMessage(), e);
        }
        int version = root.path("version").asInt(-1);
        if (version != VERSION) {
            throw new IllegalArgumentException("Stored Kafka table definition has version " + version + "; this Ontul reads version " + VERSION);
        }
        List<Field> columns = new ArrayList<>();
        for (JsonNode columnNode : root.path("columns")) {
            ArrowType type = KafkaColumnTypes.arrowType(columnNode.path("type").asText());
            Map<String, String> metadata = null;
            if (columnNode.has("metadata")) {
                metadata = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> entries = columnNode.get("metadata").fields(); entries.hasNext(); ) {
                    Map.Entry<String, JsonNode> entry = entries.next();
                    metadata.put(entry.getKey(), entry.getValue().asText());
                }
            }
            columns.add(new Field(columnNode.path("name").asText(), new FieldType(columnNode.path("nullable").asBoolean(true), type, null, metadata), null));
        }
        Map<String, String> options = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> entries = root.path("options").fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            options.put(entry.getKey(), entry.getValue().asText());
        }
        return new KafkaTableDefinition(root.path("schema").asText(), root.path("table").asText(), columns, options);
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof KafkaTableDefinition that
                && schemaName.equals(that.schemaName)
                && tableName.equals(that.tableName)
                && columns.equals(that.columns)
                && options.equals(that.options);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(schemaName, tableName, columns, options);
    }

    @Override
    public String toString()
    {
        return "KafkaTableDefinition{" + schemaName + "." + tableName + ", topic=" + topic() + ", format=" + format().optionValue() + ", columns=" + columns.size() + "}";
    }
}
