package io.ontul.spi;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Schemas and tables of one catalog. Names passed in are lower case unless the user quoted them;
 * implementations match them exactly. Methods may be called from several threads.
 */
public interface ConnectorMetadata
{
    List<String> listSchemas();

    /** Tables of {@code schema}; empty if the schema does not exist. */
    List<String> listTables(String schema);

    /** The table, or empty if the schema or the table does not exist. */
    Optional<TableHandle> getTable(String schema, String table);

    /**
     * The table at {@code version}, as {@link Connector#version} named it on another node of the
     * cluster (the workers read what the coordinator planned); the default ignores the version.
     *
     * @throws OntulException NOT_FOUND if that version no longer exists
     */
    default Optional<TableHandle> getTable(String schema, String table, String version)
    {
        return getTable(schema, table);
    }

    /**
     * Creates an empty table. Column types come from the Arrow schema; nullability from the
     * fields.
     *
     * @throws OntulException ALREADY_EXISTS if it exists, NOT_SUPPORTED if the catalog is
     * read-only
     */
    default TableHandle createTable(String schema, String table, Schema columns)
    {
        return createTable(schema, table, columns, Map.of());
    }

    /**
     * Creates an empty table with properties ({@code CREATE TABLE ... WITH (name = value, ...)}).
     * Property values are String, Long, java.math.BigDecimal, Boolean, or a List of those
     * ({@code ARRAY[...]}); names are as the user wrote them (lower case unless quoted).
     *
     * @throws OntulException ALREADY_EXISTS if it exists, INVALID_ARGUMENT for an unknown or bad
     * property (naming it), NOT_SUPPORTED if the catalog is read-only
     */
    default TableHandle createTable(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support CREATE TABLE");
    }

    /**
     * The constraints {@link #createTable} keeps when the schema carries them
     * ({@link TableConstraints}); the engine refuses the others. None by default.
     */
    default java.util.Set<TableConstraints.Kind> supportedConstraints()
    {
        return java.util.Set.of();
    }

    /**
     * {@code CREATE [UNIQUE] INDEX name ON schema.table (columns)}: a unique index rejects rows
     * that share its columns' values (and the statement fails if existing rows do).
     *
     * @throws OntulException ALREADY_EXISTS if the table has an index of that name, INVALID_ARGUMENT
     *         when existing rows break a unique index, NOT_SUPPORTED where the catalog has no indexes
     */
    default void createIndex(String schema, String table, String index, List<String> columns, boolean unique)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support CREATE INDEX");
    }

    /** @throws OntulException NOT_FOUND if the table has no index of that name, NOT_SUPPORTED where the catalog has no indexes */
    default void dropIndex(String schema, String table, String index)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support DROP INDEX");
    }

    /** @throws OntulException NOT_FOUND if it does not exist, NOT_SUPPORTED if read-only */
    default void dropTable(String schema, String table)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support DROP TABLE");
    }

    /**
     * Creates a schema ({@code CREATE SCHEMA ... WITH (...)}); properties as for
     * {@link #createTable(String, String, Schema, Map)}.
     *
     * @throws OntulException ALREADY_EXISTS if it exists, NOT_SUPPORTED if the catalog has fixed schemas
     */
    default void createSchema(String schema, Map<String, Object> properties)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support CREATE SCHEMA");
    }

    /**
     * Drops an empty schema.
     *
     * @throws OntulException NOT_FOUND if it does not exist, INVALID_ARGUMENT if it still has
     * tables, NOT_SUPPORTED if the catalog has fixed schemas
     */
    default void dropSchema(String schema)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support DROP SCHEMA");
    }
}
