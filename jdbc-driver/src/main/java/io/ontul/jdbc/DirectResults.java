package io.ontul.jdbc;

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

/**
 * Runs the query of one of Arrow's prepared statements and reads its result with an
 * {@link ArrowResultSet} instead of Arrow's result set: the statement is executed by Arrow's
 * driver (GetFlightInfo on its connection, with its credentials and session), and the result's
 * streams are opened by the same client. Applies to statements without parameters whose
 * columns all have a {@link ColumnReader} (ARRAY, TIMESTAMP WITH TIME ZONE and other types go
 * Arrow's way), and only while Arrow's driver is the version whose client this reaches: its
 * connection hands the client out to its own package only, so the method is looked up once
 * here, and when it is missing every result is Arrow's.
 */
final class DirectResults
{
    private static final Method CLIENT_HANDLER = clientHandlerMethod();

    private DirectResults() {}

    private static Method clientHandlerMethod()
    {
        try {
            Method method = ArrowFlightConnection.class.getDeclaredMethod("getClientHandler");
            method.setAccessible(true);
            return method;
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
        if (CLIENT_HANDLER == null || !(statement instanceof ArrowFlightPreparedStatement arrow)
                || arrow.getParameterMetaData().getParameterCount() > 0) {
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
