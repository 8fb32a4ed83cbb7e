package io.ontul.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.Columns;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code min_by(x, key)} and {@code max_by(x, key)} (Trino's names; Calcite's ARG_MIN and
 * ARG_MAX): the x of the row with the smallest or largest key. Rows whose key is NULL do not
 * count; x may be NULL (then so is the result); among equal keys the first row seen wins.
 */
final class ArgExtremeAccumulator
        implements Accumulator
{
    private final int valueArgument;
    private final int keyArgument;
    private final boolean max;
    private final Slots keys;
    private final Slots values;
    private boolean[] seen = new boolean[0];

    ArgExtremeAccumulator(int valueArgument, int keyArgument, boolean max, RelDataType valueType, RelDataType keyType)
    {
        this.valueArgument = valueArgument;
        this.keyArgument = keyArgument;
        this.max = max;
        if (valueType.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY || keyType.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, (max ? "max_by" : "min_by") + " of ARRAY values or keys is not supported yet");
        }
        this.keys = new Slots(keyType);
        this.values = new Slots(valueType);
    }

    @Override
    public int bytesPerGroup()
    {
        return 1 + keys.bytesPerGroup() + values.bytesPerGroup();
    }

    @Override
    public void ensureCapacity(int groupCount)
    {
        if (seen.length < groupCount) {
            int length = Math.max(groupCount, seen.length * 2);
            seen = Arrays.copyOf(seen, length);
            keys.grow(length);
            values.grow(length);
        }
    }

    @Override
    public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
    {
        FieldVector key = columns[keyArgument];
        FieldVector value = columns[valueArgument];
        for (int row = 0; row < rowCount; row++) {
            if (ColumnValues.counts(key, row, selected)) {
                offer(groupIds[row], key, row, value, row);
            }
        }
    }

    private void offer(int group, FieldVector key, int keyRow, FieldVector value, int valueRow)
    {
        if (seen[group]) {
            int comparison = keys.compare(key, keyRow, group);
            if (max ? comparison <= 0 : comparison >= 0) {
                return;
            }
        }
        seen[group] = true;
        keys.set(group, key, keyRow);
        values.set(group, value, valueRow);
    }

    @Override
    public void write(FieldVector out, int from, int count, GroupInfo groups)
    {
        for (int i = 0; i < count; i++) {
            int group = from + i;
            if (!seen[group]) {
                out.setNull(i);
            }
            else {
                values.write(out, i, group);
            }
        }
    }

    @Override
    public List<Field> stateFields()
    {
        return List.of(keys.stateField("key"), values.stateField("value"));
    }

    @Override
    public void writeState(FieldVector[] out, int first, int[] groups, int count)
    {
        for (int i = 0; i < count; i++) {
            int group = groups[i];
            if (!seen[group]) {
                out[first].setNull(i);
                out[first + 1].setNull(i);
            }
            else {
                keys.writeState(out[first], i, group);
                values.writeState(out[first + 1], i, group);
            }
        }
    }

    @Override
    public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
    {
        for (int row = 0; row < rowCount; row++) {
            if (!columns[first].isNull(row)) {
                offer(groupIds[row], columns[first], row, columns[first + 1], row);
            }
        }
    }

    @Override
    public void reset()
    {
        seen = new boolean[0];
        keys.grow(0);
        values.grow(0);
    }

    /**
     * One value per group, of one of the three kinds accumulators hold (as {@link StateVectors}):
     * text as UTF-8 bytes, floating numbers as doubles, everything else as longs
     * ({@link Columns#getLong}: integers, unscaled decimals, dates, timestamps); NULL kept apart.
     */
    private static final class Slots
    {
        private final boolean text;
        private final boolean floating;
        private long[] longs = new long[0];
        private double[] doubles = new double[0];
        private byte[][] texts = new byte[0][];
        private boolean[] nulls = new boolean[0];

        Slots(RelDataType type)
        {
            this.text = io.ontul.engine.expression.Vectors.heldAsBytes(type);
            this.floating = Accumulators.isFloating(type);
        }

        int bytesPerGroup()
        {
            return text ? 40 : 9;
        }

        void grow(int length)
        {
            nulls = Arrays.copyOf(nulls, length);
            if (text) {
                texts = Arrays.copyOf(texts, length);
            }
            else if (floating) {
                doubles = Arrays.copyOf(doubles, length);
            }
            else {
                longs = Arrays.copyOf(longs, length);
            }
        }

        /** Compares the non-NULL value at {@code row} of {@code vector} with the group's (non-NULL) one. */
        int compare(FieldVector vector, int row, int group)
        {
            if (text) {
                return Arrays.compareUnsigned(((BaseVariableWidthVector) vector).get(row), texts[group]);
            }
            if (floating) {
                return Double.compare(Columns.getDouble(vector, row), doubles[group]);
            }
            return Long.compare(Columns.getLong(vector, row), longs[group]);
        }

        void set(int group, FieldVector vector, int row)
        {
            nulls[group] = vector.isNull(row);
            if (nulls[group]) {
                return;
            }
            if (text) {
                texts[group] = ((BaseVariableWidthVector) vector).get(row);
            }
            else if (floating) {
                doubles[group] = Columns.getDouble(vector, row);
            }
            else {
                longs[group] = Columns.getLong(vector, row);
            }
        }

        /** Writes the group's value in the output column's own type. */
        void write(FieldVector out, int index, int group)
        {
            if (nulls[group]) {
                out.setNull(index);
            }
            else if (text) {
                ((BaseVariableWidthVector) out).setSafe(index, texts[group]);
            }
            else if (floating) {
                if (out instanceof Float4Vector v) {
                    v.setSafe(index, (float) doubles[group]);
                }
                else {
                    ((Float8Vector) out).setSafe(index, doubles[group]);
                }
            }
            else {
                LongWriter.write(out, index, longs[group]);
            }
        }

        Field stateField(String name)
        {
            return text ? StateVectors.textField(name) : floating ? StateVectors.doubleField(name) : StateVectors.longField(name);
        }

        void writeState(FieldVector out, int index, int group)
        {
            if (nulls[group]) {
                out.setNull(index);
            }
            else if (text) {
                ((BaseVariableWidthVector) out).setSafe(index, texts[group]);
            }
            else if (floating) {
                StateVectors.setDouble(out, index, doubles[group]);
            }
            else {
                StateVectors.setLong(out, index, longs[group]);
            }
        }
    }
}
