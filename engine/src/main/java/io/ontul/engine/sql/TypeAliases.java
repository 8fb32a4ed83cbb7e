package io.ontul.engine.sql;

import java.util.Locale;
import java.util.Map;

import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The type names other engines accept that SQL does not have, as names of Ontul's types:
 * PostgreSQL's {@code TEXT}, {@code INT2/4/8}, {@code FLOAT4/8}, {@code BOOL}, Spark's and
 * Hive's {@code STRING}, MySQL's and BigQuery's {@code DATETIME} (a timestamp without a time
 * zone in both; a non-reserved word of Ontul's grammar, so a name here), PostgreSQL's {@code BYTEA}
 * ({@code VARBINARY}). They are
 * types of the root namespace, which Calcite's validator looks names up in, so {@code CAST} and
 * {@code CREATE TABLE} take them wherever a type goes; what a column gets is the type it names
 * ({@code VARCHAR}, {@code INTEGER}, ...). SQL's own names ({@code INT}, {@code NUMERIC},
 * {@code FLOAT}, ...) need no alias.
 */
public final class TypeAliases
{
    static final Map<String, SqlTypeName> ALIASES = Map.ofEntries(
            Map.entry("text", SqlTypeName.VARCHAR),
            Map.entry("string", SqlTypeName.VARCHAR),
            Map.entry("int2", SqlTypeName.SMALLINT),
            Map.entry("int4", SqlTypeName.INTEGER),
            Map.entry("int8", SqlTypeName.BIGINT),
            Map.entry("float4", SqlTypeName.REAL),
            Map.entry("float8", SqlTypeName.DOUBLE),
            Map.entry("bool", SqlTypeName.BOOLEAN),
            Map.entry("datetime", SqlTypeName.TIMESTAMP),
            Map.entry("bytea", SqlTypeName.VARBINARY));

    private TypeAliases() {}

    /** Adds the aliases to {@code root}, in lower case (unquoted names) and upper case (quoted as written). */
    static void addTo(SchemaPlus root)
    {
        ALIASES.forEach((alias, type) -> {
            root.add(alias, factory -> factory.createSqlType(type));
            root.add(alias.toUpperCase(Locale.ROOT), factory -> factory.createSqlType(type));
        });
    }
}
