package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.BatchSource;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Returns the requested columns of each stored batch of a split without copying the data: the
 * returned vectors are new vectors of the query's allocator that share (reference-count) the
 * stored buffers, the way Arrow's IPC loader shares a record batch's buffers. Closing them leaves
 * the table intact, and dropping the table leaves them valid. Stored batches are never modified
 * after commit, and readers must not modify the returned vectors either. Runs of small stored
 * batches (left by small inserts) are instead copied into one batch of the query's allocator.
 * <p>
 * The source holds a reference on every batch of its split from creation until it has returned it
 * (or is closed), so a concurrent drop frees them only afterwards.
 */
public final class MemoryBatchSource
        implements BatchSource
{
    private final Deque<MemoryBatch> remaining = new ArrayDeque<>();
    private final int[] columns;
    private final List<Field> fields;
    private final Schema schema;
    private final BufferAllocator allocator;

    MemoryBatchSource(MemorySplit split, int[] columns, BufferAllocator allocator)
    {
        requireNonNull(split, "split is null");
        this.columns = requireNonNull(columns, "columns is null").clone();
        this.allocator = requireNonNull(allocator, "allocator is null");
        List<Field> tableFields = split.table().schema().getFields();
        List<Field> projected = new ArrayList<>(columns.length);
        for (int column : columns) {
            projected.add(tableFields.get(column));
        }
        this.fields = List.copyOf(projected);
        this.schema = new Schema(fields);
        for (MemoryBatch batch : split.batches()) {
            if (!batch.tryRetain()) {
                close();
                throw OntulException.userError(ErrorCode.NOT_FOUND, "Table '%s' was dropped while the query was reading it", split.table().qualifiedName());
            }
            remaining.add(batch);
        }
    }

    @Override
    public VectorSchemaRoot next()
    {
        MemoryBatch first = remaining.poll();
        if (first == null) {
            return null;
        }
        try {
            if (MemoryBatchCopier.isSmall(first.rowCount()) && nextIsSmall()) {
                return merge(first);
            }
            return share(first);
        }
        finally {
            first.release();
        }
    }

    private boolean nextIsSmall()
    {
        MemoryBatch next = remaining.peek();
        return next != null && MemoryBatchCopier.isSmall(next.rowCount());
    }

    /** The projected columns of a stored batch, sharing its buffers. */
    private VectorSchemaRoot share(MemoryBatch batch)
    {
        if (columns.length == 0) {
            return new VectorSchemaRoot(List.of(), List.of(), batch.rowCount());
        }
        VectorSchemaRoot result = VectorSchemaRoot.create(schema, allocator);
        try (ArrowRecordBatch shared = new VectorUnloader(view(batch)).getRecordBatch()) {
            new VectorLoader(result).load(shared);
            return result;
        }
        catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
    }

    /** A copy of the projected columns of {@code first} and of the small batches after it. */
    private VectorSchemaRoot merge(MemoryBatch first)
    {
        if (columns.length == 0) {
            int rowCount = first.rowCount();
            while (nextIsSmall() && rowCount + remaining.peek().rowCount() <= MemoryBatchCopier.TARGET_BATCH_ROWS) {
                MemoryBatch batch = remaining.poll();
                rowCount += batch.rowCount();
                batch.release();
            }
            return new VectorSchemaRoot(List.of(), List.of(), rowCount);
        }
        VectorSchemaRoot merged = MemoryBatchCopier.copy(view(first), schema, allocator);
        try {
            while (nextIsSmall() && MemoryBatchCopier.fitsInto(merged, remaining.peek().rowCount())) {
                MemoryBatch batch = remaining.poll();
                try {
                    MemoryBatchCopier.append(merged, view(batch));
                }
                finally {
                    batch.release();
                }
            }
            return merged;
        }
        catch (RuntimeException | Error e) {
            merged.close();
            throw e;
        }
    }

    /** The projected vectors of a stored batch, in a root that owns nothing and is never closed. */
    private VectorSchemaRoot view(MemoryBatch batch)
    {
        VectorSchemaRoot stored = batch.root();
        List<FieldVector> selected = new ArrayList<>(columns.length);
        for (int column : columns) {
            selected.add(stored.getVector(column));
        }
        return new VectorSchemaRoot(fields, selected, stored.getRowCount());
    }

    @Override
    public void close()
    {
        MemoryBatch batch;
        while ((batch = remaining.poll()) != null) {
            batch.release();
        }
    }
}
