package io.ontul.catalog.jdbc.type;

import static java.util.Objects.requireNonNull;

/**
 * A column as {@link java.sql.DatabaseMetaData#getColumns} describes it.
 *
 * @param jdbcType a {@link java.sql.Types} constant
 * @param typeName the database's own type name ({@code int4}, {@code timestamptz}, {@code INT UNSIGNED})
 * @param columnSize precision of numbers, length of text; 0 if the driver gives none
 * @param decimalDigits scale of numbers, fractional second digits of times; -1 if the driver gives none
 */
public record RemoteColumn(String name, int jdbcType, String typeName, int columnSize, int decimalDigits, boolean nullable)
{
    public RemoteColumn
    {
        requireNonNull(name, "name is null");
        requireNonNull(typeName, "typeName is null");
    }
}
