package io.ontul.catalog.iceberg;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

import io.ontul.catalog.iceberg.metadata.IcebergMetadataBatchSource;
import io.ontul.catalog.iceberg.read.IcebergParquetBatchSource;
import io.ontul.catalog.iceberg.read.IcebergSplit;
import io.ontul.catalog.iceberg.read.IcebergSplitPlanner;
import io.ontul.catalog.iceberg.write.IcebergBatchSink;
import io.ontul.catalog.iceberg.write.IcebergRemoteWrite;
import io.ontul.catalog.iceberg.write.IcebergStreamSinkProvider;
import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.SinkWriter;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSinkProvider;

/**
 * Iceberg tables of one catalog: Parquet data files read into Arrow with file and row-group
 * pruning, writes committed as one append per statement, metadata tables and time travel.
 */
public final class IcebergConnector
        implements Connector
{
    private final IcebergConfig config;
    private final ConnectorContext context;
    private final IcebergCatalogSupplier catalog;
    private final IcebergMetadata metadata;

    IcebergConnector(IcebergConfig config, ConnectorContext context)
    {
        this.config = requireNonNull(config, "config is null");
        this.context = requireNonNull(context, "context is null");
        this.catalog = new IcebergCatalogSupplier(config);
        this.metadata = new IcebergMetadata(config, catalog, context.hostAccess());
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return metadata;
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        Object handle = table.connectorHandle();
        if (handle instanceof IcebergMetadataTableHandle metadataTable) {
            return List.of(new IcebergMetadataSplit(metadataTable));
        }
        return IcebergSplitPlanner.splits((IcebergTableHandle) handle, scan, desiredSplits);
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        if (split instanceof IcebergMetadataSplit metadataSplit) {
            return new IcebergMetadataBatchSource(metadataSplit.table(), scan.columns(), allocator);
        }
        IcebergSplit icebergSplit = (IcebergSplit) split;
        return new IcebergParquetBatchSource(icebergSplit.table(), icebergSplit.task(), scan.columns(), allocator, scan.maxBatchRows());
    }

    @Override
    public BatchSink createSink(TableHandle table)
    {
        if (!(table.connectorHandle() instanceof IcebergTableHandle handle)) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Table '%s' is a metadata table and read-only", table.qualifiedName());
        }
        return new IcebergBatchSink(handle, targetFileSize(handle), context.allocator(), context.parallelism(), Optional.empty());
    }

    /** DELETE, UPDATE and MERGE: the table's rows rewritten, one overwrite commit validated against the snapshot the statement read. */
    @Override
    public BatchSink createOverwriteSink(TableHandle table)
    {
        if (!(table.connectorHandle() instanceof IcebergTableHandle handle)) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Table '%s' is a metadata table and read-only", table.qualifiedName());
        }
        return new IcebergBatchSink(handle, targetFileSize(handle), context.allocator(), context.parallelism(), Optional.empty(), true);
    }

    /** A data table reads the same on every node at the snapshot the coordinator planned with ({@link #version}); metadata tables run on the coordinator. */
    @Override
    public boolean readableOnEveryNode(TableHandle table)
    {
        return table.connectorHandle() instanceof IcebergTableHandle;
    }

    /** The snapshot a data table reads: its id, or {@value IcebergMetadata#NO_SNAPSHOT} for a table without data. */
    @Override
    public Optional<String> version(TableHandle table)
    {
        if (!(table.connectorHandle() instanceof IcebergTableHandle handle)) {
            return Optional.empty();
        }
        return Optional.of(handle.snapshot().map(snapshot -> Long.toString(snapshot.snapshotId())).orElse(IcebergMetadata.NO_SNAPSHOT));
    }

    /** The catalog is shared (a warehouse, a catalog service) when every node has the same catalog properties, as a cluster must. */
    @Override
    public boolean sameTablesOnEveryNode()
    {
        return true;
    }

    /** A worker's writer of a statement its coordinator commits ({@link IcebergBatchSink#remoteWriterHandle()}). */
    @Override
    public SinkWriter openSinkWriter(byte[] handle, int writer)
    {
        return IcebergRemoteWrite.fromBytes(handle).open(writer, context.allocator(), context.parallelism());
    }

    /** The table is created by the commit of its rows: one create-table transaction. */
    @Override
    public BatchSink createTableAs(String schema, String table, Schema columns, Map<String, Object> properties)
    {
        IcebergMetadata.PendingTable pending = metadata.beginCreateTable(schema, table, columns, properties);
        return new IcebergBatchSink(pending.handle(), targetFileSize(pending.handle()), context.allocator(), context.parallelism(), Optional.of(pending.transaction()));
    }

    @Override
    public Optional<StreamSinkProvider> streamSinkProvider()
    {
        return Optional.of(new IcebergStreamSinkProvider(this::targetFileSize));
    }

    private long targetFileSize(IcebergTableHandle handle)
    {
        return PropertyUtil.propertyAsLong(handle.table().properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                config.targetFileSize().orElse(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT));
    }

    @Override
    public void close()
    {
        catalog.close();
    }

    /** The one split of a metadata table: Iceberg builds its rows from metadata in one go. */
    record IcebergMetadataSplit(IcebergMetadataTableHandle table)
            implements Split
    {
        IcebergMetadataSplit
        {
            requireNonNull(table, "table is null");
        }

        @Override
        public String describe()
        {
            return "iceberg metadata " + table.qualifiedName();
        }
    }
}
