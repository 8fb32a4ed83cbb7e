package io.ontul.server.http;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.ontul.sdk.stream.Sink;
import io.ontul.sdk.stream.Source;
import io.ontul.sdk.stream.StreamingJobDefinition;
import io.ontul.sdk.stream.StreamingJobSql;
import io.ontul.sdk.stream.WindowSpec;

/**
 * A streaming job as a JSON document ({@code POST /v1/jobs}), translated into the one {@code
 * CREATE STREAMING JOB} statement the planner takes from every door:
 * <pre>{@code
 * {"name": "order_totals", "type": "STREAMING",
 *  "config": {"source.type": "kafka", "source.table": "kafka.default.orders",
 *             "sink.type": "iceberg", "sink.tableName": "iceberg.lake.totals",
 *             "checkpoint.interval": "10s", "parallelism": "2"},
 *  "operations": [{"type": "FILTER", "condition": "amount > 100"},
 *                 {"type": "WINDOW", "window": "TUMBLING(SIZE 10 SECONDS)", "timeColumn": "event_time"},
 *                 {"type": "GROUP_BY", "columns": ["category"]},
 *                 {"type": "AGG", "expressions": ["SUM(amount) AS total", "COUNT(*) AS cnt"]}]}
 * }</pre>
 * Config keys other than {@code source.*} and {@code sink.*} are the job's options ({@code WITH}).
 * A windowed job selects {@code window_start, window_end}, its GROUP_BY columns and its AGG
 * expressions; one without AGG selects its SELECT expressions, or every column. Whatever is
 * malformed fails with 400 naming the field; what the planner refuses fails as the statement would.
 */
final class JobDocument
{
    private static final Set<String> FIELDS = Set.of("name", "type", "config", "operations");
    private JobDocument() {}

    /** The job's name and its CREATE STREAMING JOB statement. */
    record Translation(String name, String sql) {}

    static Translation translate(JsonNode root)
    {
        if (root == null || !root.isObject()) {
            throw HttpError.badRequest("The body must be a JSON object with name, type, config and operations");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!FIELDS.contains(field)) {
                throw HttpError.badRequest("Unknown field '" + field + "': a job document has name, type, config and operations");
            }
        }
        String name = text(root, "name", "name");
        String type = text(root, "type", "type");
        if (!type.equalsIgnoreCase("STREAMING")) {
            throw HttpError.badRequest("Field 'type' must be STREAMING (the only kind of job), not '" + type + "'");
        }
        JsonNode config = root.get("config");
        if (config == null || !config.isObject()) {
            throw HttpError.badRequest("Field 'config' is required: an object with source.type, source.table, sink.type, sink.tableName and the job's options");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        config.fields().forEachRemaining(entry -> {
            if (!entry.getValue().isValueNode() || entry.getValue().isNull()) {
                throw HttpError.badRequest("Field 'config." + entry.getKey() + "' must be a string, number or boolean");
            }
            settings.put(entry.getKey(), entry.getValue().asText());
        });
        Source source = source(settings);
        Sink sink = sink(settings);
        Map<String, String> options = new LinkedHashMap<>();
        settings.forEach((key, value) -> {
            if (!key.startsWith("source.") && !key.startsWith("sink.")) {
                options.put(key, value);
            }
        });
        StreamingJobDefinition definition = definition(name, source, sink, root.get("operations"), options);
        try {
            return new Translation(name, StreamingJobSql.createStatement(definition));
        }
        catch (IllegalArgumentException e) {
            throw HttpError.badRequest("Field 'operations': " + e.getMessage());
        }
    }

    private static Source source(Map<String, String> settings)
    {
        String type = required(settings, "source.type", "the kind of source: kafka");
        if (!type.equalsIgnoreCase("kafka")) {
            throw HttpError.badRequest("Field 'config.source.type' must be kafka (streaming jobs read Kafka tables), not '" + type + "'");
        }
        for (String key : settings.keySet()) {
            if (key.startsWith("source.kafka.")) {
                throw HttpError.badRequest("Field 'config." + key + "' is not taken: Ontul reads a topic through a Kafka table, which carries its columns, format, "
                        + "start position, group id and event time (CREATE TABLE kafka.\"default\".orders (...) WITH ('topic' = 'orders', 'format' = 'json', "
                        + "'scan.startup.mode' = 'earliest-offset', 'properties.group.id' = '...')); name that table in config.source.table");
            }
            if (key.startsWith("source.") && !key.equals("source.type") && !key.equals("source.table")) {
                throw HttpError.badRequest("Unknown field 'config." + key + "': a source takes source.type and source.table");
            }
        }
        String table = required(settings, "source.table", "the Kafka table to read, as catalog.schema.table");
        try {
            return Source.kafka(table);
        }
        catch (IllegalArgumentException e) {
            throw HttpError.badRequest("Field 'config.source.table' must name a table as catalog.schema.table, not '" + table + "'");
        }
    }

