package io.ontul.engine.operator.aggregate;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;

import io.ontul.engine.expression.Functions;
import io.ontul.engine.operator.Columns;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code approx_percentile(x, percentage)} (Trino's): the value at {@code percentage} (0 to 1,
 * the same for every row) of the group's non-NULL values, estimated by a KLL sketch of Apache
 * DataSketches per group (k = 200: a rank error of about 1.3%; exact, one of the values, while a
 * group has seen fewer than 200). The result has x's type. NULL for a group without values.
 */
final class ApproxPercentileAccumulator
        implements Accumulator
{
    private static final int K = 200;

    private final int argument;
    private final int percentageArgument;
    private KllDoublesSketch[] sketches = new KllDoublesSketch[0];
    private double percentage = Double.NaN;

    ApproxPercentileAccumulator(int argument, int percentageArgument)
    {
        this.argument = argument;
        this.percentageArgument = percentageArgument;
    }

    @Override
    public int bytesPerGroup()
    {
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
        FieldVector percentages = columns[percentageArgument];
        for (int row = 0; row < rowCount; row++) {
            if (!ColumnValues.counts(values, row, selected)) {
                continue;
            }
            checkPercentage(percentages.isNull(row) ? Double.NaN : value(percentages, row));
            sketch(groupIds[row]).update(value(values, row));
        }
    }

    /** A numeric cell as a double; decimals by their value, not their unscaled digits. */
    private static double value(FieldVector vector, int row)
    {
        if (vector instanceof DecimalVector decimal) {
            return Columns.getLong(decimal, row) / Math.pow(10, decimal.getScale());
        }
        return Columns.getDouble(vector, row);
    }

    private void checkPercentage(double value)
    {
        if (value == percentage) {
            return;
        }
        if (!(value >= 0 && value <= 1)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "approx_percentile: the percentage must be between 0 and 1, not " + (Double.isNaN(value) ? "NULL" : format(value)));
        }
        if (!Double.isNaN(percentage)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "approx_percentile: the percentage must be the same for every row, not " + format(percentage) + " and " + format(value));
        }
        percentage = value;
    }

    private static String format(double value)
    {
        return String.format(Locale.ROOT, "%s", value);
    }

    private KllDoublesSketch sketch(int group)
    {
        KllDoublesSketch sketch = sketches[group];
        if (sketch == null) {
            sketch = KllDoublesSketch.newHeapInstance(K);
            sketches[group] = sketch;
        }
        return sketch;
    }

    @Override
    public void write(FieldVector out, int from, int count, GroupInfo groups)
    {
        for (int i = 0; i < count; i++) {
            KllDoublesSketch sketch = sketches[from + i];
            if (sketch == null || sketch.isEmpty()) {
                out.setNull(i);
                continue;
            }
            double value = sketch.getQuantile(percentage);
            if (out instanceof Float8Vector v) {
                v.set(i, value);
            }
            else if (out instanceof Float4Vector v) {
                v.set(i, (float) value);
            }
            else if (out instanceof BigIntVector v) {
                v.set(i, Math.round(value));
            }
            else if (out instanceof IntVector v) {
                v.set(i, (int) Math.round(value));
            }
            else if (out instanceof SmallIntVector v) {
                v.set(i, (short) Math.round(value));
            }
            else if (out instanceof TinyIntVector v) {
                v.set(i, (byte) Math.round(value));
            }
            else if (out instanceof DecimalVector v) {
                v.set(i, Functions.unscaledExact(BigDecimal.valueOf(value), v.getScale()));
            }
            else {
                throw new IllegalStateException("approx_percentile cannot write " + out.getMinorType());
            }
        }
    }

    @Override
    public List<Field> stateFields()
    {
        return List.of(StateVectors.binaryField("kll"), StateVectors.doubleField("percentage"));
    }

    @Override
    public void writeState(FieldVector[] out, int first, int[] groups, int count)
    {
        VarBinaryVector state = (VarBinaryVector) out[first];
        for (int i = 0; i < count; i++) {
            KllDoublesSketch sketch = sketches[groups[i]];
            if (sketch == null) {
                state.setNull(i);
            }
            else {
                state.setSafe(i, sketch.toByteArray());
            }
            if (Double.isNaN(percentage)) {
                out[first + 1].setNull(i);
            }
            else {
                StateVectors.setDouble(out[first + 1], i, percentage);
            }
        }
    }

    @Override
    public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
    {
        VarBinaryVector state = (VarBinaryVector) columns[first];
        for (int row = 0; row < rowCount; row++) {
            if (!columns[first + 1].isNull(row)) {
                checkPercentage(((Float8Vector) columns[first + 1]).get(row));
            }
            if (!state.isNull(row)) {
                sketch(groupIds[row]).merge(KllDoublesSketch.heapify(Memory.wrap(state.get(row))));
            }
        }
    }

    @Override
    public void reset()
    {
        sketches = new KllDoublesSketch[0];
    }
}
