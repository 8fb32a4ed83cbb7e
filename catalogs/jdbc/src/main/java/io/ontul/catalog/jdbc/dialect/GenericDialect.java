package io.ontul.catalog.jdbc.dialect;

import static java.util.Objects.requireNonNull;

import java.sql.Types;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.catalog.jdbc.type.PredicatePushdown;
import io.ontul.catalog.jdbc.type.RemoteColumn;
import io.ontul.catalog.jdbc.type.StandardColumnMappings;
import io.ontul.spi.ColumnPredicate.Operator;

/**
 * Any other database with a JDBC driver on the class path: standard SQL quoting and types, the
 * standard JDBC type mapping, LIMIT through {@link java.sql.Statement#setMaxRows}, no row count
 * estimate. Text takes only equality and IN, as inexact filters, since its collation is unknown.
 */
public final class GenericDialect
        implements JdbcDialect
{
    private static final ColumnTypeNames TYPE_NAMES = new ColumnTypeNames("BOOLEAN", "SMALLINT", "SMALLINT", "INTEGER", "BIGINT", "REAL", "DOUBLE PRECISION",
            "VARCHAR(32672)", "DATE", "TIME", "TIMESTAMP(3)", "TIMESTAMP(6)", "VARBINARY(32672)", "CHAR(36)", " WITH TIME ZONE");
    private static final PredicatePushdown TEXT_PUSHDOWN = new PredicatePushdown(EnumSet.of(Operator.EQUAL, Operator.IN), false, Optional.empty());

    private final String name;

    public GenericDialect(String name)
    {
        this.name = requireNonNull(name, "name is null");
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public int defaultPort()
    {
        return 0;
    }

    @Override
    public String quote(String identifier)
    {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public boolean isSystemSchema(String schema)
    {
        return schema.toLowerCase(Locale.ROOT).equals("information_schema");
    }

    @Override
    public Optional<ColumnMapping> columnMapping(RemoteColumn column)
    {
        Optional<ColumnMapping> mapping = StandardColumnMappings.forColumn(column);
        return switch (column.jdbcType()) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR -> mapping.map(text -> text.withPushdown(TEXT_PUSHDOWN));
            default -> mapping;
        };
    }

    @Override
    public String columnType(Field field)
    {
        return TYPE_NAMES.columnType(name, field);
    }
}