    private static Sink sink(Map<String, String> settings)
    {
        String type = required(settings, "sink.type", "iceberg, jdbc or kafka");
        if (!Set.of("iceberg", "jdbc", "kafka").contains(type.toLowerCase(Locale.ROOT))) {
            throw HttpError.badRequest("Field 'config.sink.type' must be iceberg, jdbc or kafka (the sinks that commit exactly once), not '" + type + "'");
        }
        for (String key : settings.keySet()) {
            if (key.startsWith("sink.") && !key.equals("sink.type") && !key.equals("sink.tableName")) {
                throw HttpError.badRequest("Unknown field 'config." + key + "': a sink takes sink.type and sink.tableName");
            }
        }
        String table = required(settings, "sink.tableName", "the table to write, as catalog.schema.table");
        try {
            return new Sink(type, table);
        }
        catch (IllegalArgumentException e) {
            throw HttpError.badRequest("Field 'config.sink.tableName' must name a table as catalog.schema.table, not '" + table + "'");
        }
    }

    private static StreamingJobDefinition definition(String name, Source source, Sink sink, JsonNode operations, Map<String, String> options)
    {
        if (operations != null && !operations.isNull() && !operations.isArray()) {
            throw HttpError.badRequest("Field 'operations' must be an array of {\"type\": FILTER | WINDOW | GROUP_BY | AGG | SELECT, ...}");
        }
        List<String> filters = new ArrayList<>();
        List<String> groupBy = new ArrayList<>();
        List<String> aggregates = new ArrayList<>();
        List<String> projections = new ArrayList<>();
        Optional<StreamingJobDefinition.Window> window = Optional.empty();
        if (operations != null && operations.isArray()) {
            for (int index = 0; index < operations.size(); index++) {
                JsonNode operation = operations.get(index);
                String field = "operations[" + index + "]";
                if (!operation.isObject()) {
                    throw HttpError.badRequest("Field '" + field + "' must be an object with a type");
                }
                String type = text(operation, "type", field + ".type").toUpperCase(Locale.ROOT);
                switch (type) {
                    case "FILTER" -> filters.add(text(operation, "condition", field + ".condition"));
                    case "GROUP_BY" -> groupBy.addAll(texts(operation, "columns", field + ".columns"));
                    case "AGG" -> aggregates.addAll(texts(operation, "expressions", field + ".expressions"));
                    case "SELECT" -> projections.addAll(texts(operation, "expressions", field + ".expressions"));
                    case "WINDOW" -> {
                        if (window.isPresent()) {
                            throw HttpError.badRequest("Field '" + field + "': a job has one WINDOW");
                        }
                        String spec = text(operation, "window", field + ".window");
                        WindowSpec parsed;
                        try {
                            parsed = WindowSpec.parse(spec);
                        }
                        catch (IllegalArgumentException e) {
                            throw HttpError.badRequest("Field '" + field + ".window': " + e.getMessage());
                        }
                        window = Optional.of(new StreamingJobDefinition.Window(parsed, text(operation, "timeColumn", field + ".timeColumn")));
                    }
                    default -> throw HttpError.badRequest("Field '" + field + ".type' must be FILTER, WINDOW, GROUP_BY, AGG or SELECT, not '" + type + "'");
                }
            }
        }
        return new StreamingJobDefinition(name, source, sink, filters, window, groupBy, aggregates, projections, options);
    }

    private static String required(Map<String, String> settings, String key, String what)
    {
        String value = settings.get(key);
        if (value == null || value.isBlank()) {
            throw HttpError.badRequest("Field 'config." + key + "' is required: " + what);
        }
        return value;
    }

    private static String text(JsonNode node, String name, String field)
    {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw HttpError.badRequest("Field '" + field + "' is required");
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw HttpError.badRequest("Field '" + field + "' must be a non-empty string");
        }
        return value.asText();
    }

    private static List<String> texts(JsonNode node, String name, String field)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isArray() || value.isEmpty()) {
            throw HttpError.badRequest("Field '" + field + "' must be a non-empty array of strings");
        }
        List<String> texts = new ArrayList<>();
        for (int index = 0; index < value.size(); index++) {
            if (!value.get(index).isTextual() || value.get(index).asText().isBlank()) {
                throw HttpError.badRequest("Field '" + field + "[" + index + "]' must be a non-empty string");
            }
            texts.add(value.get(index).asText());
        }
        return texts;
    }
}
