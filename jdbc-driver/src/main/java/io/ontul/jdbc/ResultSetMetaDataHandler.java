package io.ontul.jdbc;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.sql.ResultSetMetaData;
import java.sql.Types;

/**
 * Result set metadata of Arrow's driver with the column class names it leaves out (null for
 * DATE, TIME and TIMESTAMP among others), named as JDBC's type mapping does.
 */
final class ResultSetMetaDataHandler
        extends ForwardingHandler<ResultSetMetaData>
{
    private ResultSetMetaDataHandler(ResultSetMetaData delegate)
    {
        super(delegate);
    }

    static ResultSetMetaData wrap(ResultSetMetaData metadata)
    {
        if (metadata == null) {
            return null;
        }
        return proxy(ResultSetMetaData.class, new ResultSetMetaDataHandler(metadata));
    }

    @Override
    protected Object handle(Object proxy, Method method, Object[] arguments)
            throws Throwable
    {
        Object result = forward(method, arguments);
        if (result == null && method.getName().equals("getColumnClassName")) {
            return className(delegate().getColumnType((Integer) arguments[0]));
        }
        return result;
    }

    static String className(int sqlType)
    {
        Class<?> type = switch (sqlType) {
            case Types.BOOLEAN, Types.BIT -> Boolean.class;
            case Types.TINYINT -> Byte.class;
            case Types.SMALLINT -> Short.class;
            case Types.INTEGER -> Integer.class;
            case Types.BIGINT -> Long.class;
            case Types.REAL -> Float.class;
            case Types.FLOAT, Types.DOUBLE -> Double.class;
            case Types.DECIMAL, Types.NUMERIC -> BigDecimal.class;
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> String.class;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> byte[].class;
            case Types.DATE -> java.sql.Date.class;
            case Types.TIME -> java.sql.Time.class;
            case Types.TIMESTAMP -> java.sql.Timestamp.class;
            case Types.ARRAY -> java.sql.Array.class;
            default -> Object.class;
        };
        return type.getName();
    }
}
