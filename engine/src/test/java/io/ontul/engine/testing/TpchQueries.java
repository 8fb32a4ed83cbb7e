package io.ontul.engine.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 22 TPC-H queries from the classpath resource {@value #RESOURCE}: blocks that start with a
 * {@code -- name: qNN} line, tables written as {@code tpch.tiny.TABLE}.
 */
public final class TpchQueries
{
    public static final String RESOURCE = "tpch/tpch-queries.sql";
    /** The table prefix the query texts use. */
    public static final String TABLE_PREFIX = "tpch.tiny.";

    private static final Pattern NAME_LINE = Pattern.compile("(?m)^-- name: *(\\S+) *$");

    private TpchQueries() {}

    /** Query name to query text (without the trailing semicolon), in file order. */
    public static Map<String, String> load()
    {
        try (InputStream input = TpchQueries.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (input == null) {
                throw new IllegalStateException("Classpath resource " + RESOURCE + " is missing");
            }
            return parse(new String(input.readAllBytes(), UTF_8));
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + RESOURCE, e);
        }
    }

    public static Map<String, String> parse(String text)
    {
        Map<String, String> queries = new LinkedHashMap<>();
        Matcher matcher = NAME_LINE.matcher(text);
        String name = null;
        int start = 0;
        while (matcher.find()) {
            if (name != null) {
                queries.put(name, body(text.substring(start, matcher.start())));
            }
            name = matcher.group(1);
            start = matcher.end();
        }
        if (name != null) {
            queries.put(name, body(text.substring(start)));
        }
        return Collections.unmodifiableMap(queries);
    }

    /** The query text with {@code tpch.tiny.} replaced by {@code prefix} (for example {@code memory.default.}). */
    public static String withTablePrefix(String sql, String prefix)
    {
        return sql.replace(TABLE_PREFIX, prefix);
    }

    private static String body(String block)
    {
        String sql = block.trim();
        return sql.endsWith(";") ? sql.substring(0, sql.length() - 1).trim() : sql;
    }
}
