package io.ontul.engine.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.impl.SqlParserImpl;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.sql.parser.impl.OntulSqlParserImpl;
import io.ontul.engine.testing.ResultRows;

/**
 * The names users write unquoted. Every word Calcite's own parser reserves that SQL:2016 does
 * not (the list is computed here, from Calcite's keywords and the standard's reserved words) is
 * a name in Ontul, but the few kept reserved below, each with its reason; so are the words
 * SQL:2016 reserves that PostgreSQL lets users write as names ({@code ln}, {@code position},
 * {@code result}, {@code language}, {@code running}, ...). Each works as a column of a table, in
 * a query's select list and WHERE, and as a column alias.
 */
class TestReservedWords
{
    /** SQL:2016's reserved words (ISO/IEC 9075-2:2016, as PostgreSQL's documentation lists them). */
    static final Set<String> SQL_2016_RESERVED = Set.of(
            "ABS", "ABSENT", "ACOS", "ALL", "ALLOCATE", "ALTER", "AND", "ANY", "ARE", "ARRAY",
            "ARRAY_AGG", "ARRAY_MAX_CARDINALITY", "AS", "ASENSITIVE", "ASIN", "ASYMMETRIC", "AT", "ATAN", "ATOMIC", "AUTHORIZATION",
            "AVG", "BEGIN", "BEGIN_FRAME", "BEGIN_PARTITION", "BETWEEN", "BIGINT", "BINARY", "BLOB", "BOOLEAN", "BOTH",
            "BY", "CALL", "CALLED", "CARDINALITY", "CASCADED", "CASE", "CAST", "CEIL", "CEILING", "CHAR",
            "CHAR_LENGTH", "CHARACTER", "CHARACTER_LENGTH", "CHECK", "CLASSIFIER", "CLOB", "CLOSE", "COALESCE", "COLLATE", "COLLECT",
            "COLUMN", "COMMIT", "CONDITION", "CONNECT", "CONSTRAINT", "CONTAINS", "CONVERT", "COPY", "CORR", "CORRESPONDING",
            "COS", "COSH", "COUNT", "COVAR_POP", "COVAR_SAMP", "CREATE", "CROSS", "CUBE", "CUME_DIST", "CURRENT",
            "CURRENT_CATALOG", "CURRENT_DATE", "CURRENT_DEFAULT_TRANSFORM_GROUP", "CURRENT_PATH", "CURRENT_ROLE", "CURRENT_ROW", "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP", "CURRENT_TRANSFORM_GROUP_FOR_TYPE",
            "CURRENT_USER", "CURSOR", "CYCLE", "DATE", "DAY", "DEALLOCATE", "DEC", "DECIMAL", "DECFLOAT", "DECLARE",
            "DEFAULT", "DEFINE", "DELETE", "DENSE_RANK", "DEREF", "DESCRIBE", "DETERMINISTIC", "DISCONNECT", "DISTINCT", "DOUBLE",
            "DROP", "DYNAMIC", "EACH", "ELEMENT", "ELSE", "EMPTY", "END", "END_FRAME", "END_PARTITION", "END-EXEC",
            "EQUALS", "ESCAPE", "EVERY", "EXCEPT", "EXEC", "EXECUTE", "EXISTS", "EXP", "EXTERNAL", "EXTRACT",
            "FALSE", "FETCH", "FILTER", "FIRST_VALUE", "FLOAT", "FLOOR", "FOR", "FOREIGN", "FRAME_ROW", "FREE",
            "FROM", "FULL", "FUNCTION", "FUSION", "GET", "GLOBAL", "GRANT", "GROUP", "GROUPING", "GROUPS",
            "HAVING", "HOLD", "HOUR", "IDENTITY", "IN", "INDICATOR", "INITIAL", "INNER", "INOUT", "INSENSITIVE",
            "INSERT", "INT", "INTEGER", "INTERSECT", "INTERSECTION", "INTERVAL", "INTO", "IS", "JOIN", "JSON_ARRAY",
            "JSON_ARRAYAGG", "JSON_EXISTS", "JSON_OBJECT", "JSON_OBJECTAGG", "JSON_QUERY", "JSON_TABLE", "JSON_TABLE_PRIMITIVE", "JSON_VALUE", "LAG", "LANGUAGE",
            "LARGE", "LAST_VALUE", "LATERAL", "LEAD", "LEADING", "LEFT", "LIKE", "LIKE_REGEX", "LISTAGG", "LN",
            "LOCAL", "LOCALTIME", "LOCALTIMESTAMP", "LOG", "LOG10", "LOWER", "MATCH", "MATCH_NUMBER", "MATCH_RECOGNIZE", "MATCHES",
            "MAX", "MEASURES", "MEMBER", "MERGE", "METHOD", "MIN", "MINUTE", "MOD", "MODIFIES", "MODULE",
            "MONTH", "MULTISET", "NATIONAL", "NATURAL", "NCHAR", "NCLOB", "NEW", "NO", "NONE", "NORMALIZE",
            "NOT", "NTH_VALUE", "NTILE", "NULL", "NULLIF", "NUMERIC", "OCTET_LENGTH", "OCCURRENCES_REGEX", "OF", "OFFSET",
            "OLD", "OMIT", "ON", "ONE", "ONLY", "OPEN", "OR", "ORDER", "OUT", "OUTER",
            "OVER", "OVERLAPS", "OVERLAY", "PARAMETER", "PARTITION", "PATTERN", "PER", "PERCENT", "PERCENT_RANK", "PERCENTILE_CONT",
            "PERCENTILE_DISC", "PERIOD", "PERMUTE", "PORTION", "POSITION", "POSITION_REGEX", "POWER", "PRECEDES", "PRECISION", "PREPARE",
            "PRIMARY", "PROCEDURE", "PTF", "RANGE", "RANK", "READS", "REAL", "RECURSIVE", "REF", "REFERENCES",
            "REFERENCING", "REGR_AVGX", "REGR_AVGY", "REGR_COUNT", "REGR_INTERCEPT", "REGR_R2", "REGR_SLOPE", "REGR_SXX", "REGR_SXY", "REGR_SYY",
            "RELEASE", "RESULT", "RETURN", "RETURNS", "REVOKE", "RIGHT", "ROLLBACK", "ROLLUP", "ROW", "ROW_NUMBER",
            "ROWS", "RUNNING", "SAVEPOINT", "SCOPE", "SCROLL", "SEARCH", "SECOND", "SEEK", "SELECT", "SENSITIVE",
            "SESSION_USER", "SET", "SHOW", "SIMILAR", "SIN", "SINH", "SKIP", "SMALLINT", "SOME", "SPECIFIC",
            "SPECIFICTYPE", "SQL", "SQLEXCEPTION", "SQLSTATE", "SQLWARNING", "SQRT", "START", "STATIC", "STDDEV_POP", "STDDEV_SAMP",
            "SUBMULTISET", "SUBSET", "SUBSTRING", "SUBSTRING_REGEX", "SUCCEEDS", "SUM", "SYMMETRIC", "SYSTEM", "SYSTEM_TIME", "SYSTEM_USER",
            "TABLE", "TABLESAMPLE", "TAN", "TANH", "THEN", "TIME", "TIMESTAMP", "TIMEZONE_HOUR", "TIMEZONE_MINUTE", "TO",
            "TRAILING", "TRANSLATE", "TRANSLATE_REGEX", "TRANSLATION", "TREAT", "TRIGGER", "TRIM", "TRIM_ARRAY", "TRUE", "TRUNCATE",
            "UESCAPE", "UNION", "UNIQUE", "UNKNOWN", "UNMATCHED", "UNNEST", "UPDATE", "UPPER", "USER", "USING",
            "VALUE", "VALUES", "VALUE_OF", "VAR_POP", "VAR_SAMP", "VARBINARY", "VARCHAR", "VARYING", "VERSIONING", "WHEN",
            "WHENEVER", "WHERE", "WIDTH_BUCKET", "WINDOW", "WITH", "WITHIN", "WITHOUT", "YEAR");

