package io.ontul.server.http;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

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
    private static final Pattern TUMBLING = Pattern.compile("TUMBLING\\s*\\(\\s*SIZE\\s+(\\d+)\\s+([A-Z]+)\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SLIDING = Pattern.compile("SLIDING\\s*\\(\\s*SIZE\\s+(\\d+)\\s+([A-Z]+)\\s*,\\s*SLIDE\\s+(\\d+)\\s+([A-Z]+)\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SESSION = Pattern.compile("SESSION\\s*\\(\\s*GAP\\s+(\\d+)\\s+([A-Z]+)\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Map<String, String> UNITS = Map.ofEntries(
            Map.entry("MILLISECOND", "MILLISECOND"), Map.entry("MILLISECONDS", "MILLISECOND"),
            Map.entry("SECOND", "SECOND"), Map.entry("SECONDS", "SECOND"),
            Map.entry("MINUTE", "MINUTE"), Map.entry("MINUTES", "MINUTE"),
            Map.entry("HOUR", "HOUR"), Map.entry("HOURS", "HOUR"),
            Map.entry("DAY", "DAY"), Map.entry("DAYS", "DAY"));

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
        String source = source(settings);
        String sink = sink(settings);
        Map<String, String> options = new LinkedHashMap<>();
        settings.forEach((key, value) -> {
            if (!key.startsWith("source.") && !key.startsWith("sink.")) {
                options.put(key, value);
            }
        });
        String select = select(root.get("operations"), source);

        StringBuilder sql = new StringBuilder("CREATE STREAMING JOB ").append(SqlRows.identifier(name));
        if (!options.isEmpty()) {
            sql.append(" WITH (");
            String separator = "";
            for (Map.Entry<String, String> option : options.entrySet()) {
                sql.append(separator).append(literal(option.getKey())).append(" = ").append(literal(option.getValue()));
                separator = ", ";
            }
            sql.append(')');
        }
        sql.append(" AS INSERT INTO ").append(sink).append(' ').append(select);
        return new Translation(name, sql.toString());
    }

    private static String source(Map<String, String> settings)
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
        return SqlRows.qualifiedName("config.source.table", required(settings, "source.table", "the Kafka table to read, as catalog.schema.table"));
    }

    private static String sink(Map<String, String> settings)
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
        return SqlRows.qualifiedName("config.sink.tableName", required(settings, "sink.tableName", "the table to write, as catalog.schema.table"));
    }

    private static String select(JsonNode operations, String source)
    {
        if (operations != null && !operations.isNull() && !operations.isArray()) {
            throw HttpError.badRequest("Field 'operations' must be an array of {\"type\": FILTER | WINDOW | GROUP_BY | AGG | SELECT, ...}");
        }
        List<String> filters = new ArrayList<>();
        List<String> groupBy = new ArrayList<>();
        List<String> aggregates = new ArrayList<>();
        List<String> projections = new ArrayList<>();
        String window = null;
        String windowSpec = null;
        String windowField = null;
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
                        if (window != null) {
                            throw HttpError.badRequest("Field '" + field + "': a job has one WINDOW");
                        }
                        windowSpec = text(operation, "window", field + ".window");
                        windowField = field;
                        window = text(operation, "timeColumn", field + ".timeColumn");
                    }
                    default -> throw HttpError.badRequest("Field '" + field + ".type' must be FILTER, WINDOW, GROUP_BY, AGG or SELECT, not '" + type + "'");
                }
            }
        }
        String from = source;
        List<String> keys = new ArrayList<>();
        if (window != null) {
            from = "TABLE(" + windowFunction(windowSpec, windowField, source, window, groupBy) + ")";
            keys.add("window_start");
            keys.add("window_end");
        }
        keys.addAll(groupBy);
        StringBuilder select = new StringBuilder("SELECT ");
        if (aggregates.isEmpty()) {
            if (window != null || !groupBy.isEmpty()) {
                throw HttpError.badRequest("Field 'operations': a WINDOW or GROUP_BY needs an AGG operation with the aggregates to compute");
            }
            select.append(projections.isEmpty() ? "*" : String.join(", ", projections));
        }
        else {
            if (!projections.isEmpty()) {
                throw HttpError.badRequest("Field 'operations': SELECT and AGG do not go together; an aggregating job selects its window, GROUP_BY columns and AGG expressions");
            }
            List<String> columns = new ArrayList<>(keys);
            columns.addAll(aggregates);
            select.append(String.join(", ", columns));
        }
        select.append(" FROM ").append(from);
        if (!filters.isEmpty()) {
            select.append(" WHERE ").append(filters.size() == 1 ? filters.get(0) : "(" + String.join(") AND (", filters) + ")");
        }
        if (!aggregates.isEmpty() && !keys.isEmpty()) {
            select.append(" GROUP BY ").append(String.join(", ", keys));
        }
        return select.toString();
    }

    private static String windowFunction(String spec, String field, String source, String timeColumn, List<String> groupBy)
    {
        String table = "TABLE " + source + ", DESCRIPTOR(" + timeColumn + ")";
        Matcher tumbling = TUMBLING.matcher(spec.trim());
        if (tumbling.matches()) {
            return "TUMBLE(" + table + ", " + interval(tumbling.group(1), tumbling.group(2), field) + ")";
        }
        Matcher sliding = SLIDING.matcher(spec.trim());
        if (sliding.matches()) {
            return "HOP(" + table + ", " + interval(sliding.group(3), sliding.group(4), field) + ", " + interval(sliding.group(1), sliding.group(2), field) + ")";
        }
        Matcher session = SESSION.matcher(spec.trim());
        if (session.matches()) {
            String keys = groupBy.isEmpty() ? "" : "DESCRIPTOR(" + String.join(", ", groupBy) + "), ";
            return "SESSION(" + table + ", " + keys + interval(session.group(1), session.group(2), field) + ")";
        }
        throw HttpError.badRequest("Field '" + field + ".window' must be TUMBLING(SIZE n UNIT), SLIDING(SIZE n UNIT, SLIDE n UNIT) or SESSION(GAP n UNIT), not '" + spec + "'");
    }

    private static String interval(String amount, String unit, String field)
    {
        String sqlUnit = UNITS.get(unit.toUpperCase(Locale.ROOT));
        if (sqlUnit == null) {
            throw HttpError.badRequest("Field '" + field + ".window': unknown unit '" + unit + "' (MILLISECONDS, SECONDS, MINUTES, HOURS or DAYS)");
        }
        return "INTERVAL '" + amount + "' " + sqlUnit;
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

    private static String literal(String text)
    {
        return "'" + text.replace("'", "''") + "'";
    }
}
