package io.ontul.jdbc;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.apache.arrow.driver.jdbc.ArrowFlightConnection;
import org.apache.arrow.driver.jdbc.ArrowFlightPreparedStatement;
import org.apache.arrow.driver.jdbc.client.ArrowFlightSqlClientHandler;
import org.apache.arrow.driver.jdbc.client.CloseableEndpointStreamPair;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.driver.jdbc.shaded.org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.arrow.driver.jdbc.shaded.org.apache.calcite.avatica.remote.TypedValue;
import org.apache.arrow.driver.jdbc.utils.AvaticaParameterBinder;

/**
 * Runs the query of one of Arrow's prepared statements and reads its result with an
 * {@link ArrowResultSet} instead of Arrow's result set: the statement is executed by Arrow's
 * driver (GetFlightInfo on its connection, with its credentials and session), and the result's
 * streams are opened by the same client. The parameters set on the statement are bound as
 * Arrow's driver binds them (its {@code AvaticaParameterBinder} over the values it holds).
 * Applies to statements whose columns all have a {@link ColumnReader} (ARRAY, TIMESTAMP WITH
 * TIME ZONE and other types go Arrow's way), and only while Arrow's driver is the version whose
 * internals this reaches: its connection hands the client and allocator out to its own package
 * only, its statement keeps the server's prepared statement private and its parameter values
 * protected, so those are looked up once here, and when one is missing every result is Arrow's.
 */
final class DirectResults
{
    private static final Method CLIENT_HANDLER = method(ArrowFlightConnection.class, "getClientHandler");
    private static final Method ALLOCATOR = method(ArrowFlightConnection.class, "getBufferAllocator");
    private static final Method PARAMETER_VALUES = method(AvaticaPreparedStatement.class, "getParameterValues");
    private static final Field SERVER_STATEMENT = field(ArrowFlightPreparedStatement.class, "preparedStatement");

    private DirectResults() {}

    private static Method method(Class<?> type, String name)
    {
        try {
            Method method = type.getDeclaredMethod(name);
            method.setAccessible(true);
            return method;
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Field field(Class<?> type, String name)
    {
        try {
            Field field = type.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Executes the statement's query and returns its result read directly, or null when the
     * statement is not one this reads (then the caller executes it through Arrow's driver).
     *
     * @param owner what the result's {@code getStatement} returns
     */
    static ResultSet executeQuery(PreparedStatement statement, Statement owner)
            throws SQLException
    {
        if (CLIENT_HANDLER == null || !(statement instanceof ArrowFlightPreparedStatement arrow)) {
            return null;
        }
        boolean parameters = arrow.getParameterMetaData().getParameterCount() > 0;
        if (parameters && (ALLOCATOR == null || PARAMETER_VALUES == null || SERVER_STATEMENT == null)) {
            return null;
        }
        ResultSetMetaData metadata = arrow.getMetaData();
        if (metadata == null || metadata.getColumnCount() == 0) {
            return null;
        }
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            if (!ColumnReader.SUPPORTED_TYPES.contains(metadata.getColumnType(column))) {
                return null;
            }
        }
        ArrowFlightSqlClientHandler client;
        try {
            client = (ArrowFlightSqlClientHandler) CLIENT_HANDLER.invoke(arrow.getConnection());
            if (parameters) {
                // what Arrow's driver does before it executes a statement with parameters
                @SuppressWarnings("unchecked")
                List<TypedValue> values = (List<TypedValue>) PARAMETER_VALUES.invoke(arrow);
                ArrowFlightSqlClientHandler.PreparedStatement serverStatement = (ArrowFlightSqlClientHandler.PreparedStatement) SERVER_STATEMENT.get(arrow);
                new AvaticaParameterBinder(serverStatement, (BufferAllocator) ALLOCATOR.invoke(arrow.getConnection())).bind(values);
            }
        }
        catch (ReflectiveOperationException e) {
            return null;
        }
        long maxRows = arrow.getLargeMaxRows();
        int timeoutSeconds = arrow.getQueryTimeout();
        ResultSetMetaData columns = ResultSetMetaDataHandler.wrap(metadata);
        FlightInfo info = arrow.executeFlightInfoQuery();
        List<CloseableEndpointStreamPair> streams = client.getStreams(info);
        PrefetchedBatches batches = new PrefetchedBatches(streams);
        try {
            return new ArrowResultSet(batches, columns, owner, maxRows, timeoutSeconds);
        }
        catch (SQLException | RuntimeException e) {
            batches.close();
            throw e;
        }
    }
}
