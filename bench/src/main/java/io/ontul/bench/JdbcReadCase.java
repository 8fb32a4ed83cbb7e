package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;

/**
 * A query read through a JDBC driver the way an application reads it: every column of every row
 * with the typed getter of its type ({@code getLong}, {@code getInt}, {@code getBigDecimal},
 * {@code getString}, {@code getDate}, {@code getDouble}, {@code getBoolean}; {@code getObject}
 * for others), each value folded into a checksum so no read can be skipped. The first batch time
 * is the time to the first row; bytes and batches are not seen through JDBC (0).
 */
public final class JdbcReadCase
        implements StreamCase
{
    private final String name;
    private final Connection connection;
    private final String sql;
    // keeps the values read observable
    private long checksum;

    public JdbcReadCase(String name, Connection connection, String sql)
    {
        this.name = requireNonNull(name, "name is null");
        this.connection = requireNonNull(connection, "connection is null");
        this.sql = requireNonNull(sql, "sql is null");
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public StreamRun read()
            throws Exception
    {
        long start = System.nanoTime();
        long firstRow = -1;
        long rows = 0;
        long sum = 0;
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            ResultSetMetaData metadata = result.getMetaData();
            int[] types = new int[metadata.getColumnCount()];
            for (int column = 0; column < types.length; column++) {
                types[column] = metadata.getColumnType(column + 1);
            }
            while (result.next()) {
                if (firstRow < 0) {
                    firstRow = System.nanoTime() - start;
                }
                rows++;
                for (int column = 1; column <= types.length; column++) {
                    sum += read(result, column, types[column - 1]);
                }
            }
        }
        checksum += sum;
        long total = System.nanoTime() - start;
        return new StreamRun(total, firstRow < 0 ? total : firstRow, rows, 0, 0);
    }

    private static long read(ResultSet result, int column, int type)
            throws Exception
    {
        switch (type) {
            case Types.BIGINT:
                return result.getLong(column);
            case Types.INTEGER:
            case Types.SMALLINT:
            case Types.TINYINT:
                return result.getInt(column);
            case Types.DECIMAL:
            case Types.NUMERIC: {
                BigDecimal value = result.getBigDecimal(column);
                return value == null ? 0 : value.scale();
            }
            case Types.VARCHAR:
            case Types.CHAR:
            case Types.LONGVARCHAR: {
                String value = result.getString(column);
                return value == null ? 0 : value.length();
            }
            case Types.DATE: {
                Date value = result.getDate(column);
                return value == null ? 0 : value.getTime();
            }
            case Types.DOUBLE:
            case Types.FLOAT:
            case Types.REAL:
                return (long) result.getDouble(column);
            case Types.BOOLEAN:
            case Types.BIT:
                return result.getBoolean(column) ? 1 : 0;
            default: {
                Object value = result.getObject(column);
                return value == null ? 0 : value.hashCode();
            }
        }
    }

    /** What the values read add up to (kept so that no read can be left out). */
    public long checksum()
    {
        return checksum;
    }
}
