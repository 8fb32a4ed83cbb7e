package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.catalog.jdbc.query.JdbcQuery;
import io.ontul.catalog.jdbc.query.JdbcQueryBuilder;
import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * A database reached through JDBC. Scans send the needed columns, the filters the database
 * evaluates like the engine, and LIMIT (when every filter went along) as one SELECT per split;
 * writes INSERT in one transaction per statement.
 */
public final class JdbcConnector
        implements Connector
{
    private final JdbcConfig config;
    private final JdbcDialect dialect;
    private final JdbcErrors errors;
    private final JdbcConnectionPool pool;
    private final JdbcMetadata metadata;
    private final JdbcQueryBuilder queries;
    private final JdbcSplitPlanner splitPlanner;

    public JdbcConnector(JdbcConfig config, JdbcDialect dialect)
    {
        this.config = requireNonNull(config, "config is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.errors = new JdbcErrors(config, dialect);
        this.pool = new JdbcConnectionPool(config, dialect, errors);
        this.metadata = new JdbcMetadata(config.catalogName(), dialect, pool, errors);
        this.queries = new JdbcQueryBuilder(dialect);
        this.splitPlanner = new JdbcSplitPlanner(config, queries, pool, errors);
    }

    public JdbcDialect dialect()
    {
        return dialect;
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return metadata;
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        return List.copyOf(splitPlanner.splits(jdbcTable(table), scan, desiredSplits));
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        JdbcSplit jdbcSplit = (JdbcSplit) split;
        JdbcTableHandle table = jdbcSplit.table();
        List<JdbcColumn> columns = new ArrayList<>();
        for (String name : scan.columns()) {
            columns.add(table.column(name).orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s'", name, table.qualifiedName())));
        }
        JdbcQueryBuilder.Filter filter = queries.filter(table, scan);
        // the engine sets a limit only when the pushed filters are the whole filter; it holds here
        // only if the database applies every one of them exactly
        OptionalLong limit = filter.complete() ? scan.limit() : OptionalLong.empty();
        JdbcQuery query = columns.isEmpty()
                ? queries.count(table, filter, jdbcSplit.range())
                : queries.select(table, columns, filter, jdbcSplit.range(), limit);
        return new JdbcBatchSource(pool, dialect, errors, table, columns, query, limit, config.fetchSize(), allocator);
    }

    @Override
    public BatchSink createSink(TableHandle table)
    {
        return new JdbcBatchSink(pool, dialect, errors, jdbcTable(table), config.writeBatchSize());
    }

    @Override
    public void close()
    {
        pool.close();
    }

    private static JdbcTableHandle jdbcTable(TableHandle table)
    {
        if (table.connectorHandle() instanceof JdbcTableHandle jdbcTable) {
            return jdbcTable;
        }
        throw OntulException.internal("table '" + table.qualifiedName() + "' is not a table of a jdbc catalog", null);
    }

    /** Never shows the password. */
    @Override
    public String toString()
    {
        return "JdbcConnector{" + config + ", dialect=" + dialect.name() + "}";
    }
}
