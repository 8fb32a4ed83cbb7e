package io.ontul.catalog.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

class TestKafkaTableOptions
{
    private static final String NAME = "kafka.default.events";
    private static final Schema COLUMNS = new Schema(List.of(
            column("event_id", new ArrowType.Int(64, true)),
            column("category", ArrowType.Utf8.INSTANCE),
            column("amount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            column("event_time", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))));

    @Test
    void keepsEveryOptionAndAppliesDefaults()
    {
        KafkaTableDefinition definition = validate(Map.of("topic", "events"));
        assertThat(definition.topic()).isEqualTo("events");
        assertThat(definition.format()).isEqualTo(KafkaFormat.JSON);
        assertThat(definition.startupMode()).isEqualTo(KafkaStartupMode.EARLIEST_OFFSET);
        assertThat(definition.ignoreParseErrors()).isTrue();
        assertThat(definition.watermarkColumn()).isEmpty();

        definition = validate(Map.of("topic", "events", "format", "json", "scan.startup.mode", "timestamp", "scan.startup.timestamp-millis", 1767225600000L,
                "json.ignore-parse-errors", Boolean.FALSE, "watermark.column", "EVENT_TIME", "watermark.delay", "5s", "watermark.idle-timeout", "500ms",
                "properties.group.id", "ontul", "key.column", "category"));
        assertThat(definition.options()).containsEntry("scan.startup.timestamp-millis", "1767225600000").containsEntry("watermark.column", "EVENT_TIME");
        assertThat(definition.startupTimestampMillis()).hasValue(1767225600000L);
        assertThat(definition.ignoreParseErrors()).isFalse();
        assertThat(definition.watermarkColumn()).hasValue("event_time");
        assertThat(definition.watermarkDelay()).hasValue(Duration.ofSeconds(5));
        assertThat(definition.watermarkIdleTimeout()).hasValue(Duration.ofMillis(500));
        assertThat(definition.groupId()).hasValue("ontul");
        assertThat(definition.keyColumn()).hasValue("category");
        assertThat(KafkaTableDefinition.fromJson(definition.toJson())).isEqualTo(definition);
    }

    @Test
    void schemaEndsWithHiddenColumns()
    {
        Schema schema = validate(Map.of("topic", "events")).schema();
        assertThat(schema.getFields()).extracting(Field::getName).containsExactly("event_id", "category", "amount", "event_time", "_partition", "_offset", "_timestamp");
        assertThat(schema.getFields().subList(4, 7)).allSatisfy(field -> assertThat(field.getMetadata()).containsEntry(TableHandle.HIDDEN_COLUMN, "true"));
        assertThat(schema.getFields().get(6).getType()).isEqualTo(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null));
    }

    @Test
    void rawTablesHaveKeyAndValue()
    {
        KafkaTableDefinition definition = KafkaTableOptions.validate(NAME, "default", "events", new Schema(List.of()), Map.of("topic", "events", "format", "raw"));
        assertThat(definition.schema().getFields()).extracting(Field::getName).containsExactly("key", "value", "_partition", "_offset", "_timestamp");
        assertThat(KafkaTableOptions.validate(NAME, "default", "events", new Schema(List.of(column("key", ArrowType.Utf8.INSTANCE), column("value", ArrowType.Utf8.INSTANCE))),
                Map.of("topic", "events", "format", "raw"))).isEqualTo(definition);
        assertInvalid(() -> KafkaTableOptions.validate(NAME, "default", "events", COLUMNS, Map.of("topic", "events", "format", "raw")),
                "Kafka table 'kafka.default.events' with 'format' = 'raw' has the columns (key VARCHAR, value VARCHAR); declare those or none");
    }

    @Test
    void rejectsBadOptionsNamingThem()
    {
        assertInvalid(Map.of(), "Kafka table 'kafka.default.events' needs option 'topic' (the Kafka topic it reads), e.g. WITH ('topic' = 'events')");
        assertInvalid(Map.of("topic", "events", "colour", "blue"),
                "Unknown option 'colour' for Kafka table 'kafka.default.events' (supported: topic, format, scan.startup.mode, scan.startup.timestamp-millis, properties.group.id, json.ignore-parse-errors, watermark.column, watermark.delay, watermark.idle-timeout, key.column)");
        assertInvalid(Map.of("topic", "events", "group.id", "g"), "Unknown option 'group.id' for Kafka table 'kafka.default.events'; did you mean 'properties.group.id'?");
        assertInvalid(Map.of("topic", "events", "format", "avro"), "Option 'format' of Kafka table 'kafka.default.events' must be 'json' or 'raw', not 'avro'");
        assertInvalid(Map.of("topic", "events", "scan.startup.mode", "earliest"),
                "Option 'scan.startup.mode' of Kafka table 'kafka.default.events' must be one of 'earliest-offset', 'latest-offset', 'group-offsets', 'timestamp', not 'earliest'");
        assertInvalid(Map.of("topic", "events", "scan.startup.mode", "group-offsets"),
                "Kafka table 'kafka.default.events' with 'scan.startup.mode' = 'group-offsets' needs option 'properties.group.id' (the consumer group whose committed offsets it starts from)");
        assertInvalid(Map.of("topic", "events", "scan.startup.mode", "timestamp"),
                "Kafka table 'kafka.default.events' with 'scan.startup.mode' = 'timestamp' needs option 'scan.startup.timestamp-millis' (epoch milliseconds)");
        assertInvalid(Map.of("topic", "events", "scan.startup.mode", "timestamp", "scan.startup.timestamp-millis", "noon"),
                "Option 'scan.startup.timestamp-millis' of Kafka table 'kafka.default.events' must be a number of milliseconds since 1970-01-01 UTC, not 'noon'");
        assertInvalid(Map.of("topic", "events", "scan.startup.timestamp-millis", 5L),
                "Option 'scan.startup.timestamp-millis' of Kafka table 'kafka.default.events' needs 'scan.startup.mode' = 'timestamp'");
        assertInvalid(Map.of("topic", "events", "json.ignore-parse-errors", "maybe"),
                "Option 'json.ignore-parse-errors' of Kafka table 'kafka.default.events' must be true or false, not 'maybe'");
        assertInvalid(Map.of("topic", "events", "watermark.column", "amount"),
                "Option 'watermark.column' of Kafka table 'kafka.default.events' must name a TIMESTAMP column; 'amount' is DOUBLE");
        assertInvalid(Map.of("topic", "events", "watermark.column", "missing"),
                "Option 'watermark.column' of Kafka table 'kafka.default.events' names column 'missing', which does not exist");
        assertInvalid(Map.of("topic", "events", "watermark.column", "event_time", "watermark.delay", "5 parsecs"),
                "Option 'watermark.delay' of Kafka table 'kafka.default.events' must be a duration such as '5s', '500ms' or '1m', not '5 parsecs'");
        assertInvalid(Map.of("topic", "events", "watermark.idle-timeout", "30s"),
                "Option 'watermark.idle-timeout' of Kafka table 'kafka.default.events' needs option 'watermark.column'");
        assertInvalid(Map.of("topic", "events", "key.column", "amount"),
                "Option 'key.column' of Kafka table 'kafka.default.events' must name a VARCHAR column; 'amount' is DOUBLE");
        assertInvalid(Map.of("topic", "events", "format", new BigDecimal("1.5")), "Option 'format' of Kafka table 'kafka.default.events' must be 'json' or 'raw', not '1.5'");
        assertInvalid(Map.of("topic", List.of("a", "b")), "Option 'topic' of Kafka table 'kafka.default.events' must be a single value, not [a, b]");
    }

    @Test
    void acceptsWatermarkOnTheRecordTimestamp()
    {
        assertThat(validate(Map.of("topic", "events", "watermark.column", "_timestamp", "watermark.delay", "1m")).watermarkColumn()).hasValue("_timestamp");
    }

    @Test
    void rejectsBadColumns()
    {
        assertInvalid(() -> KafkaTableOptions.validate(NAME, "default", "events", new Schema(List.of(column("_offset", new ArrowType.Int(64, true)))), Map.of("topic", "t")),
                "Column name '_offset' of Kafka table 'kafka.default.events' is reserved for a hidden column (_partition, _offset, _timestamp)");
        assertInvalid(() -> KafkaTableOptions.validate(NAME, "default", "events", new Schema(List.of()), Map.of("topic", "t")),
                "Kafka table 'kafka.default.events' with 'format' = 'json' needs at least one column");
        assertThatThrownBy(() -> KafkaTableOptions.validate(NAME, "default", "events", new Schema(List.of(column("t", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")))), Map.of("topic", "t")))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageStartingWith("Column 't' of Kafka table 'kafka.default.events' has type Timestamp(MILLISECOND, UTC), which Kafka tables do not support");
    }

    private static KafkaTableDefinition validate(Map<String, Object> properties)
    {
        return KafkaTableOptions.validate(NAME, "default", "events", COLUMNS, properties);
    }

    private static void assertInvalid(Map<String, Object> properties, String message)
    {
        assertInvalid(() -> validate(new HashMap<>(properties)), message);
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message)
    {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage(message);
    }

    private static Field column(String name, ArrowType type)
    {
        return new Field(name, FieldType.nullable(type), null);
    }
}
