package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.spi.BatchSink;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * INSERTs the rows of one statement in one database transaction on one connection: batched
 * prepared statements, committed by {@link #commit()} and rolled back by {@link #abort()}, so
 * other sessions see all rows or none. Appends from several threads take turns.
 * <p>
 * An overwriting sink (DELETE, UPDATE and MERGE) opens its transaction at once: it locks the
 * table against other writers where the database can ({@link JdbcDialect#lockAgainstWriters};
 * readers, the statement's own scan among them, go on), deletes every row, inserts the rows
 * appended and commits; other sessions see the old rows until the commit, the new ones after.
 * A table with columns Ontul cannot read is refused: rewriting its rows would lose them.
 */
final class JdbcBatchSink
        implements BatchSink
{
    private static final Logger LOG = LoggerFactory.getLogger(JdbcBatchSink.class);

    private enum State
    {
        OPEN, COMMITTED, ABORTED
    }

    private final JdbcConnectionPool pool;
    private final JdbcErrors errors;
    private final JdbcTableHandle table;
    private final String insertSql;
    private final int batchSize;

    private State state = State.OPEN;
    private Connection connection;
    private PreparedStatement statement;
    private int pendingRows;
    private long rows;

    JdbcBatchSink(JdbcConnectionPool pool, JdbcDialect dialect, JdbcErrors errors, JdbcTableHandle table, int batchSize)
    {
        this(pool, dialect, errors, table, batchSize, false);
    }

    JdbcBatchSink(JdbcConnectionPool pool, JdbcDialect dialect, JdbcErrors errors, JdbcTableHandle table, int batchSize, boolean overwrite)
    {
        this.pool = requireNonNull(pool, "pool is null");
        this.errors = requireNonNull(errors, "errors is null");
        this.table = requireNonNull(table, "table is null");
        this.batchSize = batchSize;
        if (table.columns().isEmpty()) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Table '%s' has no column Ontul can write", table.qualifiedName());
        }
        List<String> names = table.columns().stream().map(column -> dialect.quote(column.name())).toList();
        this.insertSql = "INSERT INTO " + dialect.qualifiedName(table.schema(), table.table()) + " (" + String.join(", ", names) + ") VALUES ("
                + String.join(", ", names.stream().map(name -> "?").toList()) + ")";
        if (overwrite) {
            if (!table.leftOut().isEmpty()) {
                throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Cannot DELETE, UPDATE or MERGE table '%s': it has columns of types Ontul cannot read (%s), whose values would be lost",
                        table.qualifiedName(), String.join(", ", table.leftOut()));
            }
            String qualifiedName = dialect.qualifiedName(table.schema(), table.table());
            try {
                connection = pool.connection();
                connection.setAutoCommit(false);
                try (java.sql.Statement replace = connection.createStatement()) {
                    Optional<String> lock = dialect.lockAgainstWriters(qualifiedName);
                    if (lock.isPresent()) {
                        replace.execute(lock.get());
                    }
                    replace.executeUpdate("DELETE FROM " + qualifiedName);
                }
                statement = connection.prepareStatement(insertSql);
            }
            catch (SQLException e) {
                abort();
                throw errors.failure("Cannot replace the rows of table '" + table.qualifiedName() + "'", e);
            }
        }
    }

    @Override
    public synchronized void append(VectorSchemaRoot batch)
    {
        if (state != State.OPEN) {
            throw OntulException.internal("append to the sink of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(Locale.ROOT), null);
        }
        List<FieldVector> vectors = batch.getFieldVectors();
        if (vectors.size() != table.columns().size()) {
            throw OntulException.internal("batch for table '%s' has %d columns, the table %d".formatted(table.qualifiedName(), vectors.size(), table.columns().size()), null);
        }
        if (batch.getRowCount() == 0) {
            return;
        }
        try {
            if (connection == null) {
                connection = pool.connection();
                connection.setAutoCommit(false);
                statement = connection.prepareStatement(insertSql);
            }
            for (int row = 0; row < batch.getRowCount(); row++) {
                for (int column = 0; column < vectors.size(); column++) {
                    JdbcValueBinding.bind(statement, table, column, VectorValues.value(vectors.get(column), row));
                }
                statement.addBatch();
                pendingRows++;
                if (pendingRows >= batchSize) {
                    flush();
                }
            }
            rows += batch.getRowCount();
        }
        catch (SQLException e) {
            throw errors.failure("Cannot insert into table '" + table.qualifiedName() + "'", e);
        }
    }

    private void flush()
            throws SQLException
    {
        if (pendingRows > 0) {
            statement.executeBatch();
            pendingRows = 0;
        }
    }

    @Override
    public synchronized long commit()
    {
        if (state != State.OPEN) {
            throw OntulException.internal("commit of the sink of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(Locale.ROOT), null);
        }
        if (connection == null) {
            state = State.COMMITTED;
            return 0;
        }
        try {
            flush();
            connection.commit();
            state = State.COMMITTED;
            return rows;
        }
        catch (SQLException e) {
            throw errors.failure("Cannot insert into table '" + table.qualifiedName() + "'", e);
        }
        finally {
            if (state == State.COMMITTED) {
                closeConnection();
            }
        }
    }

    @Override
    public synchronized void abort()
    {
        if (state != State.OPEN) {
            return;
        }
        state = State.ABORTED;
        if (connection != null) {
            try {
                connection.rollback();
            }
            catch (SQLException e) {
                // the database ends the transaction itself when the connection closes
                LOG.warn("Catalog '{}': rollback of the INSERT into {} failed: {}", table.catalogName(), table.qualifiedName(), errors.scrub(String.valueOf(e.getMessage())));
            }
            closeConnection();
        }
    }

    private void closeConnection()
    {
        try {
            if (statement != null) {
                statement.close();
            }
        }
        catch (SQLException e) {
            LOG.debug("Catalog '{}': closing the INSERT statement failed: {}", table.catalogName(), errors.scrub(String.valueOf(e.getMessage())));
        }
        try {
            connection.close();
        }
        catch (SQLException e) {
            LOG.debug("Catalog '{}': closing the connection failed: {}", table.catalogName(), errors.scrub(String.valueOf(e.getMessage())));
        }
        statement = null;
        connection = null;
    }
}
