package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.catalog.jdbc.query.JdbcQuery;
import io.ontul.catalog.jdbc.query.ResultColumn;
import io.ontul.catalog.jdbc.type.UnsupportedValueException;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Runs one generated SELECT and copies its rows into Arrow batches. The connection is taken from
 * the pool at the first {@link #next()} and returned as soon as the result is exhausted, or at
 * {@link #close()}, which cancels the statement if it is still running or if the dialect would
 * otherwise read the rest of the result.
 * <p>
 * A scan without columns runs {@code SELECT count(*)} and returns batches of that many rows
 * without vectors. For an aggregation the database computes, a value out of its type's range is a
 * NUMERIC_OVERFLOW, as it would be in the engine.
 */
public final class JdbcBatchSource
        implements BatchSource
{
    private static final Logger LOG = LoggerFactory.getLogger(JdbcBatchSource.class);
    static final int MAX_BATCH_ROWS = 65_536;
    private static final long MAX_BATCH_TEXT_BYTES = 32L << 20;

    private final JdbcConnectionPool pool;
    private final JdbcDialect dialect;
    private final JdbcErrors errors;
    private final JdbcTableHandle table;
    private final List<ResultColumn> columns;
    private final JdbcQuery query;
    private final boolean countOnly;
    private final OptionalLong limit;
    private final int fetchSize;
    private final int batchRows;
    private final BufferAllocator allocator;
    private final Schema schema;

    private Connection connection;
    private volatile PreparedStatement statement;
    private ResultSet resultSet;
    private volatile boolean inDatabaseCall;
    private boolean finished;
    private long rowsReturned;
    private long countedRows = -1;

    JdbcBatchSource(JdbcConnectionPool pool, JdbcDialect dialect, JdbcErrors errors, JdbcTableHandle table, List<ResultColumn> columns, JdbcQuery query,
            OptionalLong limit, int fetchSize, int maxBatchRows, BufferAllocator allocator)
    {
        if (maxBatchRows < 1) {
            throw new IllegalArgumentException("maxBatchRows must be positive: " + maxBatchRows);
        }
        this.batchRows = Math.min(MAX_BATCH_ROWS, maxBatchRows);
        this.pool = requireNonNull(pool, "pool is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.errors = requireNonNull(errors, "errors is null");
        this.table = requireNonNull(table, "table is null");
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.query = requireNonNull(query, "query is null");
        this.countOnly = columns.isEmpty();
        this.limit = requireNonNull(limit, "limit is null");
        this.fetchSize = fetchSize;
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.schema = new Schema(columns.stream().map(ResultColumn::field).toList());
    }

    /** The statement this source runs (or ran): SQL text with {@code ?} and the bound values. */
    public JdbcQuery query()
    {
        return query;
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (finished) {
            return null;
        }
        try {
            if (resultSet == null) {
                execute();
            }
            return countOnly ? nextCountBatch() : nextBatch();
        }
        catch (SQLException e) {
            close();
            if ("22003".equals(e.getSQLState())) {
                // numeric_value_out_of_range: only computed values (sums) leave their type's range
                throw new OntulException(ErrorCode.NUMERIC_OVERFLOW, errors.scrub("Numeric overflow reading table '%s': %s (%s)".formatted(
                        table.qualifiedName(), dialect.errorMessage(e), errors.server())), e);
            }
            throw errors.failure("Cannot read table '" + table.qualifiedName() + "'", e);
        }
        catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void execute()
            throws SQLException
    {
        connection = pool.connection();
        statement = connection.prepareStatement(query.sql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        dialect.prepareForStreaming(connection, statement, fetchSize);
        if (limit.isPresent() && dialect.limitClause(limit.getAsLong()).isEmpty() && limit.getAsLong() <= Integer.MAX_VALUE) {
            statement.setMaxRows((int) limit.getAsLong());
        }
        query.bind(statement);
        LOG.debug("Catalog '{}': {}", table.catalogName(), query.sql());
        inDatabaseCall = true;
        try {
            resultSet = statement.executeQuery();
        }
        finally {
            inDatabaseCall = false;
        }
    }

    private VectorSchemaRoot nextCountBatch()
            throws SQLException
    {
        if (countedRows < 0) {
            resultSet.next();
            countedRows = resultSet.getLong(1);
            if (limit.isPresent()) {
                countedRows = Math.min(countedRows, limit.getAsLong());
            }
            release(true);
        }
        long rows = Math.min(batchRows, countedRows - rowsReturned);
        if (rows <= 0) {
            finished = true;
            return null;
        }
        rowsReturned += rows;
        return new VectorSchemaRoot(List.of(), List.of(), (int) rows);
    }

    private VectorSchemaRoot nextBatch()
            throws SQLException
    {
        long rowLimit = limit.isPresent() ? Math.min(batchRows, limit.getAsLong() - rowsReturned) : batchRows;
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
        try {
            List<FieldVector> vectors = batch.getFieldVectors();
            vectors.forEach(FieldVector::allocateNew);
            int rows = 0;
            boolean exhausted = rowLimit <= 0;
            while (!exhausted && rows < rowLimit) {
                inDatabaseCall = true;
                boolean hasRow;
                try {
                    hasRow = resultSet.next();
                }
                finally {
                    inDatabaseCall = false;
                }
                if (!hasRow) {
                    exhausted = true;
                    break;
                }
                for (int column = 0; column < vectors.size(); column++) {
                    readValue(column, vectors.get(column), rows);
                }
                rows++;
                if ((rows & 1023) == 0 && textBytes(vectors) > MAX_BATCH_TEXT_BYTES) {
                    break;
                }
            }
            rowsReturned += rows;
            if (exhausted || (limit.isPresent() && rowsReturned >= limit.getAsLong())) {
                release(exhausted);
                finished = true;
            }
            if (rows == 0) {
                batch.close();
                return null;
            }
            batch.setRowCount(rows);
            return batch;
        }
        catch (SQLException | RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    private void readValue(int column, FieldVector vector, int row)
            throws SQLException
    {
        ResultColumn resultColumn = columns.get(column);
        try {
            resultColumn.reader().read(resultSet, resultColumn.index(), vector, row);
        }
        catch (ArithmeticException e) {
            throw new OntulException(ErrorCode.NUMERIC_OVERFLOW, "Cannot read column '%s' of table '%s': %s".formatted(resultColumn.name(), table.qualifiedName(), e.getMessage()), e);
        }
        catch (UnsupportedValueException e) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "Cannot read column '%s' of table '%s': %s".formatted(resultColumn.name(), table.qualifiedName(), e.getMessage()), e);
        }
        catch (SQLException e) {
            // a value the driver cannot convert (PostgreSQL's NaN numeric, say) is not a connection problem
            if (e.getSQLState() == null || !e.getSQLState().startsWith("08")) {
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, errors.scrub("Cannot read column '%s' of table '%s': %s".formatted(
                        resultColumn.name(), table.qualifiedName(), dialect.errorMessage(e))), e);
            }
            throw e;
        }
    }

    /** The bytes the variable-width vectors hold, and the elements of arrays (a row may hold many of any type). */
    private static long textBytes(List<FieldVector> vectors)
    {
        long bytes = 0;
        for (FieldVector vector : vectors) {
            if (vector instanceof BaseVariableWidthVector variableWidth) {
                bytes += variableWidth.getDataBuffer().capacity();
            }
            else if (vector instanceof ListVector list) {
                bytes += list.getDataVector().getDataBuffer().capacity();
            }
        }
        return bytes;
    }

    /**
     * Closes the statement and returns the connection. Unless the result was read to its end,
     * the statement is cancelled first when the database is still working on it or when closing
     * would otherwise read the rest.
     */
    private void release(boolean exhausted)
    {
        if (statement != null && !exhausted && (inDatabaseCall || dialect.cancelBeforeEarlyClose())) {
            try {
                statement.cancel();
            }
            catch (SQLException | RuntimeException e) {
                LOG.debug("Catalog '{}': cancel failed: {}", table.catalogName(), errors.scrub(String.valueOf(e.getMessage())));
            }
        }
        closeQuietly(resultSet);
        closeQuietly(statement);
        resultSet = null;
        statement = null;
        if (connection != null) {
            try {
                if (!connection.getAutoCommit()) {
                    // a read-only transaction: nothing to keep
                    connection.rollback();
                }
            }
            catch (SQLException e) {
                LOG.debug("Catalog '{}': rollback after read failed: {}", table.catalogName(), errors.scrub(String.valueOf(e.getMessage())));
            }
            closeQuietly(connection);
            connection = null;
        }
    }

    /**
     * Cancels the statement the database is working on, from the thread that cancels the query:
     * the blocked {@link #next()} then fails, and a killed query frees its connection at once
     * instead of when the database finishes.
     */
    @Override
    public void cancel()
    {
        PreparedStatement running = statement;
        if (running != null && inDatabaseCall) {
            try {
                running.cancel();
            }
            catch (SQLException | RuntimeException e) {
                LOG.debug("Catalog '{}': cancel failed: {}", table.catalogName(), errors.scrub(String.valueOf(e.getMessage())));
            }
        }
    }

    @Override
    public void close()
    {
        finished = true;
        release(false);
    }

    private void closeQuietly(AutoCloseable closeable)
    {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        }
        catch (Exception e) {
            LOG.debug("Catalog '{}': close failed: {}", table.catalogName(), errors.scrub(String.valueOf(e.getMessage())));
        }
    }

    @Override
    public String toString()
    {
        return "JdbcBatchSource{" + table.qualifiedName() + ": " + query.sql() + "}";
    }
}
