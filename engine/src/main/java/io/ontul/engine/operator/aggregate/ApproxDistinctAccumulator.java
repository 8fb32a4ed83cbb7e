package io.ontul.engine.operator.aggregate;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

import io.ontul.engine.operator.Columns;

/**
 * {@code approx_distinct(x)} (Trino's): the number of distinct non-NULL values, estimated by an
 * HLL sketch of Apache DataSketches per group (2^11 buckets: a standard error of about 2.3%,
 * Trino's default; exact while a group has seen a few hundred values). 0 for a group without
 * values. The sketches spill in their compact form and merge exactly.
 */
final class ApproxDistinctAccumulator
        implements Accumulator
{
    static final int LG_BUCKETS = 11;

    private final int argument;
    private Union[] sketches = new Union[0];

    ApproxDistinctAccumulator(int argument)
    {
        this.argument = argument;
    }

    @Override
    public int bytesPerGroup()
    {
        // sparse while small; a dense HLL_8 gadget holds 2^11 bytes
        return 256;
    }

    @Override
    public void ensureCapacity(int groupCount)
    {
        if (sketches.length < groupCount) {
            sketches = Arrays.copyOf(sketches, Math.max(groupCount, sketches.length * 2));
        }
    }

    @Override
    public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
    {
        FieldVector values = columns[argument];
        boolean longs = Columns.isLongLike(values);
        long[] asLongs = longs ? ColumnValues.longs(values, rowCount) : null;
        for (int row = 0; row < rowCount; row++) {
            if (!ColumnValues.counts(values, row, selected)) {
                continue;
            }
            Union sketch = sketch(groupIds[row]);
            if (longs) {
                sketch.update(asLongs[row]);
            }
            else if (values instanceof Float8Vector || values instanceof Float4Vector) {
                // -0.0 and 0.0 are one value, as in count(DISTINCT x)
                double value = Columns.getDouble(values, row);
                sketch.update(value == 0.0 ? 0.0 : value);
            }
            else if (values instanceof VarCharVector text) {
                sketch.update(text.get(row));
            }
            else if (values instanceof VarBinaryVector binary) {
                sketch.update(binary.get(row));
            }
            else {
                sketch.update(String.valueOf(values.getObject(row)).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private Union sketch(int group)
    {
        Union sketch = sketches[group];
        if (sketch == null) {
            sketch = new Union(LG_BUCKETS);
            sketches[group] = sketch;
        }
        return sketch;
    }

    @Override
    public void write(FieldVector out, int from, int count, GroupInfo groups)
    {
        for (int i = 0; i < count; i++) {
            Union sketch = sketches[from + i];
            Accumulators.writeLong(out, i, sketch == null ? 0 : Math.round(sketch.getEstimate()));
        }
    }

    @Override
    public List<Field> stateFields()
    {
        return List.of(StateVectors.binaryField("hll"));
    }

    @Override
    public void writeState(FieldVector[] out, int first, int[] groups, int count)
    {
        VarBinaryVector state = (VarBinaryVector) out[first];
        for (int i = 0; i < count; i++) {
            Union sketch = sketches[groups[i]];
            if (sketch == null) {
                state.setNull(i);
            }
            else {
                state.setSafe(i, sketch.getResult(TgtHllType.HLL_8).toCompactByteArray());
            }
        }
    }

    @Override
    public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
    {
        VarBinaryVector state = (VarBinaryVector) columns[first];
        for (int row = 0; row < rowCount; row++) {
            if (!state.isNull(row)) {
                sketch(groupIds[row]).update(HllSketch.heapify(state.get(row)));
            }
        }
    }

    @Override
    public void reset()
    {
        sketches = new Union[0];
    }
}
