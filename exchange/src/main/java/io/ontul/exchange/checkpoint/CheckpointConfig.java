package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Where the checkpoint store keeps its files and how many checkpoints it keeps.
 *
 * @param baseDirectory the exchange base directory ({@value #BASE_DIRECTORY}): a local path or a
 * Hadoop FileSystem URI ({@code file:///...}, {@code hdfs://namenode:8020/...}); checkpoints live
 * in its {@code checkpoints/} folder. Default: {@code <data dir>/exchange}
 * @param retained complete checkpoints kept per job ({@value #RETAINED}, default
 * {@value #DEFAULT_RETAINED}, at least 1)
 * @param hadoopProperties Hadoop client settings: every property named
 * {@value #HADOOP_PREFIX}{@code <key>}, passed on as {@code <key>}
 */
public record CheckpointConfig(String baseDirectory, int retained, Map<String, String> hadoopProperties)
{
    public static final String BASE_DIRECTORY = "ontul.exchange.base.dir";
    public static final String RETAINED = "ontul.exchange.checkpoint.retained";
    public static final String HADOOP_PREFIX = "ontul.exchange.hadoop.";
    public static final int DEFAULT_RETAINED = 3;

    public CheckpointConfig
    {
        requireNonNull(baseDirectory, "baseDirectory is null");
        if (baseDirectory.isBlank()) {
            throw new IllegalArgumentException("baseDirectory is blank");
        }
        if (retained < 1) {
            throw new IllegalArgumentException("retained must be at least 1: " + retained);
        }
        hadoopProperties = Map.copyOf(requireNonNull(hadoopProperties, "hadoopProperties is null"));
    }

    public CheckpointConfig(String baseDirectory)
    {
        this(baseDirectory, DEFAULT_RETAINED, Map.of());
    }

    /**
     * Reads the settings from server properties; other keys are ignored.
     *
     * @param dataDirectory the server's data directory, home of the default base directory
     */
    public static CheckpointConfig fromProperties(Map<String, String> properties, Path dataDirectory)
    {
        requireNonNull(properties, "properties is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        String baseDirectory = properties.getOrDefault(BASE_DIRECTORY, "").trim();
        if (baseDirectory.isEmpty()) {
            baseDirectory = dataDirectory.resolve("exchange").toAbsolutePath().toString();
        }
        int retained = parseRetained(properties.get(RETAINED));
        Map<String, String> hadoopProperties = new TreeMap<>();
        properties.forEach((key, value) -> {
            if (key.startsWith(HADOOP_PREFIX) && key.length() > HADOOP_PREFIX.length()) {
                hadoopProperties.put(key.substring(HADOOP_PREFIX.length()), value.trim());
            }
        });
        return new CheckpointConfig(baseDirectory, retained, hadoopProperties);
    }

    private static int parseRetained(String value)
    {
        if (value == null || value.isBlank()) {
            return DEFAULT_RETAINED;
        }
        try {
            int retained = Integer.parseInt(value.trim());
            if (retained >= 1) {
                return retained;
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid value '%s' for %s: use a whole number of at least 1", value, RETAINED);
    }
}
