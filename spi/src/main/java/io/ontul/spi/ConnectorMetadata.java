package io.ontul.spi;

import java.util.List;
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
     * Creates an empty table. Column types come from the Arrow schema; nullability from the
     * fields.
     *
     * @throws OntulException ALREADY_EXISTS if it exists, NOT_SUPPORTED if the catalog is
     * read-only
     */
    default TableHandle createTable(String schema, String table, Schema columns)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support CREATE TABLE");
    }

    /** @throws OntulException NOT_FOUND if it does not exist, NOT_SUPPORTED if read-only */
    default void dropTable(String schema, String table)
    {
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Catalog does not support DROP TABLE");
    }
}
