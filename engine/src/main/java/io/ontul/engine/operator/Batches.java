package io.ontul.engine.operator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.VectorAppender;


/** Creating and assembling batches. */
public final class Batches
{
    /** Target rows per batch produced by operators that build their own output. */
    public static final int TARGET_ROWS = 32 * 1024;

    private Batches() {}

    /** New vectors for {@code schema}, each allocated for {@code capacity} rows. */
    public static FieldVector[] allocate(Schema schema, BufferAllocator allocator, int capacity)
    {
        List<Field> fields = schema.getFields();
        FieldVector[] vectors = new FieldVector[fields.size()];
        try {
            for (int i = 0; i < vectors.length; i++) {
                vectors[i] = fields.get(i).createVector(allocator);
                allocate(vectors[i], capacity);
            }
        }
        catch (RuntimeException e) {
            closeAll(Arrays.asList(vectors));
            throw e;
        }
        return vectors;
    }

    public static void allocate(FieldVector vector, int capacity)
    {
        if (vector instanceof BaseFixedWidthVector fixed) {
            fixed.allocateNew(Math.max(capacity, 1));
        }
        else if (vector instanceof BaseVariableWidthVector variable) {
            variable.allocateNew(Math.max(capacity, 1) * 16L, Math.max(capacity, 1));
        }
        else {
            vector.setInitialCapacity(Math.max(capacity, 1));
            vector.allocateNew();
        }
    }

