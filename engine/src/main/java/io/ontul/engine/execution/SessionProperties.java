package io.ontul.engine.execution;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.ontul.engine.EngineConfig;
import io.ontul.engine.memory.DataSize;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** The session properties users may SET, with validation and defaults from the engine config. */
public final class SessionProperties
{
    public static final String QUERY_MAX_MEMORY = "query_max_memory";
    private static final Set<String> KNOWN = Set.of(QUERY_MAX_MEMORY);

    private SessionProperties() {}

    public static String validate(String name, String value)
    {
        String key = name.toLowerCase(Locale.ROOT);
        if (!KNOWN.contains(key)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Unknown session property '" + name + "'");
        }
        if (key.equals(QUERY_MAX_MEMORY)) {
            DataSize.parse(value, QUERY_MAX_MEMORY);
        }
        return key;
    }

    public static long queryMaxMemory(Map<String, String> session, EngineConfig config)
    {
        String value = session.get(QUERY_MAX_MEMORY);
        if (value != null) {
            return DataSize.parse(value, QUERY_MAX_MEMORY);
        }
        return DataSize.parse(config.property(EngineConfig.QUERY_MAX_MEMORY, "2GB"), EngineConfig.QUERY_MAX_MEMORY);
    }
}
