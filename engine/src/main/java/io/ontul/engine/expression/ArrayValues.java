package io.ontul.engine.expression;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * ARRAY values: an Arrow {@link ListVector} cell is a {@code List} in generated code whose
 * elements are boxed as generated code holds their type ({@link JavaKind}: Integer for INTEGER,
 * DATE and TIME; Long for BIGINT, TIMESTAMP and DECIMAL's unscaled value; Double; Boolean;
 * String for text and UUID; byte[] for VARBINARY; List for nested arrays), NULL elements as null.
 * Arrays compare element by element, a shorter prefix first, NULL elements last.
 */
public final class ArrayValues
{
    private ArrayValues() {}

    /** Row {@code index} of {@code vector} (not null). */
    public static List<Object> read(ListVector vector, int index)
    {
        int start = vector.getElementStartIndex(index);
        int end = vector.getElementEndIndex(index);
        FieldVector data = vector.getDataVector();
        Object[] values = new Object[end - start];
        for (int i = 0; i < values.length; i++) {
            values[i] = element(data, start + i);
        }
        return Arrays.asList(values);
    }

    /** Writes {@code values} at row {@code index} of {@code vector} (growing it as needed). */
    public static void write(ListVector vector, int index, List<?> values)
    {
        int start = vector.startNewValue(index);
        FieldVector data = vector.getDataVector();
        for (int i = 0; i < values.size(); i++) {
            setElement(data, start + i, values.get(i));
        }
        vector.endValue(index, values.size());
    }

    /** The cell as generated code holds it, boxed; null for NULL. */
    public static Object element(FieldVector vector, int index)
    {
        if (vector.isNull(index)) {
            return null;
        }
        if (vector instanceof IntVector v) {
            return v.get(index);
        }
        if (vector instanceof BigIntVector v) {
            return v.get(index);
        }
        if (vector instanceof VarCharVector v) {
            return new String(v.get(index), UTF_8);
        }
        if (vector instanceof Float8Vector v) {
            return v.get(index);
        }
        if (vector instanceof DecimalVector v) {
            return Vectors.readDecimal(v, index);
        }
        if (vector instanceof DateDayVector v) {
            return v.get(index);
        }
        if (vector instanceof TimeStampVector v) {
            return v.get(index);
        }
        if (vector instanceof BitVector v) {
            return v.get(index) != 0;
        }
        if (vector instanceof TinyIntVector v) {
            return (int) v.get(index);
        }
        if (vector instanceof SmallIntVector v) {
            return (int) v.get(index);
        }
        if (vector instanceof TimeMilliVector v) {
            return v.get(index);
        }
        if (vector instanceof Float4Vector v) {
            return (double) v.get(index);
        }
        if (vector instanceof VarBinaryVector v) {
            return v.get(index);
        }
        if (vector instanceof ListVector v) {
            return read(v, index);
        }
        throw new OntulException(ErrorCode.NOT_SUPPORTED, "Arrays of " + vector.getField().getType() + " are not supported");
    }