    public static VectorSchemaRoot root(FieldVector[] vectors, int rowCount)
    {
        List<FieldVector> list = new ArrayList<>(vectors.length);
        for (FieldVector vector : vectors) {
            vector.setValueCount(rowCount);
            list.add(vector);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(list);
        root.setRowCount(rowCount);
        return root;
    }

    /** Root with the given schema (field names and types) over the vectors. */
    public static VectorSchemaRoot root(Schema schema, FieldVector[] vectors, int rowCount)
    {
        List<FieldVector> list = new ArrayList<>(vectors.length);
        for (FieldVector vector : vectors) {
            vector.setValueCount(rowCount);
            list.add(vector);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(schema.getFields(), list, rowCount);
        root.setRowCount(rowCount);
        return root;
    }

    /** For each column of {@code batch}, whether it holds a NULL (for {@link #gather}). */
    public static boolean[] hasNulls(VectorSchemaRoot batch)
    {
        boolean[] hasNulls = new boolean[batch.getFieldVectors().size()];
        for (int c = 0; c < hasNulls.length; c++) {
            hasNulls[c] = batch.getVector(c).getNullCount() > 0;
        }
        return hasNulls;
    }

    /**
     * A new batch (of {@code allocator}) of the rows {@code rows[0..count)} of {@code batch}, in
     * that order, copied with {@link VectorGather}.
     *
     * @param hasNulls per column, whether it may hold NULLs ({@link #hasNulls})
     */
    public static VectorSchemaRoot gather(VectorSchemaRoot batch, int[] rows, int count, boolean[] hasNulls, BufferAllocator allocator)
    {
        Schema schema = batch.getSchema();
        FieldVector[] vectors = allocate(schema, allocator, count);
        try {
            for (int c = 0; c < vectors.length; c++) {
                VectorGather.gather(batch.getVector(c), rows, count, vectors[c], hasNulls[c]);
            }
        }
        catch (RuntimeException e) {
            for (FieldVector vector : vectors) {
                vector.close();
            }
            throw e;
        }
        return root(schema, vectors, count);
    }

    /**
     * The buffers of {@code batch} moved (not copied) into a new batch accounted to
     * {@code allocator}, which its taker owns; {@code batch} is left empty.
     */
    public static VectorSchemaRoot transfer(VectorSchemaRoot batch, BufferAllocator allocator)
    {
        List<FieldVector> moved = new ArrayList<>();
        for (FieldVector vector : batch.getFieldVectors()) {
            org.apache.arrow.vector.util.TransferPair pair = vector.getTransferPair(allocator);
            pair.transfer();
            moved.add((FieldVector) pair.getTo());
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), moved, batch.getRowCount());
    }

    /**
     * Splits {@code batch} by {@code partitionOf} (a partition in {@code [0, partitions)} per row,
     * or -1 to drop the row): new batches of {@code allocator}, rows in their order, null for a
     * partition without rows. The caller keeps {@code batch}.
     */
    public static VectorSchemaRoot[] scatter(VectorSchemaRoot batch, int[] partitionOf, int partitions, BufferAllocator allocator)
    {
        int count = batch.getRowCount();
        int[] sizes = new int[partitions];
        for (int row = 0; row < count; row++) {
            if (partitionOf[row] >= 0) {
                sizes[partitionOf[row]]++;
            }
        }
        int[][] members = new int[partitions][];
        for (int p = 0; p < partitions; p++) {
            members[p] = new int[sizes[p]];
        }
        int[] filled = new int[partitions];
        for (int row = 0; row < count; row++) {
            int partition = partitionOf[row];
            if (partition >= 0) {
                members[partition][filled[partition]++] = row;
            }
        }
        boolean[] hasNulls = hasNulls(batch);
        VectorSchemaRoot[] slices = new VectorSchemaRoot[partitions];
        try {
            for (int p = 0; p < partitions; p++) {
                if (sizes[p] > 0) {
                    slices[p] = gather(batch, members[p], sizes[p], hasNulls, allocator);
                }
            }
        }
        catch (RuntimeException e) {
            for (VectorSchemaRoot slice : slices) {
                if (slice != null) {
                    slice.close();
                }
            }
            throw e;
        }
        return slices;
    }

    /**
     * One new batch (of {@code allocator}) of the rows of {@code batches}, in order, each
     * fixed- or variable-width column allocated once for all of them (Arrow rounds it up to a
     * power of two; other kinds grow as they are appended to); the batches stay the caller's.
     */
    public static VectorSchemaRoot concat(Schema schema, List<VectorSchemaRoot> batches, BufferAllocator allocator)
    {
        return concat(schema, batches, allocator, false);
    }

    /**
     * As {@link #concat(Schema, List, BufferAllocator)}, but clears each column of the batches
     * as soon as it is copied: where the columns own their buffers, at most one column is held
     * twice (columns of a batch read from a spill file share one buffer, freed with the last of
     * them). The emptied batches are still the caller's to close.
     */
    public static VectorSchemaRoot concatReleasing(Schema schema, List<VectorSchemaRoot> batches, BufferAllocator allocator)
    {
        return concat(schema, batches, allocator, true);
    }

    private static VectorSchemaRoot concat(Schema schema, List<VectorSchemaRoot> batches, BufferAllocator allocator, boolean release)
    {
        List<Field> fields = schema.getFields();
        FieldVector[] vectors = new FieldVector[fields.size()];
        int rows = 0;
        long[] valueBytes = new long[fields.size()];
        for (VectorSchemaRoot batch : batches) {
            rows += batch.getRowCount();
            addValueBytes(batch, valueBytes);
        }
        try {
            for (int c = 0; c < vectors.length; c++) {
                vectors[c] = fields.get(c).createVector(allocator);
                if (!allocateExactly(vectors[c], rows, valueBytes[c])) {
                    // nested, large or view types grow as they are appended to
                    allocate(vectors[c], rows);
                }
                VectorAppender appender = new VectorAppender(vectors[c]);
                for (VectorSchemaRoot batch : batches) {
                    FieldVector source = batch.getVector(c);
                    source.accept(appender, null);
                    if (release) {
                        source.clear();
                    }
                }
            }
        }
        catch (RuntimeException e) {
            closeAll(Arrays.asList(vectors));
            throw e;
        }
        return root(schema, vectors, rows);
    }

    /** Adds, by column, the bytes of values of the batch's variable-width columns to {@code valueBytes}. */
    public static void addValueBytes(VectorSchemaRoot batch, long[] valueBytes)
    {
        for (int c = 0; c < valueBytes.length; c++) {
            if (batch.getVector(c) instanceof BaseVariableWidthVector variable) {
                valueBytes[c] += variable.sizeOfValueBuffer();
            }
        }
    }

    /**
     * Appends {@code first} (may be null) and then every batch {@code rest} returns to
     * {@code whole}, allocated for all their rows ({@link #allocateForAppending}), closing each
     * once appended, and sets the row count of {@code whole}. Checks for cancellation between
     * batches.
     */
    public static void appendAll(VectorSchemaRoot whole, VectorSchemaRoot first, Operator rest, OperatorContext context)
    {
        VectorAppender[] appenders = new VectorAppender[whole.getFieldVectors().size()];
        for (int c = 0; c < appenders.length; c++) {
            appenders[c] = new VectorAppender(whole.getVector(c));
        }
        int rows = 0;
        VectorSchemaRoot next = first != null ? first : rest.next();
        while (next != null) {
            try (VectorSchemaRoot batch = next) {
                next = null;
                for (int c = 0; c < appenders.length; c++) {
                    batch.getVector(c).accept(appenders[c], null);
                }
                rows += batch.getRowCount();
            }
            context.checkCancelled();
            next = rest.next();
        }
        whole.setRowCount(rows);
    }

    /**
     * An empty batch of {@code schema} allocated for {@code rows} rows, each variable-width
     * column c for {@code valueBytes[c]} bytes of values, so that appending that many rows
     * ({@link VectorAppender}) never reallocates; empty when a column is of another kind
     * (nested, large or view types), whose size cannot be told up front.
     */
    public static Optional<VectorSchemaRoot> allocateForAppending(Schema schema, int rows, long[] valueBytes, BufferAllocator allocator)
    {
        List<Field> fields = schema.getFields();
        FieldVector[] vectors = new FieldVector[fields.size()];
        try {
            for (int c = 0; c < vectors.length; c++) {
                vectors[c] = fields.get(c).createVector(allocator);
                if (!allocateExactly(vectors[c], rows, c < valueBytes.length ? valueBytes[c] : 0)) {
                    closeAll(Arrays.asList(vectors));
                    return Optional.empty();
                }
            }
        }
        catch (RuntimeException e) {
            closeAll(Arrays.asList(vectors));
            throw e;
        }
        return Optional.of(new VectorSchemaRoot(fields, List.of(vectors), 0));
    }

    /**
     * Allocates a fixed-width vector for {@code rows} values, or a variable-width one for
     * {@code rows} values of {@code valueBytes} bytes in all; false, allocating nothing, for
     * other kinds of vector.
     */
    private static boolean allocateExactly(FieldVector vector, int rows, long valueBytes)
    {
        if (vector instanceof BaseFixedWidthVector fixed) {
            fixed.allocateNew(Math.max(rows, 1));
            return true;
        }
        if (vector instanceof BaseVariableWidthVector variable) {
            variable.allocateNew(Math.max(valueBytes, 1), Math.max(rows, 1));
            return true;
        }
        return false;
    }


    /**
     * Bytes of a vector's buffers as allocated, also while it is being filled: the capacity of its
     * validity, offset and data buffers ({@code getBufferSize} counts only up to the value count,
     * 0 before it is set). Nested vectors (lists, structs) count their buffers up to their value
     * count, with their children. Reads the buffers without {@code getFieldBuffers}, which would
     * reset a variable-width vector's last written index to its value count and so corrupt one
     * being filled.
     */
    public static long allocatedBytes(FieldVector vector)
    {
        if (vector instanceof BaseFixedWidthVector fixed) {
            return fixed.getValidityBuffer().capacity() + fixed.getDataBuffer().capacity();
        }
        if (vector instanceof BaseVariableWidthVector variable) {
            return variable.getValidityBuffer().capacity() + variable.getOffsetBuffer().capacity() + variable.getDataBuffer().capacity();
        }
        if (vector instanceof BaseLargeVariableWidthVector variable) {
            return variable.getValidityBuffer().capacity() + variable.getOffsetBuffer().capacity() + variable.getDataBuffer().capacity();
        }
        return vector.getBufferSize();
    }

    /**
     * Bytes the allocator accounts for the batches' buffers: what they really take, each buffer
     * rounded up as Arrow allocates, a buffer shared by several vectors (slices of one IPC
     * message body) counted once.
     */
    public static long allocatedBytes(List<VectorSchemaRoot> batches)
    {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        long bytes = 0;
        for (VectorSchemaRoot batch : batches) {
            for (FieldVector vector : batch.getFieldVectors()) {
                for (ArrowBuf buffer : vector.getFieldBuffers()) {
                    var manager = buffer.getReferenceManager();
                    if (buffer.capacity() > 0 && seen.add(manager)) {
                        bytes += manager.getAccountedSize();
                    }
                }
            }
        }
        return bytes;
    }

    /**
     * Bytes a row of {@code schema} takes in Arrow buffers, as far as its types tell: fixed
     * widths as they are, strings and binaries counted as 24 bytes of data plus their offset,
     * nested and other types as 16; each with its validity bit rounded up to a byte.
     */
    public static long estimatedRowBytes(Schema schema)
    {
        long bytes = 0;
        for (Field field : schema.getFields()) {
            bytes += 1 + switch (field.getType().getTypeID()) {
                case Int -> ((ArrowType.Int) field.getType()).getBitWidth() / 8;
                case FloatingPoint -> ((ArrowType.FloatingPoint) field.getType()).getPrecision() == FloatingPointPrecision.DOUBLE ? 8 : 4;
                case Decimal -> ((ArrowType.Decimal) field.getType()).getBitWidth() / 8;
                case Date -> ((ArrowType.Date) field.getType()).getUnit() == DateUnit.DAY ? 4 : 8;
                case Time -> ((ArrowType.Time) field.getType()).getBitWidth() / 8;
                case Timestamp, Duration, Interval -> 8;
                case Bool -> 0;
                case Utf8, Binary -> 4 + 24;
                case LargeUtf8, LargeBinary -> 8 + 24;
                case FixedSizeBinary -> ((ArrowType.FixedSizeBinary) field.getType()).getByteWidth();
                default -> 16;
            };
        }
        return bytes;
    }

    /** Bytes of the buffers of a batch's vectors. */
    public static long bytes(VectorSchemaRoot batch)
    {
        long bytes = 0;
        for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }

    public static VectorSchemaRoot empty(Schema schema, BufferAllocator allocator)
    {
        return root(schema, allocate(schema, allocator, 1), 0);
    }

    public static void closeAll(Iterable<? extends AutoCloseable> closeables)
    {
        RuntimeException failure = null;
        for (AutoCloseable closeable : closeables) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            }
            catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException runtime ? runtime : new RuntimeException(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
