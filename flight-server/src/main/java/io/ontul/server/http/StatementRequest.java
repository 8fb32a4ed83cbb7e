package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The body of {@code POST /v1/statements}: {@code {"sql": "...", "catalog": "...", "schema":
 * "...", "properties": {"name": "value"}, "pageSize": 1000}}; only {@code sql} is required.
 */
record StatementRequest(String sql, Optional<String> catalog, Optional<String> schema, Map<String, String> properties, int pageSize)
{
    static final int DEFAULT_PAGE_SIZE = 1000;
    static final int MAX_PAGE_SIZE = 100_000;

    StatementRequest
    {
        requireNonNull(sql, "sql is null");
        properties = Map.copyOf(properties);
    }

    /** Reads a request body; a malformed one fails with 400 naming the field. */
    static StatementRequest parse(String body)
    {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        }
        catch (JsonProcessingException e) {
            throw HttpError.badRequest("The body is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw HttpError.badRequest("The body must be a JSON object such as {\"sql\": \"SELECT 1\"}");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("sql") && !name.equals("catalog") && !name.equals("schema") && !name.equals("properties") && !name.equals("pageSize")) {
                throw HttpError.badRequest("Unknown field '" + name + "': a statement takes sql, catalog, schema, properties and pageSize");
            }
        }
        String sql = text(root, "sql").orElseThrow(() -> HttpError.badRequest("Field 'sql' is required: the statement to run"));
        Map<String, String> properties = new LinkedHashMap<>();
        JsonNode given = root.get("properties");
        if (given != null && !given.isNull()) {
            if (!given.isObject()) {
                throw HttpError.badRequest("Field 'properties' must be an object of session property names and string values");
            }
            given.fields().forEachRemaining(entry -> {
                if (!entry.getValue().isValueNode() || entry.getValue().isNull()) {
                    throw HttpError.badRequest("Field 'properties." + entry.getKey() + "' must be a string, number or boolean");
                }
                properties.put(entry.getKey(), entry.getValue().asText());
            });
        }
        int pageSize = DEFAULT_PAGE_SIZE;
        JsonNode size = root.get("pageSize");
        if (size != null && !size.isNull()) {
            if (!size.canConvertToInt() || !size.isIntegralNumber() || size.asInt() < 1 || size.asInt() > MAX_PAGE_SIZE) {
                throw HttpError.badRequest("Field 'pageSize' must be a whole number from 1 to " + MAX_PAGE_SIZE + ", not " + size);
            }
            pageSize = size.asInt();
        }
        return new StatementRequest(sql, text(root, "catalog"), text(root, "schema"), properties, pageSize);
    }

    private static Optional<String> text(JsonNode root, String field)
    {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw HttpError.badRequest("Field '" + field + "' must be a non-empty string");
        }
        return Optional.of(value.asText());
    }
}
