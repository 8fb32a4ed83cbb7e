package io.ontul.catalog.iceberg;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.iceberg.CatalogProperties;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The validated properties of an Iceberg catalog file, and the properties they give Iceberg's own
 * catalog implementation. Values of {@code iceberg.jdbc.password} and of passed-through properties
 * may be secrets: {@link #toString()} never shows them.
 */
public final class IcebergConfig
{
    public static final String CATALOG_TYPE = "iceberg.catalog.type";
    public static final String WAREHOUSE = "iceberg.warehouse";
    public static final String JDBC_URL = "iceberg.jdbc.url";
    public static final String JDBC_USER = "iceberg.jdbc.user";
    public static final String JDBC_PASSWORD = "iceberg.jdbc.password";
    public static final String REST_URI = "iceberg.rest.uri";
    public static final String TARGET_FILE_SIZE = "iceberg.target-file-size";
    /** Prefix of properties handed unchanged (without the prefix) to Iceberg's catalog. */
    public static final String CATALOG_PROPERTY_PREFIX = "iceberg.catalog.";
    /** Prefix of properties set (without the prefix) in the Hadoop configuration (fs.s3a.*, HDFS...). */
    public static final String HADOOP_PROPERTY_PREFIX = "iceberg.hadoop.";

    private static final Pattern SECRET_KEY = Pattern.compile("(?i)password|secret|token|credential|key");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KB|MB|GB)?");

    private final String catalogName;
    private final IcebergCatalogType catalogType;
    private final Optional<String> warehouse;
    private final Map<String, String> icebergProperties;
    private final Map<String, String> hadoopProperties;
    private final OptionalLong targetFileSize;
    private final String location;

    private IcebergConfig(String catalogName, IcebergCatalogType catalogType, Optional<String> warehouse, Map<String, String> icebergProperties, Map<String, String> hadoopProperties, OptionalLong targetFileSize, String location)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.catalogType = requireNonNull(catalogType, "catalogType is null");
        this.warehouse = requireNonNull(warehouse, "warehouse is null");
        this.icebergProperties = Map.copyOf(requireNonNull(icebergProperties, "icebergProperties is null"));
        this.hadoopProperties = Map.copyOf(requireNonNull(hadoopProperties, "hadoopProperties is null"));
        this.targetFileSize = requireNonNull(targetFileSize, "targetFileSize is null");
        this.location = requireNonNull(location, "location is null");
    }

    /**
     * @throws OntulException INVALID_ARGUMENT naming the first unknown, missing or bad property
     */
    public static IcebergConfig parse(String catalogName, Map<String, String> config, Optional<Path> dataDirectory)
    {
        requireNonNull(catalogName, "catalogName is null");
        Map<String, String> remaining = new TreeMap<>(requireNonNull(config, "config is null"));
        String typeValue = remaining.remove(CATALOG_TYPE);
        IcebergCatalogType type = typeValue == null ? IcebergCatalogType.HADOOP : IcebergCatalogType.fromPropertyValue(typeValue)
                .orElseThrow(() -> invalid(catalogName, "property '%s' is '%s'; use one of %s", CATALOG_TYPE, typeValue,
                        Arrays.stream(IcebergCatalogType.values()).map(IcebergCatalogType::propertyValue).collect(Collectors.joining(", "))));
        Optional<String> warehouse = Optional.ofNullable(remaining.remove(WAREHOUSE)).map(String::trim).filter(value -> !value.isEmpty());
        Optional<String> jdbcUrl = Optional.ofNullable(remaining.remove(JDBC_URL));
        Optional<String> jdbcUser = Optional.ofNullable(remaining.remove(JDBC_USER));
        Optional<String> jdbcPassword = Optional.ofNullable(remaining.remove(JDBC_PASSWORD));
        Optional<String> restUri = Optional.ofNullable(remaining.remove(REST_URI));
        String targetFileSizeValue = remaining.remove(TARGET_FILE_SIZE);
        OptionalLong targetFileSize = targetFileSizeValue == null ? OptionalLong.empty() : OptionalLong.of(parseSize(catalogName, targetFileSizeValue));

        Map<String, String> passedThrough = new LinkedHashMap<>();
        Map<String, String> hadoopProperties = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : Map.copyOf(remaining).entrySet()) {
            String key = entry.getKey();
            if (key.startsWith(CATALOG_PROPERTY_PREFIX) && key.length() > CATALOG_PROPERTY_PREFIX.length()) {
                passedThrough.put(key.substring(CATALOG_PROPERTY_PREFIX.length()), entry.getValue());
                remaining.remove(key);
            }
            else if (key.startsWith(HADOOP_PROPERTY_PREFIX) && key.length() > HADOOP_PROPERTY_PREFIX.length()) {
                hadoopProperties.put(key.substring(HADOOP_PROPERTY_PREFIX.length()), entry.getValue());
                remaining.remove(key);
            }
        }
        if (!remaining.isEmpty()) {
            throw invalid(catalogName, "unknown property '%s'", remaining.keySet().iterator().next());
        }
        if (type != IcebergCatalogType.JDBC) {
            for (Map.Entry<String, Optional<String>> jdbcProperty : Map.of(JDBC_URL, jdbcUrl, JDBC_USER, jdbcUser, JDBC_PASSWORD, jdbcPassword).entrySet()) {
                if (jdbcProperty.getValue().isPresent()) {
                    throw invalid(catalogName, "property '%s' needs %s=jdbc", jdbcProperty.getKey(), CATALOG_TYPE);
                }
            }
        }
        if (type != IcebergCatalogType.REST && restUri.isPresent()) {
            throw invalid(catalogName, "property '%s' needs %s=rest", REST_URI, CATALOG_TYPE);
        }

        Map<String, String> properties = new LinkedHashMap<>();
        String location;
        switch (type) {
            case HADOOP -> {
                String resolved = warehouse.map(IcebergConfig::absolute).orElseGet(() -> defaultWarehouse(catalogName, dataDirectory));
                warehouse = Optional.of(resolved);
                properties.put("warehouse", resolved);
                location = "warehouse " + resolved;
            }
            case JDBC -> {
                String url = jdbcUrl.filter(value -> !value.isBlank())
                        .orElseThrow(() -> invalid(catalogName, "property '%s' is required with %s=jdbc (for example jdbc:sqlite:/var/lib/ontul/iceberg.db)", JDBC_URL, CATALOG_TYPE));
                String resolved = warehouse.map(IcebergConfig::absolute).orElseGet(() -> defaultWarehouse(catalogName, dataDirectory));
                warehouse = Optional.of(resolved);
                properties.put("uri", url);
                properties.put("warehouse", resolved);
                properties.put("jdbc.schema-version", "V1");
                jdbcUser.ifPresent(user -> properties.put("jdbc.user", user));
                jdbcPassword.ifPresent(password -> properties.put("jdbc.password", password));
                location = withoutUserInformation(url);
            }
            case REST -> {
                String uri = restUri.filter(value -> !value.isBlank())
                        .orElseThrow(() -> invalid(catalogName, "property '%s' is required with %s=rest (for example http://localhost:8181)", REST_URI, CATALOG_TYPE));
                properties.put("uri", uri);
                warehouse.ifPresent(value -> properties.put("warehouse", value));
                location = withoutUserInformation(uri);
            }
            default -> throw new IllegalStateException("unknown catalog type " + type);
        }
        properties.put(CatalogProperties.METRICS_REPORTER_IMPL, IcebergDebugMetricsReporter.class.getName());
        properties.putAll(passedThrough);
        return new IcebergConfig(catalogName, type, warehouse, properties, hadoopProperties, targetFileSize, location);
    }

    public String catalogName()
    {
        return catalogName;
    }

    public IcebergCatalogType catalogType()
    {
        return catalogType;
    }

    public Optional<String> warehouse()
    {
        return warehouse;
    }

    /** What Iceberg's catalog implementation is initialized with; may hold secrets, never log it. */
    public Map<String, String> icebergProperties()
    {
        return icebergProperties;
    }

    /**
     * Text that must never appear in a message or log: the JDBC URL as written (it may hold a
     * password; {@link #location()} is the safe spelling), the password, and the values of
     * passed-through properties whose name suggests a secret.
     */
    public List<String> secrets()
    {
        List<String> secrets = new ArrayList<>();
        Optional.ofNullable(icebergProperties.get("uri")).filter(uri -> !uri.equals(location)).ifPresent(secrets::add);
        for (Map<String, String> properties : List.of(icebergProperties, hadoopProperties)) {
            properties.forEach((key, value) -> {
                if (SECRET_KEY.matcher(key).find() && !value.isBlank()) {
                    secrets.add(value);
                }
            });
        }
        return secrets;
    }

    /** Hadoop configuration entries for the warehouse's file system; may hold secrets, never log them. */
    public Map<String, String> hadoopProperties()
    {
        return hadoopProperties;
    }

    /** The default target size of data files, for tables without {@code write.target-file-size-bytes}. */
    public OptionalLong targetFileSize()
    {
        return targetFileSize;
    }

    /** Where the catalog lives, for error messages: a warehouse path, a JDBC URL or a REST URI, without secrets. */
    public String location()
    {
        return location;
    }

    @Override
    public String toString()
    {
        return "iceberg catalog '" + catalogName + "' (" + catalogType.propertyValue() + ", " + location + ")";
    }

    private static String defaultWarehouse(String catalogName, Optional<Path> dataDirectory)
    {
        return dataDirectory.map(directory -> directory.resolve("warehouse").toAbsolutePath().toString())
                .orElseThrow(() -> invalid(catalogName, "property '%s' is required when the server has no data directory (ontul.data-dir)", WAREHOUSE));
    }

    private static String absolute(String warehouse)
    {
        // a bare path is local; anything with a scheme (file:, s3:, hdfs:) is left to Iceberg's FileIO
        if (warehouse.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") && !warehouse.matches("^[a-zA-Z]:\\\\.*")) {
            return warehouse;
        }
        return Path.of(warehouse).toAbsolutePath().normalize().toString();
    }

    private static String withoutUserInformation(String uri)
    {
        return uri.replaceAll("//[^/@]*@", "//").replaceAll("(?i)(password|secret|token)=[^&;]*", "$1=***");
    }

    static long parseSize(String catalogName, String value)
    {
        Matcher matcher = SIZE.matcher(value.trim().toUpperCase(Locale.ROOT));
        try {
            if (!matcher.matches()) {
                throw new NumberFormatException(value);
            }
            int shift = switch (matcher.group(2) == null ? "B" : matcher.group(2)) {
                case "KB" -> 10;
                case "MB" -> 20;
                case "GB" -> 30;
                default -> 0;
            };
            long size = Math.multiplyExact(Long.parseLong(matcher.group(1)), 1L << shift);
            if (size <= 0) {
                throw new NumberFormatException(value);
            }
            return size;
        }
        catch (NumberFormatException | ArithmeticException e) {
            throw invalid(catalogName, "property '%s' is '%s'; use a positive size such as 134217728, 128MB or 1GB", TARGET_FILE_SIZE, value);
        }
    }

    private static OntulException invalid(String catalogName, String format, Object... args)
    {
        return OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': %s", catalogName, String.format(format, args));
    }
}
