package io.ontul.jdbc;

import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.Calendar;

/**
 * A result set of Arrow's driver seen through Ontul's: it reports the statement that made it,
 * fills in column class names, and reads DATE, TIME and TIMESTAMP columns with
 * {@link TemporalValues} so they never shift with the client's time zone.
 */
final class ResultSetHandler
        extends ForwardingHandler<ResultSet>
{
    private final Statement statement;
    private int[] columnTypes;

    private ResultSetHandler(ResultSet delegate, Statement statement)
    {
        super(delegate);
        this.statement = statement;
    }

    /** @param statement what {@code getStatement} returns: null for metadata result sets */
    static ResultSet wrap(ResultSet result, Statement statement)
    {
        if (result == null) {
            return null;
        }
        return proxy(ResultSet.class, new ResultSetHandler(result, statement));
    }

    @Override
    protected Object handle(Object proxy, Method method, Object[] arguments)
            throws Throwable
    {
        switch (method.getName()) {
            case "getStatement":
                return statement;
            case "getMetaData":
                return ResultSetMetaDataHandler.wrap((ResultSetMetaData) forward(method, arguments));
            case "getDate", "getTime", "getTimestamp", "getObject", "getString":
                int column = column(arguments[0]);
                int type = columnType(column);
                if (TemporalValues.isTemporal(type)) {
                    return temporal(method, arguments, column, type);
                }
                return forward(method, arguments);
            default:
                return forward(method, arguments);
        }
    }

    private Object temporal(Method method, Object[] arguments, int column, int type)
            throws Throwable
    {
        String name = method.getName();
        Object argument = arguments.length > 1 ? arguments[1] : null;
        if (name.equals("getString") && type != Types.TIME) {
            // Arrow renders DATE and TIMESTAMP text without any zone conversion
            return forward(method, arguments);
        }
        if (name.equals("getObject") && argument != null && !(argument instanceof Class<?>)) {
            return forward(method, arguments);
        }
        LocalDateTime value = TemporalValues.read(delegate(), column, type);
        if (value == null) {
            return null;
        }
        Calendar calendar = argument instanceof Calendar given ? given : null;
        return switch (name) {
            case "getDate" -> TemporalValues.date(value, calendar);
            case "getTime" -> TemporalValues.time(value, calendar);
            case "getTimestamp" -> TemporalValues.timestamp(value, calendar);
            case "getString" -> TemporalValues.timeText(value);
            default -> {
                if (argument == null) {
                    yield TemporalValues.object(value, type);
                }
                Object converted = TemporalValues.convert(value, type, (Class<?>) argument);
                yield converted != null ? converted : forward(method, arguments);
            }
        };
    }

    private int column(Object reference)
            throws SQLException
    {
        if (reference instanceof Integer index) {
            return index;
        }
        return delegate().findColumn((String) reference);
    }

    private int columnType(int column)
            throws SQLException
    {
        if (columnTypes == null) {
            ResultSetMetaData metadata = delegate().getMetaData();
            int[] types = new int[metadata.getColumnCount()];
            for (int index = 0; index < types.length; index++) {
                types[index] = metadata.getColumnType(index + 1);
            }
            columnTypes = types;
        }
        return column >= 1 && column <= columnTypes.length ? columnTypes[column - 1] : Types.OTHER;
    }
}
