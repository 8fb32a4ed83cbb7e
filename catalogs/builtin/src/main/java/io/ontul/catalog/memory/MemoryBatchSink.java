package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.spi.BatchSink;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Copies appended rows into the catalog's allocator and keeps them aside until commit hands them
 * to the {@link MemoryTable} in one step. Copying happens outside the lock, so several threads
 * append in parallel. An overwriting sink (DELETE, UPDATE, MERGE) replaces the rows the table
 * had when it was opened, and fails if another statement committed to the table since.
 */
public final class MemoryBatchSink
        implements BatchSink
{
    private enum State
    {
        OPEN, COMMITTED, ABORTED
    }

    private final MemoryTable table;
    private final BufferAllocator allocator;
    private final List<VectorSchemaRoot> appended = new ArrayList<>();
    /** Column statistics of the appended rows, one per appending thread at a time; merged at commit. */
    private final java.util.concurrent.ConcurrentLinkedQueue<MemoryTableStatistics> statistics = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** The batches an overwriting sink replaces; null for one that appends. */
    private final List<MemoryBatch> replaced;
    private State state = State.OPEN;

    public MemoryBatchSink(MemoryTable table, BufferAllocator allocator)
    {
        this(table, allocator, false);
    }

    /** @param overwrite whether commit replaces the table's rows as they are now instead of adding to them */
    public MemoryBatchSink(MemoryTable table, BufferAllocator allocator, boolean overwrite)
    {
        this.table = requireNonNull(table, "table is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.replaced = overwrite ? table.snapshot() : null;
        table.checkNotDropped();
    }

    @Override
    public void append(VectorSchemaRoot batch)
    {
        checkColumns(batch);
        if (batch.getRowCount() == 0) {
            return;
        }
        VectorSchemaRoot copy;
        try {
            copy = MemoryBatchCopier.copy(batch, table.schema(), allocator);
        }
        catch (OutOfMemoryException e) {
            throw MemoryTable.outOfMemory(table.qualifiedName(), e);
        }
        MemoryTableStatistics summary = statistics.poll();
        if (summary == null) {
            summary = new MemoryTableStatistics(table.schema());
        }
        summary.add(copy);
        statistics.add(summary);
        synchronized (this) {
            if (state != State.OPEN) {
                copy.close();
                throw OntulException.internal("append to the sink of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(), null);
            }
            appended.add(copy);
        }
    }

    @Override
    public synchronized long commit()
    {
        if (state != State.OPEN) {
            throw OntulException.internal("commit of the sink of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(), null);
        }
        state = State.COMMITTED;
        List<VectorSchemaRoot> batches = List.copyOf(appended);
        appended.clear();
        MemoryTableStatistics summary = new MemoryTableStatistics(table.schema());
        statistics.forEach(summary::merge);
        return replaced == null ? table.commit(batches, summary) : table.replace(replaced, batches, summary);
    }

    @Override
    public synchronized void abort()
    {
        if (state != State.OPEN) {
            return;
        }
        state = State.ABORTED;
        appended.forEach(VectorSchemaRoot::close);
        appended.clear();
    }

    private void checkColumns(VectorSchemaRoot batch)
    {
        List<Field> expected = table.schema().getFields();
        List<FieldVector> vectors = batch.getFieldVectors();
        if (vectors.size() != expected.size()) {
            throw OntulException.internal("batch for table '%s' has %d columns, the table %d".formatted(table.qualifiedName(), vectors.size(), expected.size()), null);
        }
        for (int i = 0; i < expected.size(); i++) {
            Field column = expected.get(i);
            FieldVector vector = vectors.get(i);
            if (!sameType(column, vector.getField())) {
                throw OntulException.internal("batch for table '%s' has type %s in column '%s' of type %s".formatted(
                        table.qualifiedName(), vector.getField().getType(), column.getName(), column.getType()), null);
            }
            if (!column.isNullable() && vector.getNullCount() > 0) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "NULL value not allowed for NOT NULL column '%s' of table '%s'", column.getName(), table.qualifiedName());
            }
        }
    }

    private static boolean sameType(Field left, Field right)
    {
        if (!left.getType().equals(right.getType()) || left.getChildren().size() != right.getChildren().size()) {
            return false;
        }
        for (int i = 0; i < left.getChildren().size(); i++) {
            if (!sameType(left.getChildren().get(i), right.getChildren().get(i))) {
                return false;
            }
        }
        return true;
    }
}
