package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.util.List;
import java.util.Optional;

/**
 * Database metadata of Arrow's driver seen through Ontul's: it names this driver and URL, and
 * gives metadata result sets their JDBC columns even when they are empty (Arrow's 18.3.0 leaves
 * an empty {@code getTables}, {@code getColumns} or {@code getPrimaryKeys} without any column).
 */
final class DatabaseMetaDataHandler
        extends ForwardingHandler<DatabaseMetaData>
{
    /**
     * JDBC's getTypeInfo columns from the server's {@code system.jdbc.types} (Arrow's driver
     * answers with no rows: it does not ask the server for its types).
     */
    private static final String TYPE_INFO = """
            SELECT type_name AS "TYPE_NAME", data_type AS "DATA_TYPE", column_size AS "PRECISION", literal_prefix AS "LITERAL_PREFIX",
                literal_suffix AS "LITERAL_SUFFIX", create_params AS "CREATE_PARAMS", CAST(nullable AS SMALLINT) AS "NULLABLE",
                case_sensitive AS "CASE_SENSITIVE", CAST(searchable AS SMALLINT) AS "SEARCHABLE", unsigned_attribute AS "UNSIGNED_ATTRIBUTE",
                fixed_prec_scale AS "FIXED_PREC_SCALE", auto_increment AS "AUTO_INCREMENT", local_type_name AS "LOCAL_TYPE_NAME",
                CAST(minimum_scale AS SMALLINT) AS "MINIMUM_SCALE", CAST(maximum_scale AS SMALLINT) AS "MAXIMUM_SCALE",
                sql_data_type AS "SQL_DATA_TYPE", datetime_subcode AS "SQL_DATETIME_SUB", num_prec_radix AS "NUM_PREC_RADIX"
            FROM system.jdbc.types
            ORDER BY data_type, type_name""";

    private final Connection connection;
    private final OntulUrl url;

    private DatabaseMetaDataHandler(DatabaseMetaData delegate, Connection connection, OntulUrl url)
    {
        super(delegate);
        this.connection = requireNonNull(connection, "connection is null");
        this.url = requireNonNull(url, "url is null");
    }

    static DatabaseMetaData wrap(DatabaseMetaData metadata, Connection connection, OntulUrl url)
    {
        return proxy(DatabaseMetaData.class, new DatabaseMetaDataHandler(metadata, connection, url));
    }

    @Override
    protected Object handle(Object proxy, Method method, Object[] arguments)
            throws Throwable
    {
        switch (method.getName()) {
            case "getConnection":
                return connection;
            case "getURL":
                return url.displayUrl();
            case "getUserName":
                return url.user().orElse(null);
            case "getDriverName":
                return OntulDriver.NAME;
            case "getDriverVersion":
                return OntulDriver.VERSION;
            case "getDriverMajorVersion":
                return OntulDriver.MAJOR_VERSION;
            case "getDriverMinorVersion":
                return OntulDriver.MINOR_VERSION;
            case "getTypeInfo":
                return typeInfo();
            // result sets are forward-only and read-only: no change to their rows is seen or
            // detected (Avatica, under Arrow's driver, throws "todo: implement this method")
            case "ownUpdatesAreVisible":
            case "ownDeletesAreVisible":
            case "ownInsertsAreVisible":
            case "othersUpdatesAreVisible":
            case "othersDeletesAreVisible":
            case "othersInsertsAreVisible":
            case "updatesAreDetected":
            case "deletesAreDetected":
            case "insertsAreDetected":
                return false;
            // JDBC asks every driver to support the entry level; Arrow's reads a SqlInfo that Arrow
            // Java's server side cannot send (SqlInfoBuilder has no setter for it)
            case "supportsANSI92EntryLevelSQL":
                return true;
            case "supportsANSI92IntermediateSQL":
            case "supportsANSI92FullSQL":
                return false;
            // there are no transactions to commit: a result set stays open until it is closed
            case "supportsResultSetHoldability":
                return (Integer) arguments[0] == ResultSet.HOLD_CURSORS_OVER_COMMIT;
            case "getPrimaryKeys":
            case "getImportedKeys":
            case "getExportedKeys":
            case "getBestRowIdentifier":
            case "getVersionColumns":
            case "getIndexInfo":
                // JDBC: the table is a name, not a pattern, and must be given (Arrow's driver
                // fails with a NullPointerException)
                if (arguments[2] == null) {
                    throw new java.sql.SQLException("DatabaseMetaData." + method.getName() + " needs a table name, not null", "HY009");
                }
                break;
            // unquoted names fold to lower case, quoted ones are kept as written; Arrow's driver
            // answers with Avatica's defaults (upper case), so generic clients (sqlline's !columns)
            // looked up NATION and found nothing
            case "storesLowerCaseIdentifiers":
            case "storesMixedCaseQuotedIdentifiers":
                return true;
            case "storesUpperCaseIdentifiers":
            case "storesMixedCaseIdentifiers":
            case "supportsMixedCaseIdentifiers":
            case "storesUpperCaseQuotedIdentifiers":
            case "storesLowerCaseQuotedIdentifiers":
                return false;
            default:
                break;
        }
        Object result = forward(method, arguments);
        if (result instanceof ResultSet resultSet) {
            Optional<List<MetadataColumns.Column>> columns = MetadataColumns.of(method.getName());
            if (columns.isPresent() && resultSet.getMetaData().getColumnCount() == 0) {
                resultSet.close();
                return EmptyResultSet.create(columns.get());
            }
            return ResultSetHandler.wrap(resultSet, null);
        }
        return result;
    }

    private ResultSet typeInfo()
            throws java.sql.SQLException
    {
        java.sql.Statement statement = connection.createStatement();
        try {
            statement.closeOnCompletion();
            return statement.executeQuery(TYPE_INFO);
        }
        catch (java.sql.SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }
}