    /** Words Calcite reserves, SQL:2016 does not, and Ontul keeps reserved, with the reason. */
    static final Map<String, String> KEPT_RESERVED = Map.of(
            "EXPLAIN", "EXPLAIN PLAN FOR query would read EXPLAIN as a name",
            "LIMIT", "FROM t LIMIT 10 would read LIMIT as the alias of t",
            "MEASURE", "expression AS MEASURE declares a measure (Calcite's select list)",
            "MINUS", "SELECT ... MINUS SELECT ... would read MINUS as a column alias",
            "QUALIFY", "FROM t QUALIFY ... would read QUALIFY as the alias of t",
            "BIT", "a type name (CAST(x AS BIT))",
            "TINYINT", "a type name (CAST(x AS TINYINT))");

    /** Words SQL:2016 reserves that PostgreSQL lets users write as names, and so does Ontul. */
    static final List<String> POSTGRES_NAMES = List.of("LN", "RUNNING", "VALUE", "YEAR", "POSITION", "RESULT", "LANGUAGE", "ABS", "AVG", "MIN", "MAX", "SUM",
            "LOWER", "UPPER", "MOD", "POWER", "SQRT", "EXP", "RANK", "START", "ONE", "NO", "NONE", "OPEN", "CLOSE", "OLD", "EVERY", "SHOW",
            "CYCLE", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "COLUMN", "DATA", "STATE", "VERSION", "LEVEL", "PATH", "SIZE", "SPACE");

