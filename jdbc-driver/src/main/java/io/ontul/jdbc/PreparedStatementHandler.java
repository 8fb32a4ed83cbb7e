package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A prepared statement of Arrow's driver seen through Ontul's: result sets come wrapped,
 * temporal parameters are bound by {@link TemporalParameters}, and {@code getConnection}
 * returns the Ontul connection.
 * <p>
 * Arrow's prepared statements take their result columns from the server's prepare answer,
 * so unlike its plain statements they report the right columns for empty results; Ontul's
 * {@link OntulStatement} therefore runs every statement through one of these.
 */
final class PreparedStatementHandler
        extends ForwardingHandler<PreparedStatement>
{
    private final Connection connection;
    private final Statement owner;
    private ParameterMetaData parameters;
    // the count of the last execute() of an update, which Arrow's driver reports as a result set
    private long updateCount = -1;

    private PreparedStatementHandler(PreparedStatement delegate, Connection connection, Statement owner)
    {
        super(delegate);
        this.connection = requireNonNull(connection, "connection is null");
        this.owner = owner;
    }

    /**
     * @param owner the statement result sets report; null for the prepared statement itself
     */
    static PreparedStatement wrap(PreparedStatement statement, Connection connection, Statement owner)
    {
        return proxy(PreparedStatement.class, new PreparedStatementHandler(statement, connection, owner));
    }

    @Override
    protected Object handle(Object proxy, Method method, Object[] arguments)
            throws Throwable
    {
        Statement statement = owner == null ? (Statement) proxy : owner;
        String name = method.getName();
        if (!name.startsWith("get") && !name.startsWith("set") && !name.startsWith("is")) {
            updateCount = -1;
        }
        switch (name) {
            case "getConnection":
                return connection;
            case "execute":
                if (arguments.length == 0 && delegate().getMetaData().getColumnCount() == 0) {
                    updateCount = delegate().executeLargeUpdate();
                    return false;
                }
                return forward(method, arguments);
            case "getUpdateCount":
                return updateCount >= 0 ? (int) Math.min(updateCount, Integer.MAX_VALUE) : forward(method, arguments);
            case "getLargeUpdateCount":
                return updateCount >= 0 ? updateCount : forward(method, arguments);
            case "getMoreResults":
                if (updateCount >= 0) {
                    updateCount = -1;
                    return false;
                }
                return forward(method, arguments);
            case "getResultSet":
                return updateCount >= 0 ? null : ResultSetHandler.wrap((ResultSet) forward(method, arguments), statement);
            case "executeQuery", "getGeneratedKeys":
                return ResultSetHandler.wrap((ResultSet) forward(method, arguments), statement);
            case "setDate", "setTime", "setTimestamp", "setObject":
                if (arguments.length >= 2 && arguments[0] instanceof Integer index
                        && TemporalParameters.bind(delegate(), parameterType(index), method.getName(), arguments)) {
                    return null;
                }
                return forward(method, arguments);
            default:
                return forward(method, arguments);
        }
    }

    private String parameterType(int index)
            throws SQLException
    {
        if (parameters == null) {
            parameters = delegate().getParameterMetaData();
        }
        if (index < 1 || index > parameters.getParameterCount()) {
            return null;
        }
        return parameters.getParameterTypeName(index);
    }
}
