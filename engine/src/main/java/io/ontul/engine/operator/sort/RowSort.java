package io.ontul.engine.operator.sort;

import java.nio.ByteOrder;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Columns;

/**
 * Sorts the rows of batches that stay as they are while it runs (a sort's or a window's rows)
 * by a list of sort keys, in the order {@link RowComparator} defines, rows that compare equal
 * keeping their input order.
 * <p>
 * Each key is read as a sequence of unsigned 64-bit digits that order as the key does: a NULL
 * flag when the key holds NULLs; then one digit for a number, date or timestamp; for a string
 * its bytes eight at a time, big-endian and padded with zeros, then its length; a descending
 * key's digits inverted. A range of rows is sorted by one digit held in an array (a stable merge
 * sort over primitive arrays), and each run of rows with equal digits goes on to the next digit
 * or key. Rows are compared through {@link RowComparator} only in small runs, past
 * {@link #MAX_STRING_DIGITS} digits of a string, and for keys of other types. Sorting by a string
 * column by comparing rows read both strings at random places in memory for every comparison,
 * which took most of the time of such a sort; here each row's digit is read once per level.
 * Not thread-safe; one instance sorts once.
 */
public final class RowSort
{
    /** Digits of a string compared before falling back to row comparisons (the first 64 bytes). */
    static final int MAX_STRING_DIGITS = 8;
    /** Runs this short are sorted by row comparisons. */
    private static final int SMALL_RUN = 12;
    private static final int NULL_LEVEL = -1;
    private static final int LENGTH_LEVEL = Integer.MAX_VALUE;
    private static final long NOT_NULL = 1;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    enum Kind
    {
        /**
         * Read as a signed long of the vector's width; decimals as their unscaled low 64 bits (as
         * {@link Columns#getLong}), which order them when all of a key's batches have one scale.
         */
        INTEGER,
        FLOAT,
        STRING,
        /** Compared row against row. */
        OTHER
    }

    private final SortKey[] keys;
    private final Kind[] kinds;
    private final int[] widths;
    private final boolean[] keyHasNulls;
    // by batch and key
    private final FieldVector[][] vectors;
    private final ArrowBuf[][] data;
    private final ArrowBuf[][] offsets;
    private final int[] batchOf;
    private final int[] rowOf;
    private final RowComparator comparator;
    private final int[] order;
    private final int[] orderScratch;
    private final long[] digits;
    private final long[] digitScratch;

    private RowSort(List<VectorSchemaRoot> batches, List<SortKey> keys, int[] batchOf, int[] rowOf)
    {
        this.keys = keys.toArray(SortKey[]::new);
        this.batchOf = batchOf;
        this.rowOf = rowOf;
        this.comparator = RowComparator.overFixedBatches(batches, keys);
        int total = batchOf.length;
        this.kinds = new Kind[this.keys.length];
        this.widths = new int[this.keys.length];
        this.keyHasNulls = new boolean[this.keys.length];
        this.vectors = new FieldVector[batches.size()][this.keys.length];
        this.data = new ArrowBuf[batches.size()][this.keys.length];
        this.offsets = new ArrowBuf[batches.size()][this.keys.length];
        for (int k = 0; k < this.keys.length; k++) {
            FieldVector first = batches.isEmpty() ? null : batches.get(0).getVector(this.keys[k].column());
            kinds[k] = first == null ? Kind.OTHER : kind(first);
            for (int b = 0; b < batches.size(); b++) {
                FieldVector vector = batches.get(b).getVector(this.keys[k].column());
                vectors[b][k] = vector;
                keyHasNulls[k] |= vector.getNullCount() > 0;
                if (!sameType(first, vector)) {
                    // digits of one key have one width and scale; the comparator handles mixed vectors
                    kinds[k] = Kind.OTHER;
                }
                if (kinds[k] == Kind.INTEGER || kinds[k] == Kind.STRING) {
                    data[b][k] = vector.getDataBuffer();
                }
                if (kinds[k] == Kind.STRING) {
                    offsets[b][k] = vector.getOffsetBuffer();
                }
            }
            if (kinds[k] == Kind.INTEGER) {
                widths[k] = ((BaseFixedWidthVector) batches.get(0).getVector(this.keys[k].column())).getTypeWidth();
            }
        }
        this.order = new int[total];
        for (int i = 0; i < total; i++) {
            order[i] = i;
        }
        this.orderScratch = new int[total];
        this.digits = new long[total];
        this.digitScratch = new long[total];
    }

    /** Bytes of heap per row a sort takes besides the caller's address arrays: the order, its digits and their scratch copies. */
    static long bytesPerRow()
    {
        return 2 * Integer.BYTES + digitBytesPerRow();
    }

    /** Of {@link #bytesPerRow}, the digits and their scratch copy. */
    public static long digitBytesPerRow()
    {
        return 2 * Long.BYTES;
    }

