package io.ontul.engine.expression;

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
 * their default behaviours (NULL on an empty result and on an error). Paths are JSONPath
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
    private static final Map<String, JsonPath> PATHS = new ConcurrentHashMap<>();

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

    /** SQL's json_query: an object or array at {@code path} as JSON text; NULL for a scalar or nothing. */
    public static String query(String json, String path)
    {
        JsonNode node = read(json, path);
        return node == null || !node.isContainerNode() ? null : node.toString();
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