    @Test
    void everyWordCalciteReservesOutsideSql2016IsAName()
    {
        SqlAbstractParserImpl.Metadata calcite = SqlParserImpl.FACTORY.getParser(new java.io.StringReader("")).getMetadata();
        SqlAbstractParserImpl.Metadata ontul = OntulSqlParserImpl.FACTORY.getParser(new java.io.StringReader("")).getMetadata();
        Set<String> names = new TreeSet<>();
        List<String> stillReserved = new ArrayList<>();
        for (String word : calcite.getTokens()) {
            if (!calcite.isReservedWord(word) || SQL_2016_RESERVED.contains(word) || KEPT_RESERVED.containsKey(word)) {
                continue;
            }
            if (ontul.isReservedWord(word)) {
                stillReserved.add(word);
            }
            names.add(word);
        }
        assertThat(stillReserved).as("words Calcite reserves, SQL:2016 does not, and Ontul still does").isEmpty();
        assertThat(names).as("the list walked").hasSizeGreaterThan(20);
        names.addAll(POSTGRES_NAMES);
        assertNames(names);
    }

    /** A table with one column per word, filled and read back, and each word as an alias. */
    private static void assertNames(Set<String> words)
    {
        List<String> columns = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        List<String> values = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        int i = 0;
        for (String word : words) {
            String name = word.toLowerCase(Locale.ROOT);
            columns.add(name + " INTEGER");
            aliases.add(i + " AS " + name);
            values.add(String.valueOf(i));
            expected.add((long) i);
            i++;
        }
        List<String> names = words.stream().map(word -> word.toLowerCase(Locale.ROOT)).toList();
        try (Engine engine = Engine.createEmbedded()) {
            Session session = engine.createSession("test");
            run(session, "CREATE TABLE memory.default.words (" + String.join(", ", columns) + ")");
            run(session, "INSERT INTO memory.default.words (" + String.join(", ", names) + ") VALUES (" + String.join(", ", values) + ")");
            List<List<Object>> read = run(session, "SELECT " + String.join(", ", names) + " FROM memory.default.words WHERE " + names.get(0) + " = 0 AND " + names.get(names.size() - 1) + " >= 0");
            assertThat(read).hasSize(1);
            assertThat(read.get(0).stream().map(value -> ((Number) value).longValue()).toList()).isEqualTo(expected);
            try (QueryResult result = session.execute("SELECT " + String.join(", ", aliases))) {
                assertThat(result.schema().getFields().stream().map(field -> field.getName()).toList()).isEqualTo(names);
                ResultRows.drain(result);
            }
        }
    }

    private static List<List<Object>> run(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }
}