    /**
     * The rows of {@code batches} in the order of {@code keys}: row {@code i} of the result is a
     * row number {@code r}, the row at {@code (batchOf[r], rowOf[r])}.
     */
    public static int[] sort(List<VectorSchemaRoot> batches, List<SortKey> keys, int[] batchOf, int[] rowOf)
    {
        RowSort sort = new RowSort(batches, keys, batchOf, rowOf);
        sort.sort(0, batchOf.length, 0, NULL_LEVEL);
        return sort.order;
    }

    /** How {@link #firstDigit} reads the values of {@code vector}, to decide once per vector; null when it has no digits. */
    static Kind digitKind(FieldVector vector)
    {
        Kind kind = kind(vector);
        return kind == Kind.OTHER ? null : kind;
    }

    /**
     * The first digit of the non-NULL value at {@code row} of {@code vector}, whose
     * {@link #digitKind} is {@code kind}: values whose first digits differ are ordered as their
     * digits (unsigned).
     */
    static long firstDigit(Kind kind, FieldVector vector, int row, boolean descending)
    {
        long digit = switch (kind) {
            case INTEGER -> integerDigit(vector.getDataBuffer(), ((BaseFixedWidthVector) vector).getTypeWidth(), row);
            case FLOAT -> floatDigit(Columns.getDouble(vector, row));
            case STRING -> stringDigit(vector.getOffsetBuffer(), vector.getDataBuffer(), row, 0);
            case OTHER -> throw new IllegalArgumentException("no digits for " + vector.getField().getType());
        };
        return descending ? ~digit : digit;
    }

    private static boolean sameType(FieldVector first, FieldVector vector)
    {
        if (first.getClass() != vector.getClass()) {
            return false;
        }
        return !(first instanceof DecimalVector decimal) || decimal.getScale() == ((DecimalVector) vector).getScale();
    }

    private static Kind kind(FieldVector vector)
    {
        if (vector instanceof BaseVariableWidthVector) {
            return Kind.STRING;
        }
        if (vector instanceof Float8Vector || vector instanceof Float4Vector) {
            return Kind.FLOAT;
        }
        if (vector instanceof BigIntVector || vector instanceof IntVector || vector instanceof DateDayVector
                || (vector instanceof DecimalVector decimal && decimal.getPrecision() <= 18)
                || vector instanceof TimeStampVector || vector instanceof SmallIntVector || vector instanceof TinyIntVector || vector instanceof TimeMilliVector) {
            return Kind.INTEGER;
        }
        return Kind.OTHER;
    }

    /** Sorts {@code order[from, to)}, rows equal in every key before {@code key} and in its levels before {@code level}. */
    private void sort(int from, int to, int key, int level)
    {
        if (to - from < 2 || key == keys.length) {
            return;
        }
        if (to - from <= SMALL_RUN || kinds[key] == Kind.OTHER || (level >= MAX_STRING_DIGITS && level != LENGTH_LEVEL)) {
            SortOperator.mergeSort(order, orderScratch, from, to, (x, y) -> comparator.compare(batchOf[x], rowOf[x], batchOf[y], rowOf[y]));
            return;
        }
        if (level == NULL_LEVEL && !keyHasNulls[key]) {
            level = 0;
        }
        fillDigits(from, to, key, level);
        sortByDigits(from, to);
        int start = from;
        while (start < to) {
            long digit = digits[start];
            int end = start + 1;
            while (end < to && digits[end] == digit) {
                end++;
            }
            if (end - start > 1) {
                // the run's digits are not read again: the next level may overwrite them
                if (level == NULL_LEVEL) {
                    if (digit == NOT_NULL) {
                        sort(start, end, key, 0);
                    }
                    else {
                        sort(start, end, key + 1, NULL_LEVEL);
                    }
                }
                else if (kinds[key] == Kind.STRING && level != LENGTH_LEVEL) {
                    sort(start, end, key, anyLongerThan(start, end, key, 8L * (level + 1)) ? level + 1 : LENGTH_LEVEL);
                }
                else {
                    sort(start, end, key + 1, NULL_LEVEL);
                }
            }
            start = end;
        }
    }

