package io.ontul.catalog.jdbc.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.catalog.jdbc.type.PredicatePushdown;
import io.ontul.catalog.jdbc.type.RemoteColumn;
import io.ontul.catalog.jdbc.type.StandardColumnMappings;
import io.ontul.spi.ColumnPredicate.Operator;

/**
 * MySQL ({@code jdbc:mysql:}) and MariaDB ({@code jdbc:mariadb:}); the driver jar must be on
 * the server's class path. Databases are JDBC catalogs and appear as schemas. Unsigned integers
 * widen to the next type. Text is compared case-insensitively by the usual collations, so only
 * equality, IN and LIKE are pushed, as inexact filters (the engine filters again).
 */
public final class MySqlDialect
        implements JdbcDialect
{
    private static final ColumnTypeNames TYPE_NAMES = new ColumnTypeNames("boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
            "longtext", "date", "time(3)", "datetime(3)", "datetime(6)", "longblob", "char(36)", null);
    private static final Set<String> SYSTEM_SCHEMAS = Set.of("information_schema", "performance_schema", "mysql", "sys");
    private static final PredicatePushdown TEXT_PUSHDOWN = new PredicatePushdown(EnumSet.of(Operator.EQUAL, Operator.IN, Operator.LIKE), false, Optional.empty());

    private final boolean mariaDb;

    public MySqlDialect(boolean mariaDb)
    {
        this.mariaDb = mariaDb;
    }

    @Override
    public String name()
    {
        return mariaDb ? "MariaDB" : "MySQL";
    }

    @Override
    public int defaultPort()
    {
        return 3306;
    }

    @Override
    public String quote(String identifier)
    {
        return '`' + identifier.replace("`", "``") + '`';
    }

    @Override
    public boolean schemasAreCatalogs()
    {
        return true;
    }

    @Override
    public boolean isSystemSchema(String schema)
    {
        return SYSTEM_SCHEMAS.contains(schema.toLowerCase(Locale.ROOT));
    }

    @Override
    public Optional<ColumnMapping> columnMapping(RemoteColumn column)
    {
        String typeName = column.typeName().toUpperCase(Locale.ROOT);
        if (typeName.equals("JSON") || typeName.contains("BLOB") || typeName.contains("BINARY") || typeName.equals("GEOMETRY")) {
            return Optional.empty();
        }
        if (typeName.contains("UNSIGNED")) {
            return Optional.ofNullable(switch (column.jdbcType()) {
                case Types.TINYINT -> StandardColumnMappings.smallint();
                case Types.SMALLINT -> StandardColumnMappings.integer();
                case Types.INTEGER -> StandardColumnMappings.bigint();
                case Types.BIGINT -> StandardColumnMappings.decimal(20, 0);
                case Types.DECIMAL, Types.NUMERIC, Types.REAL, Types.FLOAT, Types.DOUBLE -> StandardColumnMappings.forColumn(column).orElse(null);
                default -> null;
            });
        }
        Optional<ColumnMapping> mapping = StandardColumnMappings.forColumn(column);
        return switch (column.jdbcType()) {
            // TINYINT(1) may hold 2: comparing it with TRUE in the database would drop rows the engine keeps
            case Types.BIT, Types.BOOLEAN -> mapping.map(bool -> bool.withPushdown(PredicatePushdown.nullChecksOnly()));
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR -> mapping.map(text -> text.withPushdown(TEXT_PUSHDOWN));
            default -> mapping;
        };
    }

    @Override
    public String columnType(Field field)
    {
        return TYPE_NAMES.columnType(name(), field);
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
        // MySQL Connector/J streams row by row only with this marker value; MariaDB's driver streams with any fetch size
        statement.setFetchSize(mariaDb ? fetchSize : Integer.MIN_VALUE);
    }

    @Override
    public boolean cancelBeforeEarlyClose()
    {
        return true;
    }

    @Override
    public OptionalLong estimateRowCount(Connection connection, String schema, String table)
            throws SQLException
    {
        String sql = "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND TABLE_TYPE = 'BASE TABLE'";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, schema);
            statement.setString(2, table);
            try (ResultSet resultSet = statement.executeQuery()) {
                if (resultSet.next()) {
                    long rows = resultSet.getLong(1);
                    if (!resultSet.wasNull() && rows >= 0) {
                        return OptionalLong.of(rows);
                    }
                }
            }
        }
        return OptionalLong.empty();
    }

    /** MySQL names an index in its table. */
    @Override
    public String dropIndex(String schema, String table, String index)
    {
        return "DROP INDEX " + quote(index) + " ON " + qualifiedName(schema, table);
    }
}
