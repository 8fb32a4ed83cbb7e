package io.ontul.exchange.arrow;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.exchange.crypto.ChunkedOutputStream;

/**
 * Writes batches in Ontul's packed spill format ({@link BatchEncoding#PACKED}): an int magic,
 * then per batch its row count and each column as {@link PackedColumn} describes, and -1 at the
 * end; all numbers little-endian. The schema is not written: the reader is given it.
 * <p>
 * Narrowing costs a pass over each integer column, against writing 2 to 4 times the bytes: a
 * spilled join row of a BIGINT key and a DECIMAL(15,2) price takes 8 bytes instead of 24 when the
 * batch's keys span less than 2^32 and its prices fit in 64 bits. Unlike general-purpose
 * compression it finds nothing in strings or doubles, and costs about as much as copying.
 */
public final class PackedBatchWriter
        implements BatchStreamWriter
{
    static final int MAGIC = 0x3142504F; // "OPB1"
    static final int END_OF_STREAM = -1;
    /** The packed width of a column whose values are written as they are. */
    private static final int AS_IS = -1;
    private static final ThreadLocal<long[]> VALUES = ThreadLocal.withInitial(() -> new long[0]);

    private final OutputStream out;
    // told each batch's size, so that its chunk buffer grows once; null for other streams
    private final ChunkedOutputStream exchangeStream;
    private final PackedColumn[] columns;
    // per batch, per column: null count, bytes per packed value (or AS_IS), offset base
    private final int[] nullCounts;
    private final int[] widths;
    private final long[] bases;

    public PackedBatchWriter(OutputStream out, Schema schema)
            throws IOException
    {
        this.out = requireNonNull(out, "out is null");
        this.exchangeStream = out instanceof ChunkedOutputStream chunked ? chunked : null;
        this.columns = schema.getFields().stream().map(PackedColumn::forField).toArray(PackedColumn[]::new);
        this.nullCounts = new int[columns.length];
        this.widths = new int[columns.length];
        this.bases = new long[columns.length];
        PackedOutput output = new PackedOutput(out);
        output.writeInt(MAGIC);
        output.flush();
    }

    @Override
    public void write(VectorSchemaRoot batch)
            throws IOException
    {
        int rows = batch.getRowCount();
        List<FieldVector> vectors = batch.getFieldVectors();
        if (vectors.size() != columns.length) {
            throw new IllegalArgumentException("batch has " + vectors.size() + " columns, the stream " + columns.length);
        }
        long bytes = Integer.BYTES;
        if (rows > 0) {
            for (int column = 0; column < columns.length; column++) {
                bytes += plan(column, vectors.get(column), rows);
            }
        }
        if (exchangeStream != null) {
            exchangeStream.expect(bytes);
        }
        PackedOutput output = new PackedOutput(out);
        output.writeInt(rows);
        if (rows > 0) {
            for (int column = 0; column < columns.length; column++) {
                writeColumn(output, column, vectors.get(column), rows);
            }
        }
        output.flush();
    }

    @Override
    public void finish()
            throws IOException
    {
        PackedOutput output = new PackedOutput(out);
        output.writeInt(END_OF_STREAM);
        output.flush();
    }

    /** Chooses how the column is written in this batch; returns its bytes. */
    private long plan(int column, FieldVector vector, int rows)
    {
        if (vector.getValueCount() < rows) {
            throw new IllegalArgumentException("column " + vector.getName() + " has " + vector.getValueCount() + " values for " + rows + " rows");
        }
        PackedColumn layout = columns[column];
        int nulls = BitVectorHelper.getNullCount(vector.getValidityBuffer(), rows);
        nullCounts[column] = nulls;
        long bytes = Integer.BYTES + (nulls > 0 ? bitmapBytes(rows) : 0);
        return bytes + switch (layout.kind()) {
            case INTEGER, DECIMAL -> {
                long[] values = values(rows);
                boolean fits = load(layout, vector.getDataBuffer(), rows, values);
                int width = fits ? packedWidth(values, rows) : AS_IS;
                widths[column] = width < layout.width() ? width : AS_IS;
                bases[column] = minimum(values, rows);
                yield 1 + (widths[column] == AS_IS ? (long) rows * layout.width() : Long.BYTES + (long) rows * widths[column]);
            }
            case VARIABLE -> {
                long[] lengths = values(rows);
                loadLengths(vector.getOffsetBuffer(), rows, lengths);
                widths[column] = packedWidth(lengths, rows);
                bases[column] = minimum(lengths, rows);
                yield 1 + 2L * Long.BYTES + (long) rows * widths[column] + dataLength(vector.getOffsetBuffer(), rows);
            }
            case RAW -> (long) rows * layout.width();
            case BIT -> bitmapBytes(rows);
        };
    }

    private void writeColumn(PackedOutput output, int column, FieldVector vector, int rows)
            throws IOException
    {
        PackedColumn layout = columns[column];
        output.writeInt(nullCounts[column]);
        if (nullCounts[column] > 0) {
            output.writeBuffer(vector.getValidityBuffer(), 0, bitmapBytes(rows));
        }
        switch (layout.kind()) {
            case INTEGER, DECIMAL -> {
                int width = widths[column];
                if (width == AS_IS) {
                    output.writeByte(layout.width());
                    output.writeBuffer(vector.getDataBuffer(), 0, (long) rows * layout.width());
                }
                else {
                    long[] values = values(rows);
                    load(layout, vector.getDataBuffer(), rows, values);
                    output.writeByte(width);
                    output.writeLong(bases[column]);
                    output.pack(values, rows, bases[column], width);
                }
            }
            case VARIABLE -> {
                long[] lengths = values(rows);
                ArrowBuf offsets = vector.getOffsetBuffer();
                loadLengths(offsets, rows, lengths);
                output.writeByte(widths[column]);
                output.writeLong(bases[column]);
                output.pack(lengths, rows, bases[column], widths[column]);
                long length = dataLength(offsets, rows);
                output.writeLong(length);
                output.writeBuffer(vector.getDataBuffer(), offsets.getInt(0), length);
            }
            case RAW -> output.writeBuffer(vector.getDataBuffer(), 0, (long) rows * layout.width());
            case BIT -> output.writeBuffer(vector.getDataBuffer(), 0, bitmapBytes(rows));
        }
    }

    /**
     * Reads the column's values as longs (a decimal's low 64 bits); false for a decimal column
     * with a value that needs more than 64 bits.
     */
    private static boolean load(PackedColumn layout, ArrowBuf data, int rows, long[] values)
    {
        switch (layout.width()) {
            case 1 -> {
                for (int row = 0; row < rows; row++) {
                    values[row] = data.getByte(row);
                }
            }
            case 2 -> {
                for (int row = 0; row < rows; row++) {
                    values[row] = data.getShort(2L * row);
                }
            }
            case 4 -> {
                for (int row = 0; row < rows; row++) {
                    values[row] = data.getInt(4L * row);
                }
            }
            case 8 -> {
                for (int row = 0; row < rows; row++) {
                    values[row] = data.getLong(8L * row);
                }
            }
            case 16 -> {
                boolean fits = true;
                for (int row = 0; row < rows; row++) {
                    long low = data.getLong(16L * row);
                    values[row] = low;
                    fits &= data.getLong(16L * row + 8) == low >> 63;
                }
                return fits;
            }
            default -> throw new IllegalStateException("unexpected width " + layout.width());
        }
        return true;
    }

    private static void loadLengths(ArrowBuf offsets, int rows, long[] lengths)
    {
        int previous = offsets.getInt(0);
        for (int row = 0; row < rows; row++) {
            int next = offsets.getInt(4L * (row + 1));
            lengths[row] = next - previous;
            previous = next;
        }
    }

    private static long dataLength(ArrowBuf offsets, int rows)
    {
        return (long) offsets.getInt(4L * rows) - offsets.getInt(0);
    }

    private static long minimum(long[] values, int count)
    {
        long minimum = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            minimum = Math.min(minimum, values[i]);
        }
        return minimum;
    }

    /** The fewest of 0, 1, 2, 4 or 8 bytes that hold every value's offset from the smallest. */
    static int packedWidth(long[] values, int count)
    {
        long minimum = Long.MAX_VALUE;
        long maximum = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            minimum = Math.min(minimum, values[i]);
            maximum = Math.max(maximum, values[i]);
        }
        // as unsigned: the span of two longs always fits in 64 bits
        long span = maximum - minimum;
        if (span == 0) {
            return 0;
        }
        if (Long.compareUnsigned(span, 0xFFL) <= 0) {
            return 1;
        }
        if (Long.compareUnsigned(span, 0xFFFFL) <= 0) {
            return 2;
        }
        if (Long.compareUnsigned(span, 0xFFFF_FFFFL) <= 0) {
            return 4;
        }
        return 8;
    }

    static int bitmapBytes(int rows)
    {
        return (rows + 7) / 8;
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
}
