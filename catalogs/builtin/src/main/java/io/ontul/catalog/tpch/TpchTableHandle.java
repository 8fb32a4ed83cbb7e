package io.ontul.catalog.tpch;

import static java.util.Objects.requireNonNull;

/**
 * The tpch connector's own part of a table handle: which table, at which scale.
 */
public record TpchTableHandle(String schema, double scaleFactor, TpchTableDefinition<?> table)
{
    public TpchTableHandle
    {
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
    }
}
