package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;

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
 * Tables held in Arrow batches in the catalog's allocator. Writes become visible at commit; scans
 * read the snapshot of the table at the time they start.
 */
public final class MemoryConnector
        implements Connector
{
    private final BufferAllocator allocator;
    private final MemoryMetadata metadata;

    public MemoryConnector(String catalogName, BufferAllocator allocator)
    {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metadata = new MemoryMetadata(catalogName);
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return metadata;
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        MemoryTable memoryTable = (MemoryTable) table.connectorHandle();
        List<MemoryBatch> batches = memoryTable.snapshot();
        if (batches.isEmpty()) {
            return List.of();
        }
        // contiguous groups of about equal row counts
        int groupCount = Math.min(Math.max(1, desiredSplits), batches.size());
        long totalRows = Math.max(1, batches.stream().mapToLong(MemoryBatch::rowCount).sum());
        List<List<MemoryBatch>> groups = new ArrayList<>(groupCount);
        for (int i = 0; i < groupCount; i++) {
            groups.add(new ArrayList<>());
        }
        long rowsBefore = 0;
        for (MemoryBatch batch : batches) {
            int group = (int) Math.min(groupCount - 1, (rowsBefore + batch.rowCount() / 2) * groupCount / totalRows);
            groups.get(group).add(batch);
            rowsBefore += batch.rowCount();
        }
        groups.removeIf(List::isEmpty);
        List<Split> splits = new ArrayList<>(groups.size());
        for (int i = 0; i < groups.size(); i++) {
            splits.add(new MemorySplit(memoryTable, groups.get(i), i + 1, groups.size()));
        }
        return splits;
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        MemorySplit memorySplit = (MemorySplit) split;
        MemoryTable table = memorySplit.table();
        List<Field> fields = table.schema().getFields();
        int[] columns = new int[scan.columns().size()];
        for (int i = 0; i < columns.length; i++) {
            String name = scan.columns().get(i);
            columns[i] = indexOf(fields, name);
            if (columns[i] < 0) {
                throw OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s'", name, table.qualifiedName());
            }
        }
        return new MemoryBatchSource(memorySplit, columns, allocator);
    }

    @Override
    public BatchSink createSink(TableHandle table)
    {
        return new MemoryBatchSink((MemoryTable) table.connectorHandle(), allocator);
    }

    @Override
    public BatchSink createOverwriteSink(TableHandle table)
    {
        return new MemoryBatchSink((MemoryTable) table.connectorHandle(), allocator, true);
    }

    /** Frees all tables; the allocator belongs to the engine, which closes it. */
    @Override
    public void close()
    {
        metadata.dropAll();
    }

    private static int indexOf(List<Field> fields, String name)
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