    /** Writes a value held as {@link #element} returns it (or null) at {@code index}, growing the vector as needed. */
    public static void setElement(FieldVector vector, int index, Object value)
    {
        if (value == null) {
            Vectors.setNullSafe(vector, index);
            return;
        }
        if (vector instanceof IntVector v) {
            v.setSafe(index, ((Number) value).intValue());
        }
        else if (vector instanceof BigIntVector v) {
            v.setSafe(index, ((Number) value).longValue());
        }
        else if (vector instanceof VarCharVector v) {
            v.setSafe(index, ((String) value).getBytes(UTF_8));
        }
        else if (vector instanceof Float8Vector v) {
            v.setSafe(index, ((Number) value).doubleValue());
        }
        else if (vector instanceof DecimalVector v) {
            while (v.getValueCapacity() <= index) {
                v.reAlloc();
            }
            Vectors.writeDecimal(v, index, ((Number) value).longValue());
        }
        else if (vector instanceof DateDayVector v) {
            v.setSafe(index, ((Number) value).intValue());
        }
        else if (vector instanceof TimeStampVector v) {
            v.setSafe(index, ((Number) value).longValue());
        }
        else if (vector instanceof BitVector v) {
            v.setSafe(index, (Boolean) value ? 1 : 0);
        }
        else if (vector instanceof TinyIntVector v) {
            v.setSafe(index, ((Number) value).byteValue());
        }
        else if (vector instanceof SmallIntVector v) {
            v.setSafe(index, ((Number) value).shortValue());
        }
        else if (vector instanceof TimeMilliVector v) {
            v.setSafe(index, ((Number) value).intValue());
        }
        else if (vector instanceof Float4Vector v) {
            v.setSafe(index, ((Number) value).floatValue());
        }
        else if (vector instanceof VarBinaryVector v) {
            v.setSafe(index, (byte[]) value);
        }
        else if (vector instanceof ListVector v) {
            write(v, index, (List<?>) value);
        }
        else {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "Arrays of " + vector.getField().getType() + " are not supported");
        }
    }

    /** {@code array[i]}: 1-based; an index outside the array is an error (as in Trino). */
    public static Object subscript(List<?> array, long index)
    {
        if (index < 1 || index > array.size()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Array subscript " + index + " is out of bounds: the array has " + array.size()
                    + " elements (element_at gives NULL instead)");
        }
        return array.get((int) index - 1);
    }

    /** Trino's {@code element_at(array, i)}: 1-based, negative from the end, NULL outside the array; 0 is an error. */
    public static Object elementAt(List<?> array, long index)
    {
        if (index == 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "element_at: SQL array indices start at 1");
        }
        long position = index > 0 ? index : array.size() + index + 1;
        return position < 1 || position > array.size() ? null : array.get((int) position - 1);
    }

    /**
     * Trino's {@code contains(array, x)}: TRUE when an element equals x; else NULL when the array
     * holds a NULL (it might have been x), else FALSE. (A NULL x is NULL; callers check.)
     */
    public static Boolean contains(List<?> array, Object value)
    {
        boolean sawNull = false;
        for (Object element : array) {
            if (element == null) {
                sawNull = true;
            }
            else if (equal(element, value)) {
                return true;
            }
        }
        return sawNull ? null : false;
    }

    /** Trino's {@code array_join(array, delimiter[, null_replacement])}: NULL elements left out unless replaced. */
    public static String join(List<?> array, String delimiter, String nullReplacement)
    {
        StringBuilder joined = new StringBuilder();
        boolean first = true;
        for (Object element : array) {
            if (element == null && nullReplacement == null) {
                continue;
            }
            if (!first) {
                joined.append(delimiter);
            }
            first = false;
            joined.append(element == null ? nullReplacement : text(element));
        }
        return joined.toString();
    }

    private static String text(Object element)
    {
        if (element instanceof byte[] bytes) {
            return BinaryFunctions.toHex(bytes);
        }
        return String.valueOf(element);
    }

    public static List<?> greatest(List<?> a, List<?> b)
    {
        return compare(a, b) >= 0 ? a : b;
    }

    public static List<?> least(List<?> a, List<?> b)
    {
        return compare(a, b) <= 0 ? a : b;
    }

    /** Builds an array of the given elements (generated code boxes them). */
    public static List<Object> of(Object... elements)
    {
        return Arrays.asList(elements);
    }

    /** The elements of several arrays, in order (array_agg's merge of partial arrays). */
    public static List<Object> concat(List<List<Object>> parts)
    {
        List<Object> all = new ArrayList<>();
        for (List<Object> part : parts) {
            all.addAll(part);
        }
        return all;
    }

    /** Approximate heap bytes of a value held as {@link #element} returns it. */
    public static long estimatedBytes(Object value)
    {
        if (value == null) {
            return 0;
        }
        if (value instanceof String text) {
            return 40 + 2L * text.length();
        }
        if (value instanceof byte[] bytes) {
            return 16 + bytes.length;
        }
        if (value instanceof List<?> list) {
            long bytes = 40;
            for (Object element : list) {
                bytes += 8 + estimatedBytes(element);
            }
            return bytes;
        }
        return 16;
    }

    /** Equality of two elements of the same type, NULL equal to NULL (grouping, DISTINCT). */
    public static boolean equal(Object a, Object b)
    {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            return x.doubleValue() == y.doubleValue() || (x.isNaN() && y.isNaN());
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** A hash consistent with {@link #equal}. */
    public static long hash(Object value)
    {
        if (value == null) {
            return 0x5bd1e995L;
        }
        if (value instanceof byte[] bytes) {
            return Arrays.hashCode(bytes);
        }
        if (value instanceof Double d) {
            return Double.hashCode(d == 0.0 ? 0.0 : d);
        }
        if (value instanceof List<?> list) {
            long h = 1;
            for (Object element : list) {
                h = 31 * h + hash(element);
            }
            return h;
        }
        return value.hashCode();
    }

    /** Ordering: element by element, NULL elements after the others, a prefix before the longer array. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compare(Object a, Object b)
    {
        if (a == null || b == null) {
            return a == b ? 0 : a == null ? 1 : -1;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                int c = compare(x.get(i), y.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(x.size(), y.size());
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.compareUnsigned(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return Functions.compareStrings(x, y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            // -0.0 equals 0.0, as equal() and hash() have it
            return Double.compare(x + 0.0, y + 0.0);
        }
        return ((Comparable) a).compareTo(b);
    }
}
