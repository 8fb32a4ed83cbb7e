package io.ontul.engine.operator;

import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies the cells at a list of row positions of one vector, or of (batch, row) positions of a
 * column of many batches ({@link Column}), into consecutive positions of another vector of the
 * same type: the bulk copy behind joins, filters of materialised rows, sorts and the merge of
 * sorted runs. Fixed width and UTF-8 vectors are copied buffer to buffer with one type dispatch
 * per column; other vectors fall back to Arrow's cell copy.
 */
public final class VectorGather
{
    private VectorGather() {}

    /**
     * @param target allocated for at least {@code count} rows; its value count is set by the
     * caller
     */
    public static void gather(FieldVector source, int[] rows, int count, FieldVector target)
    {
        gather(source, rows, count, target, source.getNullCount() > 0);
    }

    /**
     * As {@link #gather(FieldVector, int[], int, FieldVector)}, for callers that know whether
     * the source has NULLs: counting them scans the whole validity buffer, which for a large
     * build side costs more than the copy.
     */
    public static void gather(FieldVector source, int[] rows, int count, FieldVector target, boolean sourceHasNulls)
    {
        gather(source, rows, 0, count, target, 0, sourceHasNulls);
    }

    /**
     * Copies row {@code rows[from + i]} of {@code source} into position {@code at + i} of
     * {@code target}, for each i below {@code count}: appends to a target whose positions before
     * {@code at} are filled already (a string column's in order). The target grows as needed;
     * its value count is set by the caller.
     */
    public static void gather(FieldVector source, int[] rows, int from, int count, FieldVector target, int at, boolean sourceHasNulls)
    {
        if (source instanceof BitVector || !(source instanceof BaseFixedWidthVector || source instanceof BaseVariableWidthVector)
                || source.getClass() != target.getClass()) {
            for (int i = 0; i < count; i++) {
                target.copyFromSafe(rows[from + i], at + i, source);
            }
            return;
        }
        if (source instanceof BaseVariableWidthVector text) {
            gatherText(text, rows, from, count, (BaseVariableWidthVector) target, at, sourceHasNulls);
            return;
        }
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) target;
        while (fixed.getValueCapacity() < at + count) {
            fixed.reAlloc();
        }
        int width = ((BaseFixedWidthVector) source).getTypeWidth();
        ArrowBuf data = source.getDataBuffer();
        ArrowBuf to = target.getDataBuffer();
        long base = (long) at * width;
        switch (width) {
            case 8 -> {
                for (int i = 0; i < count; i++) {
                    to.setLong(base + i * 8L, data.getLong(rows[from + i] * 8L));
                }
            }
            case 4 -> {
                for (int i = 0; i < count; i++) {
                    to.setInt(base + i * 4L, data.getInt(rows[from + i] * 4L));
                }
            }
            case 16 -> {
                for (int i = 0; i < count; i++) {
                    long row = rows[from + i] * 16L;
                    to.setLong(base + i * 16L, data.getLong(row));
                    to.setLong(base + i * 16L + 8, data.getLong(row + 8));
                }
            }
            case 2 -> {
                for (int i = 0; i < count; i++) {
                    to.setShort(base + i * 2L, data.getShort(rows[from + i] * 2L));
                }
            }
            case 1 -> {
                for (int i = 0; i < count; i++) {
                    to.setByte(base + i, data.getByte(rows[from + i]));
                }
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    to.setBytes(base + (long) i * width, data, (long) rows[from + i] * width, width);
                }
            }
        }
        copyValidity(source, rows, from, count, target, at, sourceHasNulls);
    }

    private static void copyValidity(FieldVector source, int[] rows, int from, int count, FieldVector target, int at, boolean sourceHasNulls)
    {
        ArrowBuf validity = target.getValidityBuffer();
        if (!sourceHasNulls) {
            setValid(validity, at, count);
            return;
        }
        for (int i = 0; i < count; i++) {
            if (source.isNull(rows[from + i])) {
                BitVectorHelper.unsetBit(validity, at + i);
            }
            else {
                BitVectorHelper.setBit(validity, at + i);
            }
        }
    }

    /**
     * Copies one cell's bytes. Most text cells are short, and a copyMemory call per cell costs
     * more than moving them in 8-byte words (the JVM's copy has a fixed cost per call: measured as
     * 13% of TPC-DS q04, which gathers seven text columns through a join).
     */
    private static void copyBytes(ArrowBuf from, long fromIndex, ArrowBuf to, long toIndex, int length)
    {
        if (length > 32) {
            to.setBytes(toIndex, from, fromIndex, length);
            return;
        }
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            to.setLong(toIndex + i, from.getLong(fromIndex + i));
        }
        for (; i < length; i++) {
            to.setByte(toIndex + i, from.getByte(fromIndex + i));
        }
    }

    private static void gatherText(BaseVariableWidthVector source, int[] rows, int from, int count, BaseVariableWidthVector target, int at, boolean sourceHasNulls)
    {
        ArrowBuf sourceOffsets = source.getOffsetBuffer();
        long total = 0;
        for (int i = 0; i < count; i++) {
            int row = rows[from + i];
            total += sourceOffsets.getInt((row + 1) * 4L) - sourceOffsets.getInt(row * 4L);
        }
        while (target.getValueCapacity() < at + count) {
            target.reallocValidityAndOffsetBuffers();
        }
        ArrowBuf targetOffsets = target.getOffsetBuffer();
        if (at == 0) {
            targetOffsets.setInt(0, 0);
        }
        int position = targetOffsets.getInt((long) at * 4L);
        while (target.getDataBuffer().capacity() < position + total) {
            target.reallocDataBuffer();
        }
        ArrowBuf data = source.getDataBuffer();
        ArrowBuf to = target.getDataBuffer();
        for (int i = 0; i < count; i++) {
            int row = rows[from + i];
            int start = sourceOffsets.getInt(row * 4L);
            int length = sourceOffsets.getInt((row + 1) * 4L) - start;
            copyBytes(data, start, to, position, length);
            position += length;
            targetOffsets.setInt((long) (at + i + 1) * 4L, position);
        }
        copyValidity(source, rows, from, count, target, at, sourceHasNulls);
        target.setLastSet(at + count - 1);
    }

    /**
     * One column of many batches, looked up once for {@link #gather(Column, int[], int[], int, int, FieldVector, int)}:
     * the rows of many batches copied in a given order, as a sort or a merge of sorted runs emits
     * them. A batch's slot may be given a new vector ({@link #set}) when the batch is replaced.
     */
    public static final class Column
    {
        private final FieldVector[] vectors;
        private final ArrowBuf[] data;
        private final ArrowBuf[] offsets;
        private final boolean[] hasNulls;
        private Class<?> type;
        private boolean bulk = true;
        private int width;

        /** A column of {@code batches} batches, each slot empty until {@link #set}. */
        public Column(int batches)
        {
            this.vectors = new FieldVector[batches];
            this.data = new ArrowBuf[batches];
            this.offsets = new ArrowBuf[batches];
            this.hasNulls = new boolean[batches];
        }

        /** @param vectors the column in every batch, all of one type; they must not change while this is used */
        public Column(List<FieldVector> vectors)
        {
            this(vectors.size());
            for (int b = 0; b < vectors.size(); b++) {
                set(b, vectors.get(b));
            }
        }

        /** Batch {@code batch}'s vector from now on (it must not change while it is used). */
        public void set(int batch, FieldVector vector)
        {
            vectors[batch] = vector;
            hasNulls[batch] = vector.getNullCount() > 0;
            if (type == null) {
                type = vector.getClass();
                bulk = !(vector instanceof BitVector) && (vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector);
                width = bulk && vector instanceof BaseFixedWidthVector fixed ? fixed.getTypeWidth() : 0;
            }
            else if (type != vector.getClass()) {
                bulk = false;
            }
            data[batch] = bulk ? vector.getDataBuffer() : null;
            offsets[batch] = bulk && vector instanceof BaseVariableWidthVector ? vector.getOffsetBuffer() : null;
        }
    }

    /**
     * Copies the cell at row {@code rows[from + i]} of batch {@code batches[from + i]} of
     * {@code column}, for each i below {@code count}, into position {@code at + i} of
     * {@code target} (of the column's type; positions before {@code at} are filled already, a
     * string column's in order). The target grows as needed; its value count is set by the
     * caller.
     */
    public static void gather(Column column, int[] batches, int[] rows, int from, int count, FieldVector target, int at)
    {
        if (count == 0) {
            return;
        }
        if (!column.bulk || column.type != target.getClass()) {
            for (int i = 0; i < count; i++) {
                target.copyFromSafe(rows[from + i], at + i, column.vectors[batches[from + i]]);
            }
            return;
        }
        if (target instanceof BaseVariableWidthVector text) {
            gatherText(column, batches, rows, from, count, text, at);
        }
        else {
            BaseFixedWidthVector fixed = (BaseFixedWidthVector) target;
            while (fixed.getValueCapacity() < at + count) {
                fixed.reAlloc();
            }
            ArrowBuf to = target.getDataBuffer();
            int width = column.width;
            for (int i = 0; i < count; i++) {
                ArrowBuf source = column.data[batches[from + i]];
                long offset = (long) rows[from + i] * width;
                long position = (long) (at + i) * width;
                switch (width) {
                    case 8 -> to.setLong(position, source.getLong(offset));
                    case 4 -> to.setInt(position, source.getInt(offset));
                    case 16 -> {
                        to.setLong(position, source.getLong(offset));
                        to.setLong(position + 8, source.getLong(offset + 8));
                    }
                    default -> to.setBytes(position, source, offset, width);
                }
            }
        }
        ArrowBuf validity = target.getValidityBuffer();
        if (!anyNulls(column)) {
            setValid(validity, at, count);
            return;
        }
        for (int i = 0; i < count; i++) {
            int batch = batches[from + i];
            if (column.hasNulls[batch] && column.vectors[batch].isNull(rows[from + i])) {
                BitVectorHelper.unsetBit(validity, at + i);
            }
            else {
                BitVectorHelper.setBit(validity, at + i);
            }
        }
    }

    /** Marks the {@code count} positions from {@code at} valid. */
    private static void setValid(ArrowBuf validity, int at, int count)
    {
        int end = at + count;
        int i = at;
        for (; i < end && (i & 7) != 0; i++) {
            BitVectorHelper.setBit(validity, i);
        }
        int fullBytes = (end - i) / 8;
        validity.setOne(i / 8, fullBytes);
        for (i += fullBytes * 8; i < end; i++) {
            BitVectorHelper.setBit(validity, i);
        }
    }

    private static boolean anyNulls(Column column)
    {
        for (boolean nulls : column.hasNulls) {
            if (nulls) {
                return true;
            }
        }
        return false;
    }

    private static void gatherText(Column column, int[] batches, int[] rows, int from, int count, BaseVariableWidthVector target, int at)
    {
        while (target.getValueCapacity() < at + count) {
            target.reallocValidityAndOffsetBuffers();
        }
        ArrowBuf targetOffsets = target.getOffsetBuffer();
        if (at == 0) {
            targetOffsets.setInt(0, 0);
        }
        int position = targetOffsets.getInt((long) at * Integer.BYTES);
        long total = position;
        for (int i = 0; i < count; i++) {
            ArrowBuf offsets = column.offsets[batches[from + i]];
            long row = (long) rows[from + i] * Integer.BYTES;
            total += offsets.getInt(row + Integer.BYTES) - offsets.getInt(row);
        }
        while (target.getDataBuffer().capacity() < total) {
            target.reallocDataBuffer();
        }
        ArrowBuf to = target.getDataBuffer();
        for (int i = 0; i < count; i++) {
            int batch = batches[from + i];
            ArrowBuf offsets = column.offsets[batch];
            long row = (long) rows[from + i] * Integer.BYTES;
            int start = offsets.getInt(row);
            int length = offsets.getInt(row + Integer.BYTES) - start;
            copyBytes(column.data[batch], start, to, position, length);
            position += length;
            targetOffsets.setInt((long) (at + i + 1) * Integer.BYTES, position);
        }
        target.setLastSet(at + count - 1);
    }
}
