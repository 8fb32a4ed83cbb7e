package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Engine settings: the server properties ({@code conf/ontul.properties}) and the catalogs
 * ({@code conf/catalogs/NAME.properties}). The built-in catalogs {@code tpch}, {@code tpcds} and
 * {@code memory} exist unless a catalog file of the same name replaces them.
 */
public final class EngineConfig
{
    public static final String QUERY_MAX_MEMORY = "ontul.query.max-memory";
    /** The parallelism of a streaming job created without the option 'parallelism' (default 1). */
    public static final String STREAMING_DEFAULT_PARALLELISM = "ontul.streaming.default-parallelism";
    public static final String MEMORY_MAX = "ontul.memory.max";
    public static final String TASK_CONCURRENCY = "ontul.task.concurrency";
    /** Set by the server: the directory of its users, keys and exchange files. */
    public static final String DATA_DIRECTORY = "ontul.data-dir";
    /** The environment variable with the passphrase that opens the exchange's key file. */
    public static final String MASTER_KEY_VARIABLE = "ONTUL_MASTER_KEY";

    private final Map<String, String> properties;
    private final Map<String, Map<String, String>> catalogs;

    public EngineConfig(Map<String, String> properties, Map<String, Map<String, String>> catalogs)
    {
        this.properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        Map<String, Map<String, String>> all = new TreeMap<>();
        all.put("tpch", Map.of("connector.name", "tpch"));
        all.put("tpcds", Map.of("connector.name", "tpcds"));
        all.put("memory", Map.of("connector.name", "memory"));
        requireNonNull(catalogs, "catalogs is null").forEach((name, config) -> all.put(name, Map.copyOf(config)));
        this.catalogs = Map.copyOf(all);
    }

    /** The embedded defaults: built-in catalogs, default limits. */
    public static EngineConfig embeddedDefaults()
    {
        return new EngineConfig(Map.of(), Map.of());
    }

    /**
     * Reads {@code confDir/ontul.properties} (optional) and every
     * {@code confDir/catalogs/*.properties}.
     */
    public static EngineConfig load(Path confDir)
    {
        Map<String, String> properties = new LinkedHashMap<>();
        Path main = confDir.resolve("ontul.properties");
        if (Files.exists(main)) {
            properties.putAll(read(main));
        }
        Map<String, Map<String, String>> catalogs = new LinkedHashMap<>();
        Path catalogDir = confDir.resolve("catalogs");
        if (Files.isDirectory(catalogDir)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(catalogDir, "*.properties")) {
                for (Path file : files) {
                    String name = file.getFileName().toString().replaceFirst("\\.properties$", "");
                    Map<String, String> config = read(file);
                    if (!config.containsKey("connector.name")) {
                        throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog file %s has no connector.name", file);
                    }
                    catalogs.put(name.toLowerCase(java.util.Locale.ROOT), config);
                }
            }
            catch (IOException e) {
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot read catalog directory " + catalogDir + ": " + e.getMessage(), e);
            }
        }
        return new EngineConfig(properties, catalogs);
    }

    private static Map<String, String> read(Path file)
    {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        catch (IOException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot read " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> map = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(key -> map.put(key, properties.getProperty(key).trim()));
        return map;
    }

    public Map<String, String> properties()
    {
        return properties;
    }

    public String property(String key, String defaultValue)
    {
        return properties.getOrDefault(key, defaultValue);
    }

    public Map<String, Map<String, String>> catalogs()
    {
        return catalogs;
    }

    public EngineConfig withProperty(String key, String value)
    {
        Map<String, String> copy = new LinkedHashMap<>(properties);
        copy.put(key, value);
        return new EngineConfig(copy, catalogs);
    }
}
