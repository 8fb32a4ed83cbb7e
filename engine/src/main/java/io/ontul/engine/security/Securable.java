package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A catalog, a schema or a table: what privileges are granted on. A grant on a catalog or a
 * schema covers what is inside it, including what is created later.
 */
public record Securable(Kind kind, String catalog, String schema, String table)
{
    public enum Kind
    {
        CATALOG, SCHEMA, TABLE
    }

    public Securable
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(catalog, "catalog is null");
        schema = kind == Kind.CATALOG ? "" : requireNonNull(schema, "schema is null");
        table = kind == Kind.TABLE ? requireNonNull(table, "table is null") : "";
    }

    public static Securable catalog(String catalog)
    {
        return new Securable(Kind.CATALOG, catalog, "", "");
    }

    public static Securable schema(String catalog, String schema)
    {
        return new Securable(Kind.SCHEMA, catalog, schema, "");
    }

    public static Securable table(String catalog, String schema, String table)
    {
        return new Securable(Kind.TABLE, catalog, schema, table);
    }

    /** {@code catalog.schema.table}, as many parts as the kind has. */
    public static Securable of(Kind kind, List<String> names)
    {
        return switch (kind) {
            case CATALOG -> catalog(names.get(0));
            case SCHEMA -> schema(names.get(0), names.get(1));
            case TABLE -> table(names.get(0), names.get(1), names.get(2));
        };
    }

    /** The schema or catalog this one is in. */
    public Optional<Securable> parent()
    {
        return switch (kind) {
            case CATALOG -> Optional.empty();
            case SCHEMA -> Optional.of(catalog(catalog));
            case TABLE -> Optional.of(schema(catalog, schema));
        };
    }

    /** Whether this is {@code other} or contains it. */
    public boolean covers(Securable other)
    {
        return switch (kind) {
            case CATALOG -> catalog.equals(other.catalog);
            case SCHEMA -> other.kind != Kind.CATALOG && catalog.equals(other.catalog) && schema.equals(other.schema);
            case TABLE -> equals(other);
        };
    }

    public String name()
    {
        return switch (kind) {
            case CATALOG -> catalog;
            case SCHEMA -> catalog + "." + schema;
            case TABLE -> catalog + "." + schema + "." + table;
        };
    }

    /** {@code table 'c.s.t'}, for messages. */
    @Override
    public String toString()
    {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " '" + name() + "'";
    }
}
