package io.ontul.bench.streaming;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The line a child JVM prints on its standard output for each measured run, read back by
 * {@link StreamingBenchmark}: {@code RESULT} then tab-separated {@code key=value} fields.
 * Values never hold tabs or line breaks (they are replaced by spaces).
 */
final class ResultLine
{
    static final String PREFIX = "RESULT\t";

    private ResultLine() {}

    static String format(Map<String, Object> fields)
    {
        return PREFIX + fields.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + String.valueOf(entry.getValue()).replaceAll("[\\t\\r\\n]", " "))
                .collect(Collectors.joining("\t"));
    }

    static Optional<Map<String, String>> parse(String line)
    {
        if (!line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : line.substring(PREFIX.length()).split("\t")) {
            int equals = field.indexOf('=');
            if (equals > 0) {
                fields.put(field.substring(0, equals), field.substring(equals + 1));
            }
        }
        return Optional.of(fields);
    }
}
