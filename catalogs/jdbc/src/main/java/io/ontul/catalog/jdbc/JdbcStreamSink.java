package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.stream.StreamSink;

/**
 * The two-phase sink of a streaming job into a PostgreSQL table. Rows written between barriers
 * stay in the sink, serialized as Arrow IPC streams; {@link #prepareCommit} hands them over as
 * the committable, so they travel in the checkpoint itself and nothing reaches the database
 * before the checkpoint is complete. {@link #commit} then writes, in ONE database transaction,
 * a marker row {@code (job_id, sink, checkpoint_id)} into {@value #MARKER_TABLE} and the rows.
 * <p>
 * Idempotence: the transaction first looks for a marker of the same job and sink with a
 * checkpoint id of at least N (a job commits its checkpoints in order); if there is one, or if
 * the marker insert conflicts with a concurrent commit, it rolls back. Older markers of the job
 * and sink are deleted in the same transaction, so the marker table keeps one row per job and
 * sink. Checkpoints without rows write nothing.
 * <p>
 * Append mode INSERTs every row. When the table has a primary key whose columns the engine
 * sees, the sink upserts ({@code INSERT ... ON CONFLICT (key) DO UPDATE}), keeping the last row
 * per key within a checkpoint.
 */
final class JdbcStreamSink
        implements StreamSink
{
    public static final String MARKER_TABLE = "ontul_stream_commits";

    private static final Logger LOG = LoggerFactory.getLogger(JdbcStreamSink.class);

    private final JdbcConnectionPool pool;
    private final JdbcDialect dialect;
    private final JdbcErrors errors;
    private final JdbcTableHandle table;
    private final String jobId;
    private final String sinkName;
    private final String markerTable;
    private final List<Integer> keyColumns;
    private final String insertSql;
    private final int batchSize;
    private final BufferAllocator allocator;
    private final List<byte[]> pending = new ArrayList<>();
    private boolean markerTableReady;

    /**
     * @param keyColumns the positions in {@code table.columns()} of the primary key, empty for append mode
     */
    JdbcStreamSink(JdbcConnectionPool pool, JdbcDialect dialect, JdbcErrors errors, JdbcTableHandle table, String jobId, String markerSchema, List<Integer> keyColumns,
            int batchSize, BufferAllocator allocator)
    {
        this.pool = requireNonNull(pool, "pool is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.errors = requireNonNull(errors, "errors is null");
        this.table = requireNonNull(table, "table is null");
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.keyColumns = List.copyOf(requireNonNull(keyColumns, "keyColumns is null"));
        this.batchSize = batchSize;
        this.allocator = requireNonNull(allocator, "allocator is null");
        requireNonNull(markerSchema, "markerSchema is null");
        if (table.columns().isEmpty()) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Table '%s' has no column Ontul can write", table.qualifiedName());
        }
        this.sinkName = table.schema() + "." + table.table();
        this.markerTable = dialect.qualifiedName(markerSchema, MARKER_TABLE);
        this.insertSql = insertSql(dialect, table, this.keyColumns);
    }

    private static String insertSql(JdbcDialect dialect, JdbcTableHandle table, List<Integer> keyColumns)
    {
        List<String> names = table.columns().stream().map(column -> dialect.quote(column.name())).toList();
        String sql = "INSERT INTO " + dialect.qualifiedName(table.schema(), table.table()) + " (" + String.join(", ", names) + ") VALUES ("
                + String.join(", ", names.stream().map(name -> "?").toList()) + ")";
        if (keyColumns.isEmpty()) {
            return sql;
        }
        List<String> keys = keyColumns.stream().map(names::get).toList();
        List<String> updates = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!keyColumns.contains(i)) {
                updates.add(names.get(i) + " = EXCLUDED." + names.get(i));
            }
        }
        return sql + " ON CONFLICT (" + String.join(", ", keys) + ") " + (updates.isEmpty() ? "DO NOTHING" : "DO UPDATE SET " + String.join(", ", updates));
    }

    /** Whether the sink upserts on the table's primary key rather than appending. */
    boolean upsert()
    {
        return !keyColumns.isEmpty();
    }

    @Override
    public void write(VectorSchemaRoot batch)
    {
        if (batch.getFieldVectors().size() != table.columns().size()) {
            throw OntulException.internal("batch for table '%s' has %d columns, the table %d".formatted(table.qualifiedName(), batch.getFieldVectors().size(), table.columns().size()), null);
        }
        if (batch.getRowCount() == 0) {
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ArrowStreamWriter writer = new ArrowStreamWriter(batch, null, Channels.newChannel(bytes))) {
            writer.start();
            writer.writeBatch();
            writer.end();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pending.add(bytes.toByteArray());
    }

    /** The committable: empty when nothing was written, else the number of batches, then each batch's Arrow IPC stream with its length. */
    @Override
    public byte[] prepareCommit(long checkpointId)
    {
        if (pending.isEmpty()) {
            return new byte[0];
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(pending.size());
            for (byte[] batch : pending) {
                out.writeInt(batch.length);
                out.write(batch);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pending.clear();
        return bytes.toByteArray();
    }

    @Override
    public void commit(long checkpointId, List<byte[]> committables)
    {
        List<byte[]> batches = new ArrayList<>();
        for (byte[] committable : committables) {
            batches.addAll(batches(committable));
        }
        if (batches.isEmpty()) {
            return;
        }
        String action = "Cannot commit checkpoint " + checkpointId + " of streaming job " + jobId + " into table '" + table.qualifiedName() + "'";
        try (Connection connection = pool.connection()) {
            if (!markerTableReady) {
                createMarkerTable(connection);
                markerTableReady = true;
            }
            connection.setAutoCommit(false);
            try {
                if (claimCheckpoint(connection, checkpointId)) {
                    long rows = insertRows(connection, batches);
                    deleteOlderMarkers(connection, checkpointId);
                    connection.commit();
                    LOG.debug("Committed checkpoint {} of streaming job {}: {} rows into {}", checkpointId, jobId, rows, table.qualifiedName());
                }
                else {
                    connection.rollback();
                    LOG.info("Checkpoint {} of streaming job {} is already in table {}", checkpointId, jobId, table.qualifiedName());
                }
            }
            catch (SQLException | RuntimeException e) {
                rollback(connection);
                throw e;
            }
        }
        catch (SQLException e) {
            throw errors.failure(action, e);
        }
    }

    private void createMarkerTable(Connection connection)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + markerTable
                    + " (job_id text, sink text, checkpoint_id bigint, committed_at timestamptz, PRIMARY KEY (job_id, sink, checkpoint_id))");
        }
    }

    /** Whether this transaction is the one to commit the checkpoint: no marker of it, nor of a later one, exists. */
    private boolean claimCheckpoint(Connection connection, long checkpointId)
            throws SQLException
    {
        try (PreparedStatement statement = connection.prepareStatement("SELECT max(checkpoint_id) FROM " + markerTable + " WHERE job_id = ? AND sink = ?")) {
            statement.setString(1, jobId);
            statement.setString(2, sinkName);
            try (ResultSet resultSet = statement.executeQuery()) {
                resultSet.next();
                long committed = resultSet.getLong(1);
                if (!resultSet.wasNull() && committed >= checkpointId) {
                    return false;
                }
            }
        }
        try (PreparedStatement statement = connection.prepareStatement("INSERT INTO " + markerTable
                + " (job_id, sink, checkpoint_id, committed_at) VALUES (?, ?, ?, now()) ON CONFLICT DO NOTHING")) {
            statement.setString(1, jobId);
            statement.setString(2, sinkName);
            statement.setLong(3, checkpointId);
            return statement.executeUpdate() == 1;
        }
    }

    private void deleteOlderMarkers(Connection connection, long checkpointId)
            throws SQLException
    {
        try (PreparedStatement statement = connection.prepareStatement("DELETE FROM " + markerTable + " WHERE job_id = ? AND sink = ? AND checkpoint_id < ?")) {
            statement.setString(1, jobId);
            statement.setString(2, sinkName);
            statement.setLong(3, checkpointId);
            statement.executeUpdate();
        }
    }

    private long insertRows(Connection connection, List<byte[]> batches)
            throws SQLException
    {
        long rows = 0;
        Map<List<Object>, Object[]> lastByKey = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(insertSql)) {
            int pendingRows = 0;
            for (byte[] batch : batches) {
                try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(batch), allocator)) {
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    while (reader.loadNextBatch()) {
                        List<FieldVector> vectors = root.getFieldVectors();
                        for (int row = 0; row < root.getRowCount(); row++) {
                            Object[] values = new Object[vectors.size()];
                            for (int column = 0; column < values.length; column++) {
                                values[column] = VectorValues.value(vectors.get(column), row);
                            }
                            if (upsert()) {
                                List<Object> key = keyColumns.stream().map(column -> values[column]).toList();
                                lastByKey.remove(key);
                                lastByKey.put(key, values);
                                continue;
                            }
                            bind(statement, values);
                            rows++;
                            if (++pendingRows >= batchSize) {
                                statement.executeBatch();
                                pendingRows = 0;
                            }
                        }
                    }
                }
                catch (IOException e) {
                    throw OntulException.internal("cannot read the rows of a streaming checkpoint for table '" + table.qualifiedName() + "'", e);
                }
            }
            for (Object[] values : lastByKey.values()) {
                bind(statement, values);
                rows++;
                if (++pendingRows >= batchSize) {
                    statement.executeBatch();
                    pendingRows = 0;
                }
            }
            if (pendingRows > 0) {
                statement.executeBatch();
            }
        }
        return rows;
    }

    private void bind(PreparedStatement statement, Object[] values)
            throws SQLException
    {
        for (int column = 0; column < values.length; column++) {
            JdbcValueBinding.bind(statement, table, column, values[column]);
        }
        statement.addBatch();
    }

    private void rollback(Connection connection)
    {
        try {
            connection.rollback();
        }
        catch (SQLException e) {
            // the database ends the transaction itself when the connection closes
            LOG.warn("Catalog '{}': rollback of a streaming commit into {} failed: {}", table.catalogName(), table.qualifiedName(), errors.scrub(String.valueOf(e.getMessage())));
        }
    }

    private static List<byte[]> batches(byte[] committable)
    {
        if (committable.length == 0) {
            return List.of();
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(committable))) {
            int count = in.readInt();
            List<byte[]> batches = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                byte[] batch = new byte[in.readInt()];
                in.readFully(batch);
                batches.add(batch);
            }
            return batches;
        }
        catch (IOException e) {
            throw OntulException.internal("cannot read the rows of a streaming checkpoint", e);
        }
    }

    @Override
    public void abort()
    {
        pending.clear();
    }

    @Override
    public void close()
    {
        abort();
    }
}
