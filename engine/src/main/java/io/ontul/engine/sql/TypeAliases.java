package io.ontul.engine.sql;

import java.util.Locale;
import java.util.Map;

import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The type names other engines accept that SQL does not have, as names of Ontul's types:
 * PostgreSQL's {@code TEXT}, {@code INT2/4/8}, {@code FLOAT4/8}, {@code BOOL}, Spark's and
 * Hive's {@code STRING}, MySQL's and BigQuery's {@code DATETIME} (a timestamp without a time
 * zone in both; a non-reserved word of Ontul's grammar, so a name here). They are
 * types of the root namespace, which Calcite's validator looks names up in, so {@code CAST} and
 * {@code CREATE TABLE} take them wherever a type goes; what a column gets is the type it names
 * ({@code VARCHAR}, {@code INTEGER}, ...). SQL's own names ({@code INT}, {@code NUMERIC},
 * {@code FLOAT}, ...) need no alias.
 */
public final class TypeAliases
{
    static final Map<String, SqlTypeName> ALIASES = Map.of(
            "text", SqlTypeName.VARCHAR,
            "string", SqlTypeName.VARCHAR,
            "int2", SqlTypeName.SMALLINT,
            "int4", SqlTypeName.INTEGER,
            "int8", SqlTypeName.BIGINT,
            "float4", SqlTypeName.REAL,
            "float8", SqlTypeName.DOUBLE,
            "bool", SqlTypeName.BOOLEAN,
            "datetime", SqlTypeName.TIMESTAMP);

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
