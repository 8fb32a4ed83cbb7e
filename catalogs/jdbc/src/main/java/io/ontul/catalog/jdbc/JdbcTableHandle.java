package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A database table or view as found when the statement was planned: its names as the database
 * spells them and the columns the engine sees (unsupported ones left out, and named in
 * {@code leftOut}), in table order.
 */
public record JdbcTableHandle(String catalogName, String schema, String table, List<JdbcColumn> columns, List<String> leftOut)
{
    public JdbcTableHandle
    {
        requireNonNull(catalogName, "catalogName is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        leftOut = List.copyOf(requireNonNull(leftOut, "leftOut is null"));
    }

    public Optional<JdbcColumn> column(String name)
    {
        return columns.stream().filter(column -> column.name().equals(name)).findFirst();
    }

    public String qualifiedName()
    {
        return catalogName + "." + schema + "." + table;
    }
}
