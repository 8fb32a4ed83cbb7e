package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;

/**
 * Exactly-once streaming writes into PostgreSQL tables: {@link JdbcStreamSink}, in upsert mode
 * when the table has a primary key made of columns the engine sees, in append mode otherwise.
 */
final class JdbcStreamSinkProvider
        implements StreamSinkProvider
{
    private final JdbcConfig config;
    private final JdbcDialect dialect;
    private final JdbcErrors errors;
    private final JdbcConnectionPool pool;

    JdbcStreamSinkProvider(JdbcConfig config, JdbcDialect dialect, JdbcErrors errors, JdbcConnectionPool pool)
    {
        this.config = requireNonNull(config, "config is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.errors = requireNonNull(errors, "errors is null");
        this.pool = requireNonNull(pool, "pool is null");
    }

    @Override
    public StreamSink createSink(TableHandle table, String jobId, BufferAllocator allocator)
    {
        if (!(table.connectorHandle() instanceof JdbcTableHandle jdbcTable)) {
            throw OntulException.internal("table '" + table.qualifiedName() + "' is not a table of a jdbc catalog", null);
        }
        return new JdbcStreamSink(pool, dialect, errors, jdbcTable, jobId, config.streamMarkerSchema(), primaryKey(jdbcTable), config.writeBatchSize(), allocator);
    }

    /** The positions of the primary key's columns among the table's columns; empty when there is none or the engine does not see all its columns. */
    private List<Integer> primaryKey(JdbcTableHandle table)
    {
        TreeMap<Integer, String> keyColumns = new TreeMap<>();
        try (Connection connection = pool.connection(); ResultSet keys = connection.getMetaData().getPrimaryKeys(null, table.schema(), table.table())) {
            while (keys.next()) {
                keyColumns.put(keys.getInt("KEY_SEQ"), keys.getString("COLUMN_NAME"));
            }
        }
        catch (SQLException e) {
            throw errors.failure("Cannot read the primary key of table '" + table.qualifiedName() + "'", e);
        }
        List<Integer> positions = new ArrayList<>();
        List<String> names = table.columns().stream().map(JdbcColumn::name).toList();
        for (String name : keyColumns.values()) {
            int position = names.indexOf(name);
            if (position < 0) {
                return List.of();
            }
            positions.add(position);
        }
        return positions;
    }
}
