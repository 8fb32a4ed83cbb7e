package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.BitSet;
import java.util.Set;

/**
 * A prepared statement of Arrow's driver seen through Ontul's: result sets come wrapped,
 * temporal parameters are bound by {@link TemporalParameters}, numeric ones by
 * {@link NumericParameters}, and {@code getConnection} returns the Ontul connection. A statement
 * executed (or added to a batch) with a parameter that was never set fails with SQLState 07001
 * naming it (Arrow's driver fails with a NullPointerException); an index out of range fails with
 * 07009. Values stay bound across executions until {@code clearParameters}, as JDBC says.
 * <p>
 * Query results are read by {@link DirectResults} (an {@link ArrowResultSet} over the result's
 * Arrow batches) when the statement has no parameters and its columns are ones that reader
 * covers, unless the connection says {@code arrowResults=true}; otherwise by Arrow's driver.
 * Executing again, {@code getMoreResults}, {@code cancel} and {@code close} close the result.
 * <p>
 * Arrow's prepared statements take their result columns from the server's prepare answer,
 * so unlike its plain statements they report the right columns for empty results; Ontul's
 * {@link OntulStatement} therefore runs every statement through one of these.
 */
final class PreparedStatementHandler
        extends ForwardingHandler<PreparedStatement>
{
    /** The setters whose value {@link NumericParameters} converts for a numeric parameter. */
    private static final Set<String> NUMERIC_SETTERS = Set.of("setString", "setNString", "setBigDecimal", "setObject", "setLong", "setInt",
            "setShort", "setByte", "setDouble", "setFloat");

    private final Connection connection;
    private final Statement owner;
    private final boolean directResults;
    // the result DirectResults read for the last execution, if it did, and whether it did
    private volatile ResultSet directResult;
    private boolean directExecution;
    private final BitSet bound = new BitSet();
    private ParameterMetaData parameters;
    // the count of the last execute() of an update, which Arrow's driver reports as a result set
    private long updateCount = -1;

    private PreparedStatementHandler(PreparedStatement delegate, Connection connection, Statement owner, boolean directResults)
    {
        super(delegate);
        this.connection = requireNonNull(connection, "connection is null");
        this.owner = owner;
        this.directResults = directResults;
    }

    /**
     * @param owner the statement result sets report; null for the prepared statement itself
     * @param directResults whether query results are read by {@link DirectResults} where they can be
     */
    static PreparedStatement wrap(PreparedStatement statement, Connection connection, Statement owner, boolean directResults)
    {
        return proxy(PreparedStatement.class, new PreparedStatementHandler(statement, connection, owner, directResults));
    }

    /** Executes the query, reading its result directly when it can; null when Arrow's driver must run it. */
    private ResultSet executeDirectly(Statement statement)
            throws SQLException
    {
        if (!directResults) {
            return null;
        }
        ResultSet result = DirectResults.executeQuery(delegate(), statement);
        directResult = result;
        directExecution = result != null;
        return result;
    }

    private void closeDirectResult()
            throws SQLException
    {
        ResultSet result = directResult;
        directResult = null;
        if (result != null) {
            result.close();
        }
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
        if (name.startsWith("execute") || name.equals("close") || name.equals("cancel") || name.equals("getMoreResults")) {
            closeDirectResult();
        }
        if (name.startsWith("execute") || name.equals("addBatch")) {
            directExecution = false;
        }
        if (name.startsWith("set") && arguments != null && arguments.length >= 2 && arguments[0] instanceof Integer index
                && method.getParameterTypes()[0] == int.class) {
            checkIndex(index);
            bound.set(index);
            if (NUMERIC_SETTERS.contains(name) && NumericParameters.bind(delegate(), parameterType(index), index, name, arguments[1])) {
                return null;
            }
        }
        if ((arguments == null || arguments.length == 0)
                && (name.equals("execute") || name.equals("executeQuery") || name.equals("executeUpdate") || name.equals("executeLargeUpdate") || name.equals("addBatch"))) {
            checkAllBound();
        }
        switch (name) {
            case "getConnection":
                return connection;
            case "clearParameters":
                bound.clear();
                return forward(method, arguments);
            case "execute":
                if (arguments.length == 0 && delegate().getMetaData().getColumnCount() == 0) {
                    updateCount = delegate().executeLargeUpdate();
                    return false;
                }
                if (arguments.length == 0 && executeDirectly(statement) != null) {
                    return true;
                }
                return forward(method, arguments);
            case "getUpdateCount":
                if (directExecution) {
                    return -1;
                }
                return updateCount >= 0 ? (int) Math.min(updateCount, Integer.MAX_VALUE) : forward(method, arguments);
            case "getLargeUpdateCount":
                if (directExecution) {
                    return -1L;
                }
                return updateCount >= 0 ? updateCount : forward(method, arguments);
            case "getMoreResults":
                if (directExecution) {
                    return false;
                }
                if (updateCount >= 0) {
                    updateCount = -1;
                    return false;
                }
                return forward(method, arguments);
            case "getResultSet":
                if (directResult != null) {
                    return directResult;
                }
                return updateCount >= 0 ? null : ResultSetHandler.wrap((ResultSet) forward(method, arguments), statement);
            case "executeQuery":
                if (arguments.length == 0) {
                    ResultSet direct = executeDirectly(statement);
                    if (direct != null) {
                        return direct;
                    }
                }
                return ResultSetHandler.wrap((ResultSet) forward(method, arguments), statement);
            case "getGeneratedKeys":
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
        if (index < 1 || index > parameterCount()) {
            return null;
        }
        return parameters.getParameterTypeName(index);
    }

    private int parameterCount()
            throws SQLException
    {
        if (parameters == null) {
            parameters = delegate().getParameterMetaData();
        }
        return parameters.getParameterCount();
    }

    private void checkIndex(int index)
            throws SQLException
    {
        int count = parameterCount();
        if (index < 1 || index > count) {
            throw new SQLException("Parameter index " + index + " is out of range: the statement has " + (count == 0 ? "no parameters" : count == 1 ? "1 parameter" : count + " parameters"), "07009");
        }
    }

    private void checkAllBound()
            throws SQLException
    {
        int count = parameterCount();
        int unbound = bound.nextClearBit(1);
        if (unbound <= count) {
            throw new SQLException("No value specified for parameter " + unbound + " (of " + count + "): set it, or setNull it", "07001");
        }
    }
}
