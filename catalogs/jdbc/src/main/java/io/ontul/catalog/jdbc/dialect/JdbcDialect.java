package io.ontul.catalog.jdbc.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.catalog.jdbc.type.RemoteColumn;
import io.ontul.spi.ColumnStatistics;

/**
 * What differs between databases behind the same JDBC code: identifier quoting, the LIMIT
 * syntax, the type mapping in both directions, how to stream a large result, and where a row
 * count estimate comes from. Stateless and thread-safe; chosen once per catalog from the URL
 * ({@link JdbcDialects#forSubprotocol}).
 */
public interface JdbcDialect
{
    /** The database's name for messages ({@code PostgreSQL}). */
    String name();

    /** The port a URL without one means; 0 if unknown. */
    int defaultPort();

    /** The driver class to load, when the connector knows it. */
    default Optional<String> driverClassName()
    {
        return Optional.empty();
    }

    /** Driver properties the connector sets unless the URL sets them. */
    default Map<String, String> driverProperties()
    {
        return Map.of();
    }

    String quote(String identifier);

    default String qualifiedName(String schema, String table)
    {
        return quote(schema) + "." + quote(table);
    }

    /**
     * Whether the database's namespaces are JDBC catalogs rather than schemas (MySQL: databases
     * are catalogs); metadata calls then pass the schema name as the catalog.
     */
    default boolean schemasAreCatalogs()
    {
        return false;
    }

    /** Whether a namespace is the database's own (catalog tables, temporary schemas), never listed. */
    boolean isSystemSchema(String schema);

    /** Table types listed as tables ({@link java.sql.DatabaseMetaData#getTables}'s TABLE_TYPE). */
    default Set<String> tableTypes()
    {
        return Set.of("TABLE", "VIEW");
    }

    /** How the column appears to the engine, or empty if its type is not supported (the column is left out). */
    Optional<ColumnMapping> columnMapping(RemoteColumn column);

    /**
     * The column type for CREATE TABLE of an engine field.
     *
     * @throws io.ontul.spi.OntulException NOT_SUPPORTED for a type the database cannot hold
     */
    String columnType(Field field);

    /**
     * The statement that keeps other sessions from writing into a table, but not from reading it,
     * until the transaction ends (DELETE, UPDATE and MERGE replace the table's rows in one
     * transaction after reading them); empty where the database has none.
     */
    default Optional<String> lockAgainstWriters(String qualifiedName)
    {
        return Optional.empty();
    }

    /** DROP INDEX of an index of {@code schema.table} (PostgreSQL's form: indexes are named in their schema). */
    default String dropIndex(String schema, String table, String index)
    {
        return "DROP INDEX " + qualifiedName(schema, index);
    }

    /** A clause that ends a SELECT after {@code limit} rows, or empty: then the statement's max rows is set. */
    default Optional<String> limitClause(long limit)
    {
        return Optional.empty();
    }

    /**
     * Prepares a statement that reads a large result so that the driver streams it in pieces of
     * about {@code fetchSize} rows instead of holding it all in memory.
     */
    default void prepareForStreaming(Connection connection, PreparedStatement statement, int fetchSize)
            throws SQLException
    {
        statement.setFetchSize(fetchSize);
    }

    /**
     * Whether a streamed result must be cancelled before it is closed early; otherwise closing
     * it reads the remaining rows (MySQL) or the statement keeps running.
     */
    default boolean cancelBeforeEarlyClose()
    {
        return false;
    }

    /**
     * Whether GROUP BY with COUNT, SUM, MIN, MAX and AVG may run in the database: only when its
     * arithmetic, NULL handling, empty groups and text comparison in the mappings' range collations
     * are known to match the engine's ({@link io.ontul.catalog.jdbc.query.JdbcAggregations}).
     */
    default boolean supportsAggregatePushdown()
    {
        return false;
    }

    /** The database's estimate of the table's row count, or empty if it has none. */
    default OptionalLong estimateRowCount(Connection connection, String schema, String table)
            throws SQLException
    {
        return OptionalLong.empty();
    }

    /**
     * The database's statistics of the table's columns ({@link ColumnStatistics}) by column name,
     * for the planner's estimates; empty where it keeps none (or the table was never analyzed).
     *
     * @param columns the columns Ontul maps, with their Arrow types
     * @param rowCount the table's estimated rows, negative if unknown
     */
    default Map<String, ColumnStatistics> columnStatistics(Connection connection, String schema, String table, List<Field> columns, double rowCount)
            throws SQLException
    {
        return Map.of();
    }

    /** The database's own message of a failure, on one line, without the driver's decoration. */
    default String errorMessage(SQLException exception)
    {
        String message = exception.getMessage() == null ? exception.getClass().getSimpleName() : exception.getMessage();
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }
}
