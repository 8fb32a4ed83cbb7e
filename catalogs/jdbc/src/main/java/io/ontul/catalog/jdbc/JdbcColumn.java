package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.catalog.jdbc.type.RemoteColumn;

/**
 * A column of a database table that the engine sees: the database's description and its mapping.
 */
public record JdbcColumn(RemoteColumn remote, ColumnMapping mapping)
{
    public JdbcColumn
    {
        requireNonNull(remote, "remote is null");
        requireNonNull(mapping, "mapping is null");
    }

    public String name()
    {
        return remote.name();
    }

    public Field field()
    {
        return mapping.field(remote.name(), remote.nullable());
    }
}
