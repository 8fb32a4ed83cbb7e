package io.ontul.catalog.tpcds;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.IntStream;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.catalog.tpch.TpchSchemas;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;
import io.trino.tpcds.Scaling;
import io.trino.tpcds.Table;

/**
 * A read-only catalog of the TPC-DS tables, generated on the fly by io.trino.tpcds: nothing is
 * stored; each split generates its chunk of a table (dsdgen's parallel chunks, which together
 * make the whole table) when it is read. Schemas name scale factors as in tpch ({@code tiny} is
 * 0.01, {@code sf1}, {@code sf10}, ...; {@link TpchSchemas}).
 */
public final class TpcdsConnector
        implements Connector
{
    /** Rows (or sales tickets) a split of a large table generates at least: smaller tables are one split. */
    private static final long MIN_ROWS_PER_SPLIT = 1_000;

    private final String catalogName;
    private final ConnectorMetadata metadata;

    public TpcdsConnector(String catalogName)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.metadata = new ConnectorMetadata()
        {
            @Override
            public List<String> listSchemas()
            {
                return TpchSchemas.LISTED;
            }

            @Override
            public List<String> listTables(String schema)
            {
                return TpchSchemas.scaleFactor(schema).isEmpty() ? List.of() : TpcdsTables.ALL.stream().map(Table::getName).sorted().toList();
            }

            @Override
            public Optional<TableHandle> getTable(String schema, String table)
            {
                OptionalDouble scaleFactor = TpchSchemas.scaleFactor(schema);
                if (scaleFactor.isEmpty()) {
                    return Optional.empty();
                }
                return TpcdsTables.byName(table).map(definition -> new TableHandle(catalogName, schema, table, TpcdsTables.schema(definition),
                        new TableStatistics(new Scaling(scaleFactor.getAsDouble()).getRowCount(definition), List.of(TpcdsTables.primaryKey(definition))),
                        new TpcdsSplit(definition, scaleFactor.getAsDouble(), 1, 1)));
            }
        };
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return metadata;
    }

    /** The rows follow from the scale factor: every node generates the same rows for a split. */
    @Override
    public boolean readableOnEveryNode(TableHandle table)
    {
        return true;
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        TpcdsSplit whole = (TpcdsSplit) table.connectorHandle();
        long rows = new Scaling(whole.scaleFactor()).getRowCount(whole.table());
        int chunks = whole.table().isSmall() ? 1 : (int) Math.max(1, Math.min(desiredSplits, rows / MIN_ROWS_PER_SPLIT));
        return IntStream.rangeClosed(1, chunks).mapToObj(chunk -> (Split) new TpcdsSplit(whole.table(), whole.scaleFactor(), chunk, chunks)).toList();
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        TpcdsSplit tpcdsSplit = (TpcdsSplit) split;
        List<Integer> columns = new ArrayList<>();
        for (String name : scan.columns()) {
            io.trino.tpcds.column.Column column = tpcdsSplit.table().getColumn(name);
            if (column == null) {
                throw OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s.tpcds.%s'", name, catalogName, tpcdsSplit.table().getName());
            }
            columns.add(column.getPosition());
        }
        return new TpcdsBatchSource(tpcdsSplit, columns, TpcdsTables.schema(tpcdsSplit.table()), scan.columns(), allocator, Math.min(TpcdsBatchSource.BATCH_SIZE, scan.maxBatchRows()));
    }
}
