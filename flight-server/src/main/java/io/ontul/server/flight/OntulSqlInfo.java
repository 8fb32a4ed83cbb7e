package io.ontul.server.flight;

import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlNullOrdering;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlOuterJoinsSupportLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedGroupBy;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedSubqueries;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedUnions;
import org.apache.arrow.flight.sql.impl.FlightSql.SupportedSqlGrammar;

/**
 * What GetSqlInfo answers: the server's name and version and the SQL dialect as README.md's
 * "SQL supported" describes it. JDBC drivers read it once per connection for
 * DatabaseMetaData (product name, quoting, keywords, null ordering).
 */
public final class OntulSqlInfo
{
    public static final String SERVER_NAME = "Ontul";

    private static final String[] KEYWORDS = {
            "ANALYZE", "CATALOGS", "COLUMNS", "DESCRIBE", "EXPLAIN", "LIMIT", "OFFSET", "RESET", "SCHEMAS", "SESSION", "SHOW", "TABLES", "USE",
    };
    private static final String[] NUMERIC_FUNCTIONS = {"ABS", "CEIL", "EXP", "FLOOR", "LN", "MOD", "POWER", "ROUND", "SIGN", "SQRT"};
    private static final String[] STRING_FUNCTIONS = {"CHAR_LENGTH", "LOWER", "POSITION", "REPLACE", "SUBSTRING", "TRIM", "UPPER"};
    private static final String[] SYSTEM_FUNCTIONS = {"COALESCE", "NULLIF"};
    private static final String[] DATETIME_FUNCTIONS = {"CURRENT_DATE", "CURRENT_TIMESTAMP", "EXTRACT"};

    private OntulSqlInfo() {}

    public static SqlInfoBuilder create(String version)
    {
        return new SqlInfoBuilder()
                .withFlightSqlServerName(SERVER_NAME)
                .withFlightSqlServerVersion(version)
                .withFlightSqlServerArrowVersion(arrowVersion())
                .withFlightSqlServerReadOnly(false)
                .withFlightSqlServerSql(true)
                .withFlightSqlServerSubstrait(false)
                .withFlightSqlServerTransaction(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
                .withFlightSqlServerCancel(true)
                .withFlightSqlServerBulkIngestion(true)
                .withFlightSqlServerBulkIngestionTransaction(false)
                .withSqlTransactionsSupported(false)
                // JDBC's getDefaultTransactionIsolation reads it (a NullPointerException in Arrow's driver
                // when absent): 0 is TRANSACTION_NONE in both Flight SQL's and JDBC's numbering
                .withSqlDefaultTransactionIsolation(0)
                .withSqlSupportedTransactionsIsolationLevels(org.apache.arrow.flight.sql.impl.FlightSql.SqlTransactionIsolationLevel.SQL_TRANSACTION_NONE)
                .withSqlIdentifierQuoteChar("\"")
                .withSqlSearchStringEscape("\\")
                .withSqlExtraNameCharacters("")
                .withSqlCatalogTerm("catalog")
                .withSqlSchemaTerm("schema")
                .withSqlProcedureTerm("procedure")
                .withSqlIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_LOWERCASE)
                .withSqlQuotedIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
                .withSqlNullOrdering(SqlNullOrdering.SQL_NULLS_SORTED_AT_END)
                .withSqlNullPlusNullIsNull(true)
                .withSqlSupportsColumnAliasing(true)
                .withSqlSupportsTableCorrelationNames(true)
                .withSqlSupportsDifferentTableCorrelationNames(false)
                .withSqlSupportsExpressionsInOrderBy(true)
                .withSqlSupportsOrderByUnrelated(true)
                .withSqlSupportsLikeEscapeClause(true)
                .withSqlSupportsNonNullableColumns(true)
                .withSqlCorrelatedSubqueriesSupported(true)
                .withSqlSelectForUpdateSupported(false)
                .withSqlStoredProceduresSupported(false)
                .withSqlBatchUpdatesSupported(true)
                .withSqlSavepointsSupported(false)
                .withSqlNamedParametersSupported(false)
                .withSqlAllTablesAreSelectable(true)
                .withSqlDdlCatalog(false)
                .withSqlDdlSchema(false)
                .withSqlDdlTable(true)
                .withSqlSupportedGroupBy(SqlSupportedGroupBy.SQL_GROUP_BY_UNRELATED)
                .withSqlSupportedGrammar(SupportedSqlGrammar.SQL_CORE_GRAMMAR)
                .withSqlSupportedUnions(SqlSupportedUnions.SQL_UNION, SqlSupportedUnions.SQL_UNION_ALL)
                .withSqlOuterJoinSupportLevel(SqlOuterJoinsSupportLevel.SQL_FULL_OUTER_JOINS)
                .withSqlSubQueriesSupported(
                        SqlSupportedSubqueries.SQL_SUBQUERIES_IN_COMPARISONS,
                        SqlSupportedSubqueries.SQL_SUBQUERIES_IN_EXISTS,
                        SqlSupportedSubqueries.SQL_SUBQUERIES_IN_INS)
                .withSqlMaxColumnNameLength(1024)
                .withSqlMaxTableNameLength(1024)
                .withSqlMaxCatalogNameLength(1024)
                .withSqlDbSchemaNameLength(1024)
                .withSqlKeywords(KEYWORDS)
                .withSqlNumericFunctions(NUMERIC_FUNCTIONS)
                .withSqlStringFunctions(STRING_FUNCTIONS)
                .withSqlSystemFunctions(SYSTEM_FUNCTIONS)
                .withSqlDatetimeFunctions(DATETIME_FUNCTIONS);
    }

    private static String arrowVersion()
    {
        String version = org.apache.arrow.vector.VectorSchemaRoot.class.getPackage().getImplementationVersion();
        return version == null ? "18.3.0" : version;
    }
}