    private void fillDigits(int from, int to, int key, int level)
    {
        if (level == NULL_LEVEL) {
            long nullDigit = keys[key].nullsFirst() ? 0 : 2;
            for (int i = from; i < to; i++) {
                int row = order[i];
                digits[i] = vectors[batchOf[row]][key].isNull(rowOf[row]) ? nullDigit : NOT_NULL;
            }
            return;
        }
        switch (kinds[key]) {
            case INTEGER -> fillIntegers(from, to, key);
            case FLOAT -> {
                for (int i = from; i < to; i++) {
                    int row = order[i];
                    digits[i] = floatDigit(Columns.getDouble(vectors[batchOf[row]][key], rowOf[row]));
                }
            }
            case STRING -> {
                if (level == LENGTH_LEVEL) {
                    for (int i = from; i < to; i++) {
                        int row = order[i];
                        ArrowBuf offsetBuffer = offsets[batchOf[row]][key];
                        long at = (long) rowOf[row] * Integer.BYTES;
                        digits[i] = offsetBuffer.getInt(at + Integer.BYTES) - offsetBuffer.getInt(at);
                    }
                }
                else {
                    fillStringDigits(from, to, key, 8L * level);
                }
            }
            default -> throw new IllegalStateException("no digits for " + kinds[key]);
        }
        if (keys[key].descending()) {
            for (int i = from; i < to; i++) {
                digits[i] = ~digits[i];
            }
        }
    }

    private void fillIntegers(int from, int to, int key)
    {
        int width = widths[key];
        for (int i = from; i < to; i++) {
            int row = order[i];
            digits[i] = integerDigit(data[batchOf[row]][key], width, rowOf[row]);
        }
    }

    private void fillStringDigits(int from, int to, int key, long skip)
    {
        for (int i = from; i < to; i++) {
            int row = order[i];
            int batch = batchOf[row];
            digits[i] = stringDigit(offsets[batch][key], data[batch][key], rowOf[row], skip);
        }
    }

    /** A signed integer of {@code width} bytes (a decimal's unscaled low 64 bits) in unsigned order. */
    private static long integerDigit(ArrowBuf data, int width, int row)
    {
        long at = (long) row * width;
        long value = switch (width) {
            case 8, 16 -> data.getLong(at);
            case 4 -> data.getInt(at);
            case 2 -> data.getShort(at);
            case 1 -> data.getByte(at);
            default -> throw new IllegalStateException("integer of " + width + " bytes");
        };
        return value ^ Long.MIN_VALUE;
    }

    /** {@link Double#compare}'s order as a signed long, then as an unsigned one. */
    private static long floatDigit(double value)
    {
        long bits = Double.doubleToLongBits(value);
        return (bits ^ ((bits >> 63) & Long.MAX_VALUE)) ^ Long.MIN_VALUE;
    }

    /** The string's bytes from {@code skip} on, eight of them big-endian (zeros past its end). */
    private static long stringDigit(ArrowBuf offsets, ArrowBuf data, int row, long skip)
    {
        long at = (long) row * Integer.BYTES;
        long start = offsets.getInt(at) + skip;
        long left = offsets.getInt(at + Integer.BYTES) - start;
        if (left >= Long.BYTES) {
            // ArrowBuf reads in the machine's byte order
            long bytes = data.getLong(start);
            return LITTLE_ENDIAN ? Long.reverseBytes(bytes) : bytes;
        }
        long digit = 0;
        for (int b = 0; b < left; b++) {
            digit |= (data.getByte(start + b) & 0xFFL) << (56 - 8 * b);
        }
        return digit;
    }

    private boolean anyLongerThan(int from, int to, int key, long length)
    {
        for (int i = from; i < to; i++) {
            int row = order[i];
            ArrowBuf offsetBuffer = offsets[batchOf[row]][key];
            long at = (long) rowOf[row] * Integer.BYTES;
            if (offsetBuffer.getInt(at + Integer.BYTES) - offsetBuffer.getInt(at) > length) {
                return true;
            }
        }
        return false;
    }

    /** Stable sort of {@code digits[from, to)} (unsigned), moving {@code order} along. */
    private void sortByDigits(int from, int to)
    {
        for (int i = from + 1; i < to; i++) {
            if (Long.compareUnsigned(digits[i - 1], digits[i]) > 0) {
                mergeSort(from, to);
                return;
            }
        }
    }

    private void mergeSort(int from, int to)
    {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                long digit = digits[i];
                int row = order[i];
                int j = i - 1;
                while (j >= from && Long.compareUnsigned(digits[j], digit) > 0) {
                    digits[j + 1] = digits[j];
                    order[j + 1] = order[j];
                    j--;
                }
                digits[j + 1] = digit;
                order[j + 1] = row;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(from, middle);
        mergeSort(middle, to);
        if (Long.compareUnsigned(digits[middle - 1], digits[middle]) <= 0) {
            return;
        }
        System.arraycopy(digits, from, digitScratch, from, to - from);
        System.arraycopy(order, from, orderScratch, from, to - from);
        int left = from;
        int right = middle;
        for (int i = from; i < to; i++) {
            if (right >= to || (left < middle && Long.compareUnsigned(digitScratch[left], digitScratch[right]) <= 0)) {
                digits[i] = digitScratch[left];
                order[i] = orderScratch[left++];
            }
            else {
                digits[i] = digitScratch[right];
                order[i] = orderScratch[right++];
            }
        }
    }
}
