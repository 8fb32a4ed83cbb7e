package io.ontul.catalog.tpch;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.trino.tpch.TpchEntity;

/**
 * A read-only catalog of TPC-H tables generated on the fly by io.trino.tpch: nothing is stored,
 * each split generates its part of the table when it is read.
 */
public final class TpchConnector
        implements Connector
{
    private final String catalogName;
    private final TpchMetadata metadata;

    public TpchConnector(String catalogName)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.metadata = new TpchMetadata(catalogName);
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return metadata;
    }

    /** The data is generated from the scale factor: every node generates the same rows for a split. */
    @Override
    public boolean readableOnEveryNode(TableHandle table)
    {
        return true;
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        TpchTableHandle handle = (TpchTableHandle) table.connectorHandle();
        int partCount = handle.table().splitCount(handle.scaleFactor(), desiredSplits);
        return IntStream.rangeClosed(1, partCount)
                .mapToObj(part -> (Split) new TpchSplit(handle, part, partCount))
                .toList();
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        TpchSplit tpchSplit = (TpchSplit) split;
        return createSource(tpchSplit, tpchSplit.table().table(), scan.columns(), scan.maxBatchRows(), allocator);
    }

    private <E extends TpchEntity> BatchSource createSource(TpchSplit split, TpchTableDefinition<E> table, List<String> columnNames, int batchSize, BufferAllocator allocator)
    {
        List<TpchColumnDefinition<E>> columns = new ArrayList<>(columnNames.size());
        for (String name : columnNames) {
            columns.add(table.column(name).orElseThrow(() -> OntulException.userError(
                    ErrorCode.NOT_FOUND,
                    "Column '%s' does not exist in table '%s.%s.%s'",
                    name,
                    catalogName,
                    split.table().schema(),
                    table.name())));
        }
        return new TpchBatchSource<>(table, split.table().scaleFactor(), split.part(), split.partCount(), columns, allocator, Math.min(TpchBatchSource.BATCH_SIZE, batchSize));
    }
}
