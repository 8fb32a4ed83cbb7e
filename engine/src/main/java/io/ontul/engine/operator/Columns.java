package io.ontul.engine.operator;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
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
import org.apache.arrow.vector.complex.ListVector;

import io.ontul.engine.expression.ArrayValues;
import io.ontul.engine.expression.Vectors;

/**
 * Typed cell operations on Arrow vectors of the engine's types: hash, equality, ordering, copy.
 * Hash and equality treat NULL as a value (callers decide NULL semantics). Integers of every
 * width, DATE, TIME, TIMESTAMP and DECIMAL are compared as longs.
 */
public final class Columns
{
    /** The hash of a NULL cell. */
    public static final long NULL_HASH = 0x5bd1e995L;

    private Columns() {}

    public static long hash(FieldVector vector, int index)
    {
        if (vector.isNull(index)) {
            return NULL_HASH;
        }
        if (vector instanceof BaseVariableWidthVector text) {
            return mix(hashBytes(text.getDataBuffer(), text.getStartOffset(index), text.getEndOffset(index)));
        }
        if (vector instanceof Float8Vector || vector instanceof Float4Vector) {
            double d = ((Number) vector.getObject(index)).doubleValue();
            return mix(Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
        }
        if (vector instanceof ListVector list) {
            return mix(ArrayValues.hash(ArrayValues.read(list, index)));
        }
        if (vector instanceof DecimalVector decimal) {
            // a value that fits a long hashes as it does in a long column
            long low = decimalWord(decimal, index, 0);
            long high = decimalWord(decimal, index, 8);
            return high == low >> 63 ? mix(low) : mix(low ^ mix(high));
        }
        return mix(getLong(vector, index));
    }

    /**
     * Whether cells of this vector compare and hash as longs ({@link #getLong}): not DECIMALs of
     * more than 18 digits, which take the 128-bit paths of {@link #hash}, {@link #equal} and
     * {@link #compare}.
     */
    public static boolean isLongLike(FieldVector vector)
    {
        return vector instanceof BigIntVector || vector instanceof IntVector || vector instanceof DateDayVector
                || (vector instanceof DecimalVector decimal && decimal.getPrecision() <= 18)
                || vector instanceof SmallIntVector || vector instanceof TinyIntVector || vector instanceof TimeStampVector || vector instanceof TimeMilliVector;
    }

    /**
     * The cells as longs (0 for NULL), one type dispatch per call. Reads the data buffers
     * directly, so Arrow's null check on {@code get} (on unless the JVM sets
     * {@code arrow.enable_null_check_for_get=false}) never fires on NULL cells.
     */
    public static long[] longs(FieldVector vector, int rowCount)
    {
        long[] values = new long[rowCount];
        if (vector instanceof BigIntVector || vector instanceof TimeStampVector) {
            var data = vector.getDataBuffer();
            for (int i = 0; i < rowCount; i++) {
                values[i] = data.getLong((long) i * 8);
            }
        }
        else if (vector instanceof IntVector || vector instanceof DateDayVector) {
            var data = vector.getDataBuffer();
            for (int i = 0; i < rowCount; i++) {
                values[i] = data.getInt((long) i * 4);
            }
        }
        else if (vector instanceof DecimalVector v) {
            for (int i = 0; i < rowCount; i++) {
                values[i] = v.isNull(i) ? 0 : Vectors.readDecimal(v, i);
            }
            return values;
        }
        else {
            for (int i = 0; i < rowCount; i++) {
                values[i] = vector.isNull(i) ? 0 : getLong(vector, i);
            }
            return values;
        }
        if (vector.getNullCount() > 0) {
            for (int i = 0; i < rowCount; i++) {
                if (vector.isNull(i)) {
                    values[i] = 0;
                }
            }
        }
        return values;
    }

    /**
     * The hash of bytes {@code [start, end)}, eight at a time (before {@link #mix}). Text keys
     * are hashed for every row of every aggregation and join on them: a multiply per byte cost
     * several times as much for the short text of typical keys.
     */
    static long hashBytes(org.apache.arrow.memory.ArrowBuf data, long start, long end)
    {
        long h = 1125899906842597L ^ (end - start);
        long at = start;
        for (; at + Long.BYTES <= end; at += Long.BYTES) {
            h = (h ^ data.getLong(at)) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        long tail = 0;
        for (int shift = 0; at < end; at++, shift += 8) {
            tail |= (data.getByte(at) & 0xFFL) << shift;
        }
        return (h ^ tail) * 0xC2B2AE3D27D4EB4FL;
    }

    /**
     * The hash of text bytes as Ontul computed it before {@link #hashBytes}, byte by byte: frozen,
     * because checkpoints of streaming jobs keep their state by key group, computed from it.
     */
    public static long legacyTextHash(org.apache.arrow.memory.ArrowBuf data, long start, long end)
    {
        long h = 1125899906842597L;
        for (long at = start; at < end; at++) {
            h = 31 * h + data.getByte(at);
        }
        return mix(h);
    }

    /**
     * Adds each row's hash of this column into {@code hashes} (h = 31 * h + hash). Streaming key
     * groups ({@code KeyGroups}) are computed with it for columns other than text: changing how
     * those hash moves keys between key groups, and checkpoints keep state by key group.
     */
    public static void hashInto(FieldVector vector, int rowCount, long[] hashes)
    {
        if (isLongLike(vector)) {
            long[] values = longs(vector, rowCount);
            boolean nulls = vector.getNullCount() > 0;
            for (int i = 0; i < rowCount; i++) {
                hashes[i] = hashes[i] * 31 + (nulls && vector.isNull(i) ? NULL_HASH : mix(values[i]));
            }
            return;
        }
        if (vector instanceof BaseVariableWidthVector text) {
            var offsets = text.getOffsetBuffer();
            var data = text.getDataBuffer();
            for (int i = 0; i < rowCount; i++) {
                long h;
                if (text.isNull(i)) {
                    h = NULL_HASH;
                }
                else {
                    h = mix(hashBytes(data, offsets.getInt(i * 4L), offsets.getInt((i + 1) * 4L)));
                }
                hashes[i] = hashes[i] * 31 + h;
            }
            return;
        }
        for (int i = 0; i < rowCount; i++) {
            hashes[i] = hashes[i] * 31 + hash(vector, i);
        }
    }

    /**
     * Whether a vector of {@code vectors} that is not {@code exempt} holds a NULL: one scan of
     * each validity buffer, so that row loops can skip their per-row NULL checks when none does.
     */
    public static boolean anyNull(FieldVector[] vectors, boolean[] exempt)
    {
        for (int i = 0; i < vectors.length; i++) {
            if (!exempt[i] && vectors[i].getNullCount() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * A key hash mixed again with a seed (murmur3's 64-bit finalizer), for splitting rows into
     * partitions: other seeds give independent bits, and none correlate with the low bits a hash
     * table indexes by.
     */
    public static long remix(long hash, long seed)
    {
        long x = hash ^ (0x9E3779B97F4A7C15L * seed);
        x = (x ^ (x >>> 33)) * 0xFF51AFD7ED558CCDL;
        x = (x ^ (x >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return x ^ (x >>> 33);
    }

    public static long mix(long value)
    {
        long h = value * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 32);
    }

    /** The value as a long for integer-like vectors (integers, dates, times, timestamps, decimals as unscaled, booleans). */
    public static long getLong(FieldVector vector, int index)
    {
        if (vector instanceof BigIntVector v) {
            return v.get(index);
        }
        if (vector instanceof IntVector v) {
            return v.get(index);
        }
        if (vector instanceof DateDayVector v) {
            return v.get(index);
        }
        if (vector instanceof DecimalVector v) {
            return Vectors.readDecimal(v, index);
        }
        if (vector instanceof TimeStampVector v) {
            return v.get(index);
        }
        if (vector instanceof SmallIntVector v) {
            return v.get(index);
        }
        if (vector instanceof TinyIntVector v) {
            return v.get(index);
        }
        if (vector instanceof TimeMilliVector v) {
            return v.get(index);
        }
        if (vector instanceof BitVector v) {
            return v.get(index);
        }
        if (vector instanceof Float8Vector v) {
            return Double.doubleToLongBits(v.get(index));
        }
        if (vector instanceof Float4Vector v) {
            return Double.doubleToLongBits(v.get(index));
        }
        throw new IllegalArgumentException("not an integer-like vector: " + vector.getClass().getSimpleName());
    }

    public static double getDouble(FieldVector vector, int index)
    {
        if (vector instanceof Float8Vector v) {
            return v.get(index);
        }
        if (vector instanceof Float4Vector v) {
            return v.get(index);
        }
        return getLong(vector, index);
    }

    /** Equality of two non-null or null cells of vectors of the same type (NULL equals NULL). */
    public static boolean equal(FieldVector a, int ia, FieldVector b, int ib)
    {
        boolean nullA = a.isNull(ia);
        boolean nullB = b.isNull(ib);
        if (nullA || nullB) {
            return nullA && nullB;
        }
        if (a instanceof BaseVariableWidthVector ta) {
            BaseVariableWidthVector tb = (BaseVariableWidthVector) b;
            long startA = ta.getStartOffset(ia);
            long lengthA = ta.getEndOffset(ia) - startA;
            long startB = tb.getStartOffset(ib);
            long lengthB = tb.getEndOffset(ib) - startB;
            if (lengthA != lengthB) {
                return false;
            }
            return org.apache.arrow.memory.util.ByteFunctionHelpers.equal(ta.getDataBuffer(), startA, startA + lengthA, tb.getDataBuffer(), startB, startB + lengthB) == 1;
        }
        if (a instanceof Float8Vector || a instanceof Float4Vector) {
            return getDouble(a, ia) == getDouble(b, ib) || (Double.isNaN(getDouble(a, ia)) && Double.isNaN(getDouble(b, ib)));
        }
        if (a instanceof ListVector la) {
            return ArrayValues.equal(ArrayValues.read(la, ia), ArrayValues.read((ListVector) b, ib));
        }
        if (a instanceof DecimalVector da && b instanceof DecimalVector db) {
            return compare(a, ia, b, ib) == 0;
        }
        return getLong(a, ia) == getLong(b, ib);
    }

    /** Ordering of two non-null cells of vectors of the same type. */
    public static int compare(FieldVector a, int ia, FieldVector b, int ib)
    {
        if (a instanceof BaseVariableWidthVector ta) {
            BaseVariableWidthVector tb = (BaseVariableWidthVector) b;
            return org.apache.arrow.memory.util.ByteFunctionHelpers.compare(ta.getDataBuffer(), ta.getStartOffset(ia), ta.getEndOffset(ia),
                    tb.getDataBuffer(), tb.getStartOffset(ib), tb.getEndOffset(ib));
        }
        if (a instanceof Float8Vector || a instanceof Float4Vector) {
            return Double.compare(getDouble(a, ia), getDouble(b, ib));
        }
        if (a instanceof ListVector la) {
            return ArrayValues.compare(ArrayValues.read(la, ia), ArrayValues.read((ListVector) b, ib));
        }
        if (a instanceof DecimalVector da && b instanceof DecimalVector db) {
            if (da.getScale() != db.getScale()) {
                return da.getObject(ia).compareTo(db.getObject(ib));
            }
            // 128-bit two's complement: the high words signed, then the low words unsigned
            long highA = decimalWord(da, ia, 8);
            long highB = decimalWord(db, ib, 8);
            return highA != highB ? Long.compare(highA, highB) : Long.compareUnsigned(decimalWord(da, ia, 0), decimalWord(db, ib, 0));
        }
        return Long.compare(getLong(a, ia), getLong(b, ib));
    }

    /** The low (offset 0) or high (offset 8) 64 bits of a DECIMAL cell. */
    private static long decimalWord(DecimalVector vector, int index, int offset)
    {
        return vector.getDataBuffer().getLong((long) index * DecimalVector.TYPE_WIDTH + offset);
    }
}
