package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The properties of {@code CREATE TABLE ... WITH (...)} for an Iceberg table: {@code partitioning}
 * (an ARRAY of partition fields, see {@link IcebergPartitioning}), {@code format-version} (1, 2
 * or 3; default 2), {@code location}, and Iceberg table properties given by their own dotted
 * names, quoted ({@code 'write.target-file-size-bytes' = '134217728'}), which Iceberg stores on
 * the table.
 */
public record IcebergTableProperties(List<String> partitioning, int formatVersion, Optional<String> location, Map<String, String> icebergProperties)
{
    public static final String PARTITIONING = "partitioning";
    public static final String FORMAT_VERSION = "format-version";
    public static final String LOCATION = "location";
    private static final List<String> ICEBERG_PREFIXES = List.of("write.", "read.", "commit.", "history.", "format.", "schema.", "gc.");

    public IcebergTableProperties
    {
        partitioning = List.copyOf(requireNonNull(partitioning, "partitioning is null"));
        requireNonNull(location, "location is null");
        icebergProperties = Map.copyOf(requireNonNull(icebergProperties, "icebergProperties is null"));
    }

    public static IcebergTableProperties parse(String tableName, Map<String, Object> properties)
    {
        List<String> partitioning = List.of();
        int formatVersion = 2;
        Optional<String> location = Optional.empty();
        Map<String, String> icebergProperties = new LinkedHashMap<>();
        for (Map.Entry<String, Object> property : properties.entrySet()) {
            String name = property.getKey();
            Object value = property.getValue();
            switch (name) {
                case PARTITIONING -> partitioning = partitioning(tableName, value);
                case FORMAT_VERSION -> formatVersion = formatVersion(tableName, value);
                case LOCATION -> {
                    if (!(value instanceof String text) || text.isBlank()) {
                        throw invalid(tableName, "property 'location' must be a text such as '/data/warehouse/db/t' or 's3://bucket/db/t'");
                    }
                    location = Optional.of(text);
                }
                default -> {
                    if (ICEBERG_PREFIXES.stream().noneMatch(name::startsWith) || value == null || value instanceof List) {
                        throw invalid(tableName, "unknown property '%s'; use partitioning, format-version, location or an Iceberg table property such as 'write.target-file-size-bytes'", name);
                    }
                    icebergProperties.put(name, value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString());
                }
            }
        }
        return new IcebergTableProperties(partitioning, formatVersion, location, icebergProperties);
    }

    private static List<String> partitioning(String tableName, Object value)
    {
        List<?> items = value instanceof List<?> list ? list : List.of(value);
        for (Object item : items) {
            if (!(item instanceof String)) {
                throw invalid(tableName, "property 'partitioning' must be an ARRAY of texts such as ARRAY['day(ts)', 'bucket(16, id)']");
            }
        }
        return items.stream().map(String.class::cast).toList();
    }

    private static int formatVersion(String tableName, Object value)
    {
        try {
            long version = value instanceof Long number ? number : value instanceof BigDecimal decimal ? decimal.longValueExact() : Long.parseLong(String.valueOf(value).trim());
            if (version >= 1 && version <= 3) {
                return (int) version;
            }
        }
        catch (ArithmeticException | NumberFormatException e) {
            // reported below
        }
        throw invalid(tableName, "property 'format-version' is '%s'; use 1, 2 or 3", value);
    }

    private static OntulException invalid(String tableName, String format, Object... args)
    {
        return OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Table '%s': %s", tableName, String.format(format, args));
    }
}
