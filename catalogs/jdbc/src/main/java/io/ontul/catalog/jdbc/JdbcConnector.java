package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.catalog.jdbc.dialect.PostgreSqlDialect;
import io.ontul.catalog.jdbc.query.AggregateSelect;
import io.ontul.catalog.jdbc.query.JdbcAggregations;
import io.ontul.catalog.jdbc.query.JdbcQuery;
import io.ontul.catalog.jdbc.query.JdbcQueryBuilder;
import io.ontul.catalog.jdbc.query.ResultColumn;
import io.ontul.spi.Aggregation;
import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSinkProvider;

/**
 * A database reached through JDBC. Scans send the needed columns, the filters the database
 * evaluates like the engine, and LIMIT (when every filter went along) as one SELECT per split;
 * an aggregation the database computes as the engine would (see {@link JdbcAggregations}) goes
 * as one SELECT ... GROUP BY in one split. Writes INSERT in one transaction per statement;
 * streaming jobs write PostgreSQL tables exactly once through {@link JdbcStreamSink}.
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
    private final JdbcAggregations aggregations;
    private final JdbcSplitPlanner splitPlanner;
    private final Optional<StreamSinkProvider> streamSinkProvider;

    public JdbcConnector(JdbcConfig config, JdbcDialect dialect)
    {
        this.config = requireNonNull(config, "config is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.errors = new JdbcErrors(config, dialect);
        this.pool = new JdbcConnectionPool(config, dialect, errors);
        this.metadata = new JdbcMetadata(config.catalogName(), dialect, pool, errors);
        this.queries = new JdbcQueryBuilder(dialect);
        this.aggregations = new JdbcAggregations(dialect);
        this.splitPlanner = new JdbcSplitPlanner(config, queries, pool, errors);
        // the commit protocol relies on PostgreSQL's INSERT ... ON CONFLICT
        this.streamSinkProvider = dialect instanceof PostgreSqlDialect
                ? Optional.of(new JdbcStreamSinkProvider(config, dialect, errors, pool))
                : Optional.empty();
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
        if (scan.aggregation().isPresent()) {
            // groups must not repeat across splits: the database aggregates the whole table at once
            return List.of(new JdbcSplit(jdbcTable(table), Optional.empty(), 1, 1));
        }
        return List.copyOf(splitPlanner.splits(jdbcTable(table), scan, desiredSplits));
    }

    @Override
    public boolean supportsAggregation(TableHandle table, ScanSpec scan)
    {
        if (!config.aggregatePushdown() || scan.aggregation().isEmpty()) {
            return false;
        }
        JdbcTableHandle jdbcTable = jdbcTable(table);
        return queries.filter(jdbcTable, scan).complete() && aggregations.plan(jdbcTable, scan.aggregation().get()).isPresent();
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        JdbcSplit jdbcSplit = (JdbcSplit) split;
        JdbcTableHandle table = jdbcSplit.table();
        JdbcQueryBuilder.Filter filter = queries.filter(table, scan);
        if (scan.aggregation().isPresent()) {
            return aggregateSource(table, scan.aggregation().get(), filter, allocator);
        }
        List<JdbcColumn> columns = new ArrayList<>();
        for (String name : scan.columns()) {
            columns.add(table.column(name).orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s'", name, table.qualifiedName())));
        }
        // the engine sets a limit only when the pushed filters are the whole filter; it holds here
        // only if the database applies every one of them exactly
        OptionalLong limit = filter.complete() ? scan.limit() : OptionalLong.empty();
        JdbcQuery query = columns.isEmpty()
                ? queries.count(table, filter, jdbcSplit.range())
                : queries.select(table, columns, filter, jdbcSplit.range(), limit);
        List<ResultColumn> resultColumns = new ArrayList<>();
        for (JdbcColumn column : columns) {
            resultColumns.add(ResultColumn.of(column, resultColumns.size() + 1));
        }
        return new JdbcBatchSource(pool, dialect, errors, table, resultColumns, query, limit, config.fetchSize(), scan.maxBatchRows(), allocator);
    }

    private BatchSource aggregateSource(JdbcTableHandle table, Aggregation aggregation, JdbcQueryBuilder.Filter filter, BufferAllocator allocator)
    {
        Optional<AggregateSelect> select = aggregations.plan(table, aggregation);
        if (select.isEmpty() || !filter.complete()) {
            throw OntulException.internal("the aggregation " + aggregation + " of table '" + table.qualifiedName() + "' was not accepted by the connector", null);
        }
        JdbcQuery query = queries.aggregate(table, select.get(), filter);
        return new JdbcBatchSource(pool, dialect, errors, table, select.get().columns(), query, OptionalLong.empty(), config.fetchSize(), JdbcBatchSource.MAX_BATCH_ROWS, allocator);
    }

    @Override
    public BatchSink createSink(TableHandle table)
    {
        return new JdbcBatchSink(pool, dialect, errors, jdbcTable(table), config.writeBatchSize());
    }

    /** DELETE, UPDATE and MERGE: one transaction that locks out other writers, deletes the rows and inserts the new ones. */
    @Override
    public BatchSink createOverwriteSink(TableHandle table)
    {
        return new JdbcBatchSink(pool, dialect, errors, jdbcTable(table), config.writeBatchSize(), true);
    }

    @Override
    public Optional<StreamSinkProvider> streamSinkProvider()
    {
        return streamSinkProvider;
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
