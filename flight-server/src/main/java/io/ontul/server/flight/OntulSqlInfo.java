package io.ontul.server.flight;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlNullOrdering;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlOuterJoinsSupportLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedElementActions;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedGroupBy;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedResultSetType;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedSubqueries;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedUnions;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert;
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

    /**
     * @param maxStatementLength characters a statement may have ({@code ontul.query.max-sql-length})
     */
    public static SqlInfoBuilder create(String version, long maxStatementLength)
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
                .withSqlDatetimeFunctions(DATETIME_FUNCTIONS)
                // JDBC's supportsConvert reads it (a NullPointerException in Arrow's driver when absent)
                .withSqlSupportsConvert(conversions())
                // the rest of what JDBC's DatabaseMetaData reads (each a NullPointerException in Arrow's
                // driver when absent); 0 is "no known limit"
                .withSqlCatalogAtStart(true)
                .withSqlSupportsIntegrityEnhancementFacility(false)
                .withSqlSchemasSupportedActions(SqlSupportedElementActions.SQL_ELEMENT_IN_PROCEDURE_CALLS)
                .withSqlCatalogsSupportedActions(SqlSupportedElementActions.SQL_ELEMENT_IN_PROCEDURE_CALLS)
                .withSqlSupportedPositionedCommands()
                .withSqlSupportedResultSetTypes(SqlSupportedResultSetType.SQL_RESULT_SET_TYPE_FORWARD_ONLY)
                .withSqlDataDefinitionCausesTransactionCommit(false)
                .withSqlDataDefinitionsInTransactionsIgnored(false)
                .withSqlLocatorsUpdateCopy(false)
                .withSqlStoredFunctionsUsingCallSyntaxSupported(false)
                .withSqlMaxBinaryLiteralLength(0)
                .withSqlMaxCharLiteralLength(0)
                .withSqlMaxColumnsInGroupBy(0)
                .withSqlMaxColumnsInIndex(0)
                .withSqlMaxColumnsInOrderBy(0)
                .withSqlMaxColumnsInSelect(0)
                .withSqlMaxColumnsInTable(0)
                .withSqlMaxConnections(0)
                .withSqlMaxCursorNameLength(0)
                .withSqlMaxIndexLength(0)
                .withSqlMaxProcedureNameLength(1024)
                .withSqlMaxRowSize(0)
                .withSqlMaxRowSizeIncludesBlobs(false)
                .withSqlMaxStatementLength(maxStatementLength)
                .withSqlMaxStatements(0)
                .withSqlMaxTablesInSelect(0)
                .withSqlMaxUsernameLength(255);
    }

    /**
     * The CASTs Ontul runs, by Flight SQL's SqlSupportsConvert codes: numbers to numbers and text;
     * text to numbers, BOOLEAN, dates, times and timestamps; BOOLEAN to text; DATE and TIMESTAMP
     * to each other and to text; TIMESTAMP to TIME; TIME to text. Checked by a test that runs each.
     */
    static Map<Integer, List<Integer>> conversions()
    {
        List<Integer> numbers = List.of(SqlSupportsConvert.SQL_CONVERT_BIGINT_VALUE, SqlSupportsConvert.SQL_CONVERT_INTEGER_VALUE,
                SqlSupportsConvert.SQL_CONVERT_SMALLINT_VALUE, SqlSupportsConvert.SQL_CONVERT_TINYINT_VALUE, SqlSupportsConvert.SQL_CONVERT_DECIMAL_VALUE,
                SqlSupportsConvert.SQL_CONVERT_NUMERIC_VALUE, SqlSupportsConvert.SQL_CONVERT_REAL_VALUE, SqlSupportsConvert.SQL_CONVERT_FLOAT_VALUE);
        List<Integer> text = List.of(SqlSupportsConvert.SQL_CONVERT_CHAR_VALUE, SqlSupportsConvert.SQL_CONVERT_VARCHAR_VALUE, SqlSupportsConvert.SQL_CONVERT_LONGVARCHAR_VALUE);
        int bit = SqlSupportsConvert.SQL_CONVERT_BIT_VALUE;
        int date = SqlSupportsConvert.SQL_CONVERT_DATE_VALUE;
        int time = SqlSupportsConvert.SQL_CONVERT_TIME_VALUE;
        int timestamp = SqlSupportsConvert.SQL_CONVERT_TIMESTAMP_VALUE;
        Map<Integer, List<Integer>> conversions = new HashMap<>();
        for (int number : numbers) {
            conversions.put(number, concat(numbers, text));
        }
        for (int from : text) {
            conversions.put(from, concat(numbers, text, List.of(bit, date, time, timestamp)));
        }
        conversions.put(bit, concat(List.of(bit), text));
        conversions.put(date, concat(List.of(date, timestamp), text));
        conversions.put(timestamp, concat(List.of(timestamp, date, time), text));
        conversions.put(time, concat(List.of(time), text));
        return conversions;
    }

    @SafeVarargs
    private static List<Integer> concat(List<Integer>... lists)
    {
        List<Integer> all = new ArrayList<>();
        for (List<Integer> list : lists) {
            all.addAll(list);
        }
        return all;
    }

    private static String arrowVersion()
    {
        String version = org.apache.arrow.vector.VectorSchemaRoot.class.getPackage().getImplementationVersion();
        return version == null ? "18.3.0" : version;
    }
}
