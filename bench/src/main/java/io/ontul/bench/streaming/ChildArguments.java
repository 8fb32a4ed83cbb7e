package io.ontul.bench.streaming;

import java.util.HashMap;
import java.util.Map;

/** The {@code --name value} arguments the parent hands a child JVM. */
final class ChildArguments
{
    private final Map<String, String> values;

    private ChildArguments(Map<String, String> values)
    {
        this.values = Map.copyOf(values);
    }

    static ChildArguments parse(String[] args)
    {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("Expected --name value, got " + args[i]);
            }
            values.put(args[i].substring(2), args[i + 1]);
        }
        return new ChildArguments(values);
    }

    String get(String name)
    {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("Missing --" + name);
        }
        return value;
    }

    String get(String name, String defaultValue)
    {
        return values.getOrDefault(name, defaultValue);
    }

    long getLong(String name)
    {
        return Long.parseLong(get(name));
    }

    int getInt(String name)
    {
        return Integer.parseInt(get(name));
    }
}
