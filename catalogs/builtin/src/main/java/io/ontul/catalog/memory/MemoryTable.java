package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.ColumnStatistics;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableConstraints;

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
    /** The indexes by name; the unique ones are enforced with the declared keys. */
    private final Map<String, MemoryIndex> indexes = new LinkedHashMap<>();
    /** Per enforced key (declared keys, unique indexes), the values the committed rows hold. */
    private final Map<List<String>, Set<List<Object>>> keyValues = new HashMap<>();
    private volatile long rowCount;
    private volatile List<String> uniqueColumns = List.of();
    /** The committed rows' column statistics: kept to merge the next commit's into, and as the planner reads them. */
    private MemoryTableStatistics statistics;
    private volatile Map<String, ColumnStatistics> columnStatistics = Map.of();
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

    /** Statistics of each column's committed values ({@link MemoryTableStatistics}). */
    public Map<String, ColumnStatistics> columnStatistics()
    {
        return columnStatistics;
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
    synchronized long commit(List<VectorSchemaRoot> incoming, MemoryTableStatistics incomingStatistics)
    {
        long added = incoming.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
        if (dropped) {
            incoming.forEach(VectorSchemaRoot::close);
            throw notFound();
        }
        Map<List<String>, Set<List<Object>>> values;
        try {
            values = checkKeys(keyValues, incoming);
        }
        catch (RuntimeException e) {
            incoming.forEach(VectorSchemaRoot::close);
            throw e;
        }
        List<MemoryBatch> updated = new ArrayList<>(batches);
        merge(incoming).stream().map(MemoryBatch::new).forEach(updated::add);
        batches = List.copyOf(updated);
        keyValues.clear();
        keyValues.putAll(values);
        rowCount += added;
        uniqueColumns = MemoryColumnStatistics.uniqueIntegerColumns(schema(), updated.stream().map(MemoryBatch::root).toList());
        if (statistics == null) {
            statistics = new MemoryTableStatistics(schema);
        }
        statistics.merge(incomingStatistics);
        columnStatistics = statistics.statistics();
        return added;
    }

    /**
     * Replaces the batches {@code expected} with {@code incoming} (which the table now owns) in one
     * step, and returns how many rows they hold; the old batches are freed once their last reader
     * is done.
     *
     * @throws OntulException TRANSACTION_CONFLICT if the table's batches are no longer {@code expected}
     */
    synchronized long replace(List<MemoryBatch> expected, List<VectorSchemaRoot> incoming, MemoryTableStatistics incomingStatistics)
    {
        if (dropped || batches != expected) {
            incoming.forEach(VectorSchemaRoot::close);
            checkNotDropped();
            throw OntulException.userError(ErrorCode.TRANSACTION_CONFLICT,
                    "Table '%s' was written by another statement while this one ran; nothing was changed: run it again", qualifiedName());
        }
        long rows = incoming.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
        Map<List<String>, Set<List<Object>>> values;
        try {
            values = checkKeys(Map.of(), incoming);
        }
        catch (RuntimeException e) {
            incoming.forEach(VectorSchemaRoot::close);
            throw e;
        }
        List<MemoryBatch> updated = merge(incoming).stream().map(MemoryBatch::new).toList();
        batches = updated;
        keyValues.clear();
        keyValues.putAll(values);
        rowCount = rows;
        uniqueColumns = MemoryColumnStatistics.uniqueIntegerColumns(schema(), updated.stream().map(MemoryBatch::root).toList());
        statistics = incomingStatistics;
        columnStatistics = statistics.statistics();
        expected.forEach(MemoryBatch::release);
        return rows;
    }

    /** The keys no two rows may share: the declared ones and those of unique indexes. */
    private List<List<String>> enforcedKeys()
    {
        List<List<String>> keys = new ArrayList<>(TableConstraints.keys(schema));
        indexes.values().stream().filter(MemoryIndex::unique).map(MemoryIndex::columns).filter(key -> !keys.contains(key)).forEach(keys::add);
        return keys;
    }

    /**
     * The values of every enforced key once {@code incoming} joins the rows whose values are
     * {@code committed}; a row with a NULL in a key does not count (as in SQL).
     *
     * @throws OntulException INVALID_ARGUMENT naming the key and the value two rows share
     */
    private Map<List<String>, Set<List<Object>>> checkKeys(Map<List<String>, Set<List<Object>>> committed, List<VectorSchemaRoot> incoming)
    {
        Map<List<String>, Set<List<Object>>> values = new HashMap<>();
        List<List<String>> primary = TableConstraints.primaryKey(schema).map(List::of).orElse(List.of());
        for (List<String> key : enforcedKeys()) {
            Set<List<Object>> seen = new HashSet<>(committed.getOrDefault(key, Set.of()));
            for (VectorSchemaRoot batch : incoming) {
                List<org.apache.arrow.vector.FieldVector> vectors = key.stream().map(batch::getVector).toList();
                for (int row = 0; row < batch.getRowCount(); row++) {
                    List<Object> value = new ArrayList<>(key.size());
                    for (org.apache.arrow.vector.FieldVector vector : vectors) {
                        value.add(vector.isNull(row) ? null : vector.getObject(row));
                    }
                    if (value.contains(null)) {
                        continue;
                    }
                    if (!seen.add(value)) {
                        throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Duplicate key in table '%s': (%s) = (%s) is already there, and %s (%s) allows it once",
                                qualifiedName(), String.join(", ", key), value.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")),
                                primary.contains(key) ? "its PRIMARY KEY" : "its unique key", String.join(", ", key));
                    }
                }
            }
            values.put(key, seen);
        }
        return values;
    }

    synchronized void createIndex(String name, List<String> columns, boolean unique)
    {
        checkNotDropped();
        if (indexes.containsKey(name)) {
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Index '%s' already exists on table '%s'", name, qualifiedName());
        }
        for (String column : columns) {
            if (schema.getFields().stream().noneMatch(field -> field.getName().equals(column))) {
                throw OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s'", column, qualifiedName());
            }
        }
        indexes.put(name, new MemoryIndex(List.copyOf(columns), unique));
        if (unique) {
            try {
                Map<List<String>, Set<List<Object>>> values = checkKeys(Map.of(), batches.stream().map(MemoryBatch::root).toList());
                keyValues.clear();
                keyValues.putAll(values);
            }
            catch (RuntimeException e) {
                indexes.remove(name);
                throw e;
            }
        }
    }

    synchronized void dropIndex(String name)
    {
        checkNotDropped();
        MemoryIndex removed = indexes.remove(name);
        if (removed == null) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Index '%s' does not exist on table '%s'", name, qualifiedName());
        }
        if (removed.unique() && !enforcedKeys().contains(removed.columns())) {
            keyValues.remove(removed.columns());
        }
    }

    private record MemoryIndex(List<String> columns, boolean unique) {}

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
        statistics = null;
        columnStatistics = Map.of();
        current.forEach(MemoryBatch::release);
    }
}
