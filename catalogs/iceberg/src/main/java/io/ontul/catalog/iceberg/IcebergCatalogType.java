package io.ontul.catalog.iceberg;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the Iceberg tables of a catalog are registered ({@code iceberg.catalog.type}).
 */
public enum IcebergCatalogType
{
    /** Tables are directories under the warehouse; the file system's atomic rename commits. */
    HADOOP,
    /** Table pointers in a database (SQLite, PostgreSQL...) reached over JDBC. */
    JDBC,
    /** An Iceberg REST catalog server. */
    REST;

    public String propertyValue()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<IcebergCatalogType> fromPropertyValue(String value)
    {
        return Arrays.stream(values())
                .filter(type -> type.propertyValue().equals(value.trim().toLowerCase(Locale.ROOT)))
                .findFirst();
    }
}
