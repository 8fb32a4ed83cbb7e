package io.ontul.exchange.arrow;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads what a {@link PackedBatchWriter} wrote, given the schema it was written with. Each
 * column's buffers are allocated from the reader's allocator at their exact sizes, filled, and
 * loaded into a new vector the way Arrow's IPC reader loads them.
 */
public final class PackedBatchReader
        implements BatchStreamReader
{
    private static final ThreadLocal<long[]> VALUES = ThreadLocal.withInitial(() -> new long[0]);

    private final InputStream in;
    private final PackedInput input;
    private final List<Field> fields;
    private final PackedColumn[] columns;
    private final BufferAllocator allocator;
    private boolean ended;

    public PackedBatchReader(InputStream in, Schema schema, BufferAllocator allocator)
            throws IOException
    {
        this.in = requireNonNull(in, "in is null");
        this.fields = schema.getFields();
        this.columns = fields.stream().map(PackedColumn::forField).toArray(PackedColumn[]::new);
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.input = new PackedInput(in);
        int magic = input.readInt();
        if (magic != PackedBatchWriter.MAGIC) {
            throw new IOException(String.format("not a packed batch stream (starts with 0x%08x)", magic));
        }
    }

    @Override
    public VectorSchemaRoot next()
            throws IOException
    {
        if (ended) {
            return null;
        }
        int rows = input.readInt();
        if (rows == PackedBatchWriter.END_OF_STREAM) {
            ended = true;
            return null;
        }
        if (rows < 0) {
            throw new IOException("packed batch stream is damaged: batch of " + rows + " rows");
        }
        List<FieldVector> vectors = new ArrayList<>(columns.length);
        try {
            for (int column = 0; column < columns.length; column++) {
                vectors.add(readColumn(fields.get(column), columns[column], rows));
            }
        }
        catch (IOException | RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(fields, vectors, rows);
    }

    private FieldVector readColumn(Field field, PackedColumn layout, int rows)
            throws IOException
    {
        FieldVector vector = field.createVector(allocator);
        List<ArrowBuf> buffers = new ArrayList<>(3);
        try {
            int nulls = 0;
            if (rows == 0) {
                buffers.add(allocator.getEmpty());
                if (layout.kind() == PackedColumn.Kind.VARIABLE) {
                    ArrowBuf offsets = allocator.buffer(Integer.BYTES);
                    buffers.add(offsets);
                    offsets.setInt(0, 0);
                }
                buffers.add(allocator.getEmpty());
            }
            else {
                nulls = input.readInt();
                if (nulls < 0 || nulls > rows) {
                    throw new IOException("packed batch stream is damaged: " + nulls + " nulls in " + rows + " rows of " + field.getName());
                }
                // without nulls Arrow makes the validity bitmap itself (all set)
                buffers.add(nulls > 0 ? filled(PackedBatchWriter.bitmapBytes(rows)) : allocator.getEmpty());
                switch (layout.kind()) {
                    case INTEGER, DECIMAL -> buffers.add(readNumbers(field, layout, rows));
                    case VARIABLE -> readVariable(field, rows, buffers);
                    case RAW -> buffers.add(filled((long) rows * layout.width()));
                    case BIT -> buffers.add(filled(PackedBatchWriter.bitmapBytes(rows)));
                }
            }
            vector.loadFieldBuffers(new ArrowFieldNode(rows, nulls), buffers);
            return vector;
        }
        catch (IOException | RuntimeException e) {
            vector.close();
            throw e;
        }
        finally {
            // the vector holds its own references
            buffers.forEach(ArrowBuf::close);
        }
    }

    /** A new buffer of {@code bytes} read from the stream. */
    private ArrowBuf filled(long bytes)
            throws IOException
    {
        ArrowBuf buffer = allocator.buffer(bytes);
        try {
            input.readBuffer(buffer, 0, bytes);
            return buffer;
        }
        catch (IOException | RuntimeException e) {
            buffer.close();
            throw e;
        }
    }

    private ArrowBuf readNumbers(Field field, PackedColumn layout, int rows)
            throws IOException
    {
        int width = input.readByte();
        if (width == layout.width()) {
            return filled((long) rows * width);
        }
        checkWidth(field, width);
        long base = input.readLong();
        long[] values = values(rows);
        input.unpack(values, rows, base, width);
        ArrowBuf data = allocator.buffer((long) rows * layout.width());
        switch (layout.width()) {
            case 1 -> {
                for (int row = 0; row < rows; row++) {
                    data.setByte(row, (byte) values[row]);
                }
            }
            case 2 -> {
                for (int row = 0; row < rows; row++) {
                    data.setShort(2L * row, (short) values[row]);
                }
            }
            case 4 -> {
                for (int row = 0; row < rows; row++) {
                    data.setInt(4L * row, (int) values[row]);
                }
            }
            case 8 -> {
                for (int row = 0; row < rows; row++) {
                    data.setLong(8L * row, values[row]);
                }
            }
            case 16 -> {
                for (int row = 0; row < rows; row++) {
                    data.setLong(16L * row, values[row]);
                    data.setLong(16L * row + 8, values[row] >> 63);
                }
            }
            default -> {
                data.close();
                throw new IllegalStateException("unexpected width " + layout.width());
            }
        }
        return data;
    }

    private void readVariable(Field field, int rows, List<ArrowBuf> buffers)
            throws IOException
    {
        int width = input.readByte();
        checkWidth(field, width);
        long base = input.readLong();
        long[] lengths = values(rows);
        input.unpack(lengths, rows, base, width);
        ArrowBuf offsets = allocator.buffer((rows + 1L) * Integer.BYTES);
        buffers.add(offsets);
        long offset = 0;
        offsets.setInt(0, 0);
        for (int row = 0; row < rows; row++) {
            offset += lengths[row];
            if (lengths[row] < 0 || offset > Integer.MAX_VALUE) {
                throw new IOException("packed batch stream is damaged: bad value length in " + field.getName());
            }
            offsets.setInt(4L * (row + 1), (int) offset);
        }
        long length = input.readLong();
        if (length != offset) {
            throw new IOException("packed batch stream is damaged: " + field.getName() + " holds " + length + " bytes, its lengths add up to " + offset);
        }
        buffers.add(filled(length));
    }

    private static void checkWidth(Field field, int width)
            throws IOException
    {
        if (width != 0 && width != 1 && width != 2 && width != 4 && width != 8) {
            throw new IOException("packed batch stream is damaged: width " + width + " for " + field.getName());
        }
    }

    /** Scratch for a column's values: the thread's own up to {@link PackedColumn#CACHED_ROWS}, a new array beyond. */
    private static long[] values(int rows)
    {
        long[] values = VALUES.get();
        if (values.length >= rows) {
            return values;
        }
        if (rows > PackedColumn.CACHED_ROWS) {
            return new long[rows];
        }
        values = new long[rows];
        VALUES.set(values);
        return values;
    }

    @Override
    public void close()
            throws IOException
    {
        in.close();
    }
}
