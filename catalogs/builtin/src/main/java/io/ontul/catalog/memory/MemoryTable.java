package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The rows of one memory table: an immutable list of {@link MemoryBatch}es, replaced as a whole
 * (copy on write) by each commit, so a scan reads the snapshot it started with. Drop releases the
 * table's references; batches still being read are freed by their last reader.
 * <p>
 * Batches are never merged across commits: a split planned before a commit must still find every
 * batch of its snapshot. Scans merge runs of small batches instead ({@link MemoryBatchSource}).
 */
public final class MemoryTable
{
    private final String catalogName;
    private final String schemaName;
    private final String tableName;
    private final Schema schema;

    private volatile List<MemoryBatch> batches = List.of();
    private volatile long rowCount;
    private volatile List<String> uniqueColumns = List.of();
    private volatile boolean dropped;

    MemoryTable(String catalogName, String schemaName, String tableName, Schema schema)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.schemaName = requireNonNull(schemaName, "schemaName is null");
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    public String qualifiedName()
    {
        return catalogName + "." + schemaName + "." + tableName;
    }

    public String schemaName()
    {
        return schemaName;
    }

    public String tableName()
    {
        return tableName;
    }

    public Schema schema()
    {
        return schema;
    }

    /** Integer columns found to hold no duplicate and no NULL at the last commit. */
    public List<String> uniqueColumns()
    {
        return uniqueColumns;
    }

    public long rowCount()
    {
        return rowCount;
    }

    /** The committed batches now; throws NOT_FOUND once the table is dropped. */
    List<MemoryBatch> snapshot()
    {
        List<MemoryBatch> current = batches;
        checkNotDropped();
        return current;
    }

    void checkNotDropped()
    {
        if (dropped) {
            throw notFound();
        }
    }

    OntulException notFound()
    {
        return OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s' does not exist", qualifiedName());
    }

    static OntulException outOfMemory(String qualifiedName, OutOfMemoryException e)
    {
        return new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "Not enough memory to store rows of table '" + qualifiedName + "': " + e.getMessage(), e);
    }

    /**
     * Publishes {@code incoming} (which the table now owns) in one step and returns how many rows
     * they hold. Small batches of the commit are merged first. Committed batches are never
     * replaced or changed, so a batch is freed only when the table is dropped and its last reader
     * is done.
     */
    synchronized long commit(List<VectorSchemaRoot> incoming)
    {
        long added = incoming.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
        if (dropped) {
            incoming.forEach(VectorSchemaRoot::close);
            throw notFound();
        }
        List<MemoryBatch> updated = new ArrayList<>(batches);
        merge(incoming).stream().map(MemoryBatch::new).forEach(updated::add);
        batches = List.copyOf(updated);
        rowCount += added;
        uniqueColumns = MemoryColumnStatistics.uniqueIntegerColumns(schema(), updated.stream().map(MemoryBatch::root).toList());
        return added;
    }

    /**
     * Replaces the batches {@code expected} with {@code incoming} (which the table now owns) in one
     * step, and returns how many rows they hold; the old batches are freed once their last reader
     * is done.
     *
     * @throws OntulException TRANSACTION_CONFLICT if the table's batches are no longer {@code expected}
     */
    synchronized long replace(List<MemoryBatch> expected, List<VectorSchemaRoot> incoming)
    {
        if (dropped || batches != expected) {
            incoming.forEach(VectorSchemaRoot::close);
            checkNotDropped();
            throw OntulException.userError(ErrorCode.TRANSACTION_CONFLICT,
                    "Table '%s' was written by another statement while this one ran; nothing was changed: run it again", qualifiedName());
        }
        long rows = incoming.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
        List<MemoryBatch> updated = merge(incoming).stream().map(MemoryBatch::new).toList();
        batches = updated;
        rowCount = rows;
        uniqueColumns = MemoryColumnStatistics.uniqueIntegerColumns(schema(), updated.stream().map(MemoryBatch::root).toList());
        expected.forEach(MemoryBatch::release);
        return rows;
    }

    /** Small batches merged; {@code incoming} is closed. */
    private List<VectorSchemaRoot> merge(List<VectorSchemaRoot> incoming)
    {
        List<VectorSchemaRoot> merged;
        try (MemoryBatchCopier copier = new MemoryBatchCopier()) {
            int next = 0;
            try {
                while (next < incoming.size()) {
                    copier.add(incoming.get(next++));
                }
            }
            finally {
                incoming.subList(next, incoming.size()).forEach(VectorSchemaRoot::close);
            }
            merged = copier.finish();
        }
        catch (OutOfMemoryException e) {
            throw outOfMemory(qualifiedName(), e);
        }
        return merged;
    }

    /** Removes all rows for good; later commits and scans fail with NOT_FOUND. */
    synchronized void drop()
    {
        if (dropped) {
            return;
        }
        dropped = true;
        List<MemoryBatch> current = batches;
        batches = List.of();
        rowCount = 0;
        current.forEach(MemoryBatch::release);
    }
}
