package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.VectorGather;

/**
 * A batch that rows of other batches are appended to ({@link VectorGather}), then written out and
 * emptied to be filled again, its buffers kept: a partitioned spill copies each input row once,
 * into the buffer of its partition, instead of into a new slice per input batch and partition
 * that is copied again into one batch at write-out. Its columns are allocated at the first
 * append, for the rows asked for or the more that Arrow's rounding of buffers makes room for
 * ({@link #capacity}); variable-width values grow their buffer as they come
 * ({@link #allocatedBytes} tells). Columns of other kinds than fixed and variable width (lists,
 * structs) are allocated anew after each {@link #clear}. Use: {@link #append} up to
 * {@link #room} rows, {@link #batch} to write them, {@link #clear}; {@link #close} frees it.
 * Not thread-safe.
 */
final class AppendBuffer
        implements AutoCloseable
{
    private final Schema schema;
    private final BufferAllocator allocator;
    private final int rowsAskedFor;
    private int capacity;
    private VectorSchemaRoot root;
    private int rows;

    /** @param rows rows to allocate the columns for, at least */
    AppendBuffer(Schema schema, BufferAllocator allocator, int rows)
    {
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be positive: " + rows);
        }
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.rowsAskedFor = rows;
        this.capacity = rows;
    }

    /** Rows the buffer takes: those asked for, or more once allocated where Arrow rounded every column's buffers up. */
    int capacity()
    {
        return capacity;
    }

    int rows()
    {
        return rows;
    }

    /** Rows that may still be appended before the buffer is full. */
    int room()
    {
        return capacity - rows;
    }

    /**
     * Appends rows {@code rows[from]} to {@code rows[from + count - 1]} of {@code batch} (of this
     * buffer's schema), at most {@link #room} rows.
     *
     * @param hasNulls per column of the batch, whether it may hold NULLs ({@link Batches#hasNulls})
     */
    void append(VectorSchemaRoot batch, boolean[] hasNulls, int[] rows, int from, int count)
    {
        if (count > room()) {
            throw new IllegalArgumentException("appending " + count + " rows to a buffer with room for " + room());
        }
        if (count == 0) {
            return;
        }
        allocate();
        for (int c = 0; c < hasNulls.length; c++) {
            VectorGather.gather(batch.getVector(c), rows, from, count, root.getVector(c), this.rows, hasNulls[c]);
        }
        this.rows += count;
        root.setRowCount(this.rows);
    }

    /** The rows appended since the last {@link #clear}: this buffer's batch, valid until the next append or clear. */
    VectorSchemaRoot batch()
    {
        allocate();
        return root;
    }

    private void allocate()
    {
        if (root != null) {
            return;
        }
        root = Batches.root(schema, Batches.allocate(schema, allocator, rowsAskedFor), 0);
        int rounded = Integer.MAX_VALUE;
        for (FieldVector vector : root.getFieldVectors()) {
            rounded = Math.min(rounded, vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector ? vector.getValueCapacity() : rowsAskedFor);
        }
        // no columns: nothing to round, and a batch still takes at most TARGET_ROWS rows
        capacity = Math.min(Batches.TARGET_ROWS, Math.max(rowsAskedFor, rounded));
    }

    /** Bytes of the buffers allocated (their capacity), 0 when none is. */
    long allocatedBytes()
    {
        if (root == null) {
            return 0;
        }
        long bytes = 0;
        for (FieldVector vector : root.getFieldVectors()) {
            bytes += Batches.allocatedBytes(vector);
        }
        return bytes;
    }

    /** Bytes of the rows held ({@link Batches#bytes}). */
    long bytes()
    {
        return root == null ? 0 : Batches.bytes(root);
    }

    /** Empties the buffer; its columns stay allocated for the next rows. */
    void clear()
    {
        rows = 0;
        if (root == null) {
            return;
        }
        for (FieldVector vector : root.getFieldVectors()) {
            if (!(vector instanceof BaseFixedWidthVector) && !(vector instanceof BaseVariableWidthVector)) {
                // copied cell by cell: such vectors track what they hold, so they start afresh
                close();
                return;
            }
        }
        root.setRowCount(0);
    }

    @Override
    public void close()
    {
        rows = 0;
        capacity = rowsAskedFor;
        if (root != null) {
            root.close();
            root = null;
        }
    }
}
