package io.ontul.engine.expression;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.spi.json.JacksonJsonNodeJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The JSON functions over JSON text (a VARCHAR): Trino's {@code json_extract_scalar(json, path)}
 * and {@code json_extract(json, path)}, and SQL's {@code json_value} and {@code json_query} with
 * their ON EMPTY / ON ERROR behaviours (decided by the caller from {@link #valueOutcome} and
 * {@link #queryOutcome}). Paths are JSONPath
 * ({@code $.store.book[0].title}, {@code $['a b']}), evaluated by Jayway JsonPath over Jackson's
 * tree; a path that does not parse is a user error naming it, JSON that does not parse gives
 * NULL, as a path that finds nothing does.
 */
public final class JsonPaths
{
    private static final Configuration CONFIGURATION = Configuration.builder()
            .jsonProvider(new JacksonJsonNodeJsonProvider())
            .mappingProvider(new JacksonMappingProvider())
            .options(Option.SUPPRESS_EXCEPTIONS)
            .build();
    private static final Configuration STRICT = Configuration.builder()
            .jsonProvider(new JacksonJsonNodeJsonProvider())
            .mappingProvider(new JacksonMappingProvider())
            .build();
    private static final Map<String, JsonPath> PATHS = new ConcurrentHashMap<>();

    /** What {@link #valueOutcome} and {@link #queryOutcome} give when the path finds nothing (lax mode). */
    public static final Object EMPTY = new Object()
    {
        @Override
        public String toString()
        {
            return "EMPTY";
        }
    };

    /** What {@link #valueOutcome} and {@link #queryOutcome} give for an error of the data, with its message. */
    public record Failure(String message) {}

    private JsonPaths() {}

    /** The scalar (string, number, boolean) at {@code path} as text; NULL for an object, an array, JSON null or nothing. */
    public static String extractScalar(String json, String path)
    {
        JsonNode node = read(json, path);
        return node == null || !node.isValueNode() || node.isNull() ? null : node.asText();
    }

    /** The JSON text of the value at {@code path}; NULL when there is none. */
    public static String extract(String json, String path)
    {
        JsonNode node = read(json, path);
        return node == null ? null : node.toString();
    }

    /**
     * SQL's json_value with its ON EMPTY / ON ERROR clauses: the scalar's text, null for JSON
     * null, {@link #EMPTY} when a lax path finds nothing, or a {@link Failure}: the text is not
     * JSON, the value is an object or array, or a strict path finds nothing.
     */
    public static Object valueOutcome(String json, String path)
    {
        Object found = find(json, path);
        if (!(found instanceof List<?> matches)) {
            return found;
        }
        if (matches.size() > 1) {
            return new Failure("JSON_VALUE: the path " + path + " finds " + matches.size() + " values, not one");
        }
        JsonNode node = (JsonNode) matches.get(0);
        if (node.isNull()) {
            return null;
        }
        if (!node.isValueNode()) {
            return new Failure("JSON_VALUE: the value at " + path + " is " + (node.isArray() ? "an array" : "an object") + ", not a scalar");
        }
        return node.asText();
    }

    /**
     * SQL's json_query with its wrapper and ON EMPTY / ON ERROR clauses: the JSON text of the
     * object or array at the path ({@code wrapper}: WITHOUT_ARRAY, WITH_UNCONDITIONAL_ARRAY,
     * WITH_CONDITIONAL_ARRAY; a wrapper collects every value a path with wildcards finds),
     * {@link #EMPTY}, or a {@link Failure} (a scalar, or several values, without a wrapper).
     */
    public static Object queryOutcome(String json, String path, String wrapper)
    {
        Object found = find(json, path);
        if (!(found instanceof List<?> matches)) {
            return found;
        }
        boolean single = matches.size() == 1 && ((JsonNode) matches.get(0)).isContainerNode();
        if (wrapper.equals("WITH_UNCONDITIONAL_ARRAY") || (wrapper.equals("WITH_CONDITIONAL_ARRAY") && !single)) {
            StringBuilder wrapped = new StringBuilder("[");
            for (int i = 0; i < matches.size(); i++) {
                wrapped.append(i == 0 ? "" : ",").append(matches.get(i));
            }
            return wrapped.append(']').toString();
        }
        if (matches.size() > 1) {
            return new Failure("JSON_QUERY: the path " + path + " finds " + matches.size() + " values (WITH ARRAY WRAPPER collects them)");
        }
        if (!single) {
            return new Failure("JSON_QUERY: the value at " + path + " is a scalar, not an object or array (WITH ARRAY WRAPPER wraps it)");
        }
        return matches.get(0).toString();
    }

    /** The error ERROR ON EMPTY raises. */
    public static OntulException emptyError(String function, String path)
    {
        return new OntulException(ErrorCode.INVALID_ARGUMENT, function + ": no value at " + path + " (ERROR ON EMPTY)");
    }

    /** The error ERROR ON ERROR raises. */
    public static OntulException error(Failure failure)
    {
        return new OntulException(ErrorCode.INVALID_ARGUMENT, failure.message() + " (ERROR ON ERROR)");
    }

    /**
     * The values the path finds (one for a path without wildcards or filters, any number for
     * one with them), {@link #EMPTY} when it finds none in lax mode, or a {@link Failure}.
     */
    private static Object find(String json, String path)
    {
        boolean strict = path.trim().startsWith("strict ");
        JsonPath compiled = compile(path);
        Object result;
        try {
            result = compiled.read(json, STRICT);
        }
        catch (com.jayway.jsonpath.PathNotFoundException e) {
            return strict ? new Failure("no value at " + path + " (strict)") : EMPTY;
        }
        catch (com.jayway.jsonpath.InvalidJsonException e) {
            return new Failure("the text is not JSON");
        }
        catch (RuntimeException e) {
            return new Failure("the path " + path + " cannot be applied: " + e.getMessage());
        }
        if (!(result instanceof JsonNode node) || node.isMissingNode()) {
            return strict ? new Failure("no value at " + path + " (strict)") : EMPTY;
        }
        if (compiled.isDefinite()) {
            return List.of(node);
        }
        // wildcards and filters: an array of what they found
        List<JsonNode> matches = new java.util.ArrayList<>();
        node.forEach(matches::add);
        return matches.isEmpty() ? EMPTY : matches;
    }

    private static JsonNode read(String json, String path)
    {
        JsonPath compiled = compile(path);
        Object result;
        try {
            result = compiled.read(json, CONFIGURATION);
        }
        catch (RuntimeException e) {
            // JSON that does not parse
            return null;
        }
        if (result instanceof JsonNode node) {
            return node.isMissingNode() ? null : node;
        }
        return null;
    }

    private static JsonPath compile(String path)
    {
        JsonPath cached = PATHS.get(path);
        if (cached != null) {
            return cached;
        }
        JsonPath compiled;
        try {
            // SQL's path modes: with NULL ON ERROR (the default) lax and strict give the same answers here
            String expression = path.startsWith("lax ") ? path.substring(4) : path.startsWith("strict ") ? path.substring(7) : path;
            compiled = JsonPath.compile(expression.trim());
        }
        catch (RuntimeException e) {
            String detail = e.getMessage() == null || e.getMessage().contains("java.lang.") ? "" : ": " + e.getMessage();
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid JSON path '" + path + "'" + detail);
        }
        if (PATHS.size() < 1000) {
            PATHS.put(path, compiled);
        }
        return compiled;
    }
}
