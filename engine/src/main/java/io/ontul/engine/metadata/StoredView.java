package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A view as the metadata store keeps it.
 *
 * @param definition the CREATE VIEW statement as the user wrote it, planned again wherever the view is read
 * @param defaultCatalog the creating session's catalog, for unqualified names in the definition
 * @param defaultSchema the creating session's schema
 * @param columns the view's columns when it was created: what a reader plans against, and what
 *        the definition's query is cast to when the tables under it change
 * @param owner the user who created it: the view reads its tables with this user's rights
 */
public record StoredView(
        String catalog,
        String schema,
        String name,
        String definition,
        Optional<String> defaultCatalog,
        Optional<String> defaultSchema,
        Schema columns,
        String owner,
        Instant createdAt)
{
    public StoredView
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(name, "name is null");
        requireNonNull(definition, "definition is null");
        requireNonNull(defaultCatalog, "defaultCatalog is null");
        requireNonNull(defaultSchema, "defaultSchema is null");
        requireNonNull(columns, "columns is null");
        requireNonNull(owner, "owner is null");
        requireNonNull(createdAt, "createdAt is null");
    }

    /** {@code catalog.schema.name}, for messages. */
    public String qualifiedName()
    {
        return catalog + "." + schema + "." + name;
    }
}
