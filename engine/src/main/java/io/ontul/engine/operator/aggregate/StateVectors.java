package io.ontul.engine.operator.aggregate;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.operator.Columns;

/**
 * The column types accumulator state is spilled in: BIGINT for counts, integer-like values
 * (as {@link Columns#getLong}) and unscaled decimals, DOUBLE for floating values, VARCHAR for
 * text, VARBINARY for sketches. Reads go through the data buffers, never {@code get} on a NULL cell.
 */
final class StateVectors
{
    private StateVectors() {}

    static Field longField(String name)
    {
        return Field.nullable(name, new ArrowType.Int(64, true));
    }

    static Field doubleField(String name)
    {
        return Field.nullable(name, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    }

    static Field textField(String name)
    {
        return Field.nullable(name, ArrowType.Utf8.INSTANCE);
    }

    /** {@code field} made nullable (its children as they are): a state column of a value's own type, an ARRAY say. */
    static Field nullable(Field field)
    {
        return new Field(field.getName(), new org.apache.arrow.vector.types.pojo.FieldType(true, field.getType(), null, field.getMetadata()), field.getChildren());
    }

    /** VARBINARY: a sketch's serialized form. */
    static Field binaryField(String name)
    {
        return Field.nullable(name, ArrowType.Binary.INSTANCE);
    }

    /** The cells of a BIGINT state column, 0 where NULL. */
    static long[] longs(FieldVector vector, int rowCount)
    {
        return Columns.longs(vector, rowCount);
    }

    /** The cells of a DOUBLE state column, 0 where NULL. */
    static double[] doubles(FieldVector vector, int rowCount)
    {
        Float8Vector doubles = (Float8Vector) vector;
        var data = doubles.getDataBuffer();
        double[] values = new double[rowCount];
        for (int i = 0; i < rowCount; i++) {
            values[i] = doubles.isNull(i) ? 0 : data.getDouble((long) i * Float8Vector.TYPE_WIDTH);
        }
        return values;
    }

    static void setLong(FieldVector vector, int index, long value)
    {
        ((BigIntVector) vector).set(index, value);
    }

    static void setDouble(FieldVector vector, int index, double value)
    {
        ((Float8Vector) vector).set(index, value);
    }
}
