package io.ontul.catalog.jdbc.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.catalog.jdbc.type.PredicatePushdown;
import io.ontul.catalog.jdbc.type.RemoteColumn;
import io.ontul.catalog.jdbc.type.StandardColumnMappings;
import io.ontul.catalog.jdbc.type.ValueBinders;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnStatistics;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * PostgreSQL ({@code jdbc:postgresql:}). Results are streamed with a cursor, which needs a
 * transaction (autocommit off). Text columns ({@code text}, {@code varchar}, {@code name}) take
 * every predicate; ranges compare in the {@code "C"} collation (code point order, as the engine).
 * Aggregates run in the database (sum of bigint is numeric there: exact, checked against the
 * engine's range when read). One-dimensional arrays of the scalar types mapped here are the
 * engine's ARRAYs both ways ({@code _int4} is {@code ARRAY(INTEGER)}, {@code ARRAY(VARCHAR)} is
 * created as {@code text[]}); PostgreSQL's type does not say how many dimensions a value has, so a
 * multi-dimensional value fails the query when it is read.
 */
public final class PostgreSqlDialect
        implements JdbcDialect
{
    private static final ColumnTypeNames TYPE_NAMES = new ColumnTypeNames("boolean", "smallint", "smallint", "integer", "bigint", "real", "double precision",
            "text", "date", "time(3)", "timestamp(3)", "timestamp(6)", "bytea", "uuid", " with time zone");
    private static final Set<String> TEXT_TYPES = Set.of("text", "varchar", "name");
    private static final Set<String> UNSUPPORTED_TYPES = Set.of("bit", "varbit", "money", "timetz", "interval", "json", "jsonb", "xml");
    private static final PredicatePushdown TEXT_PUSHDOWN = new PredicatePushdown(EnumSet.allOf(Operator.class), true, Optional.of("C"));
    /** The JDBC types of the element types whose arrays ({@code _int4}, ...) are mapped: their elements map as columns of these types do. */
    private static final Map<String, Integer> ARRAY_ELEMENT_TYPES = Map.ofEntries(
            Map.entry("bool", Types.BOOLEAN),
            Map.entry("int2", Types.SMALLINT),
            Map.entry("int4", Types.INTEGER),
            Map.entry("int8", Types.BIGINT),
            Map.entry("float4", Types.REAL),
            Map.entry("float8", Types.DOUBLE),
            Map.entry("numeric", Types.NUMERIC),
            Map.entry("text", Types.VARCHAR),
            Map.entry("varchar", Types.VARCHAR),
            Map.entry("name", Types.VARCHAR),
            Map.entry("bpchar", Types.CHAR),
            Map.entry("date", Types.DATE),
            Map.entry("time", Types.TIME),
            Map.entry("timestamp", Types.TIMESTAMP),
            Map.entry("timestamptz", Types.TIMESTAMP_WITH_TIMEZONE),
            Map.entry("uuid", Types.OTHER),
            Map.entry("bytea", Types.BINARY));

    @Override
    public String name()
    {
        return "PostgreSQL";
    }

    @Override
    public int defaultPort()
    {
        return 5432;
    }

    @Override
    public Optional<String> driverClassName()
    {
        return Optional.of("org.postgresql.Driver");
    }

    @Override
    public Map<String, String> driverProperties()
    {
        // multi-row INSERTs from batches: several times faster for INSERT INTO ... SELECT
        return Map.of("ApplicationName", "ontul", "reWriteBatchedInserts", "true");
    }

    @Override
    public String quote(String identifier)
    {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public boolean isSystemSchema(String schema)
    {
        return schema.equals("pg_catalog") || schema.equals("information_schema") || schema.startsWith("pg_toast") || schema.startsWith("pg_temp_");
    }

    @Override
    public Set<String> tableTypes()
    {
        return Set.of("TABLE", "VIEW", "MATERIALIZED VIEW", "FOREIGN TABLE", "PARTITIONED TABLE");
    }

    @Override
    public Optional<ColumnMapping> columnMapping(RemoteColumn column)
    {
        String typeName = column.typeName().toLowerCase(Locale.ROOT);
        if (UNSUPPORTED_TYPES.contains(typeName)) {
            return Optional.empty();
        }
        if (typeName.startsWith("_")) {
            return arrayMapping(column, typeName.substring(1));
        }
        return switch (typeName) {
            case "bool" -> Optional.of(StandardColumnMappings.bool());
            case "timestamptz" -> Optional.of(StandardColumnMappings.timestampWithTimeZone(column.decimalDigits()));
            // Ontul's UUID (canonical text); comparing with text would need a cast in the database, so only null checks go there
            case "uuid" -> Optional.of(StandardColumnMappings.uuid());
            case "text", "varchar", "name" -> StandardColumnMappings.forColumn(column).map(mapping -> mapping.withPushdown(TEXT_PUSHDOWN));
            default -> StandardColumnMappings.forColumn(column).map(mapping -> isUserDefinedText(column, typeName)
                    // enums and domains over text: written as untyped text the database converts
                    ? mapping.withBinder(ValueBinders.UNTYPED_TEXT)
                    : mapping);
        };
    }

    /**
     * An array of a type {@link #ARRAY_ELEMENT_TYPES} lists, or empty. The driver describes an array
     * column with its element's length, precision and scale ({@code numeric(10,2)[]} has size 10
     * and 2 digits), so the element is mapped as a column of the element type with them.
     */
    private Optional<ColumnMapping> arrayMapping(RemoteColumn column, String elementTypeName)
    {
        Integer elementJdbcType = ARRAY_ELEMENT_TYPES.get(elementTypeName);
        if (elementJdbcType == null) {
            return Optional.empty();
        }
        RemoteColumn element = new RemoteColumn(column.name(), elementJdbcType, elementTypeName, column.columnSize(), column.decimalDigits(), true);
        return columnMapping(element).map(mapping -> StandardColumnMappings.array(mapping, elementTypeName));
    }

    private static boolean isUserDefinedText(RemoteColumn column, String typeName)
    {
        return (column.jdbcType() == Types.VARCHAR || column.jdbcType() == Types.CHAR) && !TEXT_TYPES.contains(typeName) && !typeName.equals("bpchar");
    }

    /** An ARRAY is an array of its element's type ({@code integer[]}); an array of arrays is refused. */
    @Override
    public String columnType(Field field)
    {
        if (field.getType() instanceof ArrowType.List) {
            Field element = field.getChildren().get(0);
            if (element.getType() instanceof ArrowType.List) {
                throw OntulException.userError(ErrorCode.NOT_SUPPORTED,
                        "Column '%s' is an array of arrays, which cannot be stored in %s: only arrays of scalar types are", field.getName(), name());
            }
            // the column's name, so that an element type PostgreSQL cannot hold is reported as the column's
            return TYPE_NAMES.columnType(name(), new Field(field.getName(), element.getFieldType(), null)) + "[]";
        }
        return TYPE_NAMES.columnType(name(), field);
    }

    @Override
    public boolean supportsAggregatePushdown()
    {
        return true;
    }

    @Override
    public Optional<String> limitClause(long limit)
    {
        return Optional.of("LIMIT " + limit);
    }

    @Override
    public void prepareForStreaming(Connection connection, PreparedStatement statement, int fetchSize)
            throws SQLException
    {
        // the driver fetches through a cursor only inside a transaction
        connection.setAutoCommit(false);
        statement.setFetchSize(fetchSize);
    }

    /**
     * From {@code pg_stats}, which ANALYZE (or autovacuum) fills: {@code n_distinct} (negative:
     * a share of the rows), {@code null_frac}, and the smallest and largest of the histogram's
     * bounds and the most common values, for numeric, date and time columns.
     */
    @Override
    public Map<String, ColumnStatistics> columnStatistics(Connection connection, String schema, String table, List<Field> columns, double rowCount)
            throws SQLException
    {
        Map<String, Field> byName = new java.util.HashMap<>();
        columns.forEach(field -> byName.put(field.getName(), field));
        String sql = "SELECT attname, null_frac, n_distinct, histogram_bounds::text, most_common_vals::text FROM pg_catalog.pg_stats "
                + "WHERE schemaname = ? AND tablename = ? AND NOT inherited";
        Map<String, ColumnStatistics> statistics = new java.util.HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, schema);
            statement.setString(2, table);
            try (ResultSet resultSet = statement.executeQuery()) {
                while (resultSet.next()) {
                    Field field = byName.get(resultSet.getString(1));
                    if (field == null) {
                        continue;
                    }
                    double nullFraction = resultSet.getDouble(2);
                    double distinct = resultSet.getDouble(3);
                    if (distinct < 0) {
                        // a share of the rows: the count grows with the table
                        distinct = rowCount >= 0 ? Math.max(1, Math.round(-distinct * rowCount)) : Double.NaN;
                    }
                    else if (distinct == 0) {
                        distinct = Double.NaN;
                    }
                    double[] range = PgStatsValues.range(field, resultSet.getString(4), resultSet.getString(5));
                    statistics.put(field.getName(), new ColumnStatistics(distinct, nullFraction, range[0], range[1]));
                }
            }
        }
        return statistics;
    }

    @Override
    public OptionalLong estimateRowCount(Connection connection, String schema, String table)
            throws SQLException
    {
        // reltuples is -1 for a table never vacuumed or analyzed (PostgreSQL 14+); views have none
        String sql = "SELECT c.reltuples FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p', 'm', 'f')";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, schema);
            statement.setString(2, table);
            try (ResultSet resultSet = statement.executeQuery()) {
                if (resultSet.next()) {
                    double rows = resultSet.getDouble(1);
                    if (rows >= 0) {
                        return OptionalLong.of(Math.round(rows));
                    }
                }
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public String errorMessage(SQLException exception)
    {
        if (exception instanceof PSQLException psqlException && psqlException.getServerErrorMessage() != null) {
            ServerErrorMessage server = psqlException.getServerErrorMessage();
            String message = server.getMessage() == null ? JdbcDialect.super.errorMessage(exception) : server.getMessage();
            return server.getDetail() == null ? message : message + " (" + server.getDetail() + ")";
        }
        return JdbcDialect.super.errorMessage(exception);
    }

    /** SHARE ROW EXCLUSIVE: other sessions read; their INSERT, UPDATE and DELETE wait for the commit. */
    @Override
    public Optional<String> lockAgainstWriters(String qualifiedName)
    {
        return Optional.of("LOCK TABLE " + qualifiedName + " IN SHARE ROW EXCLUSIVE MODE");
    }
}
