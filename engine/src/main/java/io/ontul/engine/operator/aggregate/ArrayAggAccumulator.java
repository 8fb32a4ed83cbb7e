package io.ontul.engine.operator.aggregate;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.expression.ArrayValues;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code array_agg(x [ORDER BY ...])} (Trino's, PostgreSQL's and DuckDB's): the group's values,
 * NULLs included, in the order asked for, else in the order the rows come; NULL for a group
 * without rows (only where FILTER leaves none, or a global aggregate over no rows). Spills as
 * the array built so far; with ORDER BY it cannot spill yet.
 */
final class ArrayAggAccumulator
        implements Accumulator
{
    private final int argument;
    private final RelDataType arrayType;
    private final OrderedValues values;

    ArrayAggAccumulator(int argument, RelDataType arrayType, List<RelFieldCollation> order)
    {
        this.argument = argument;
        this.arrayType = arrayType;
        this.values = new OrderedValues(order);
    }

    @Override
    public int bytesPerGroup()
    {
        return 64;
    }

    @Override
    public long heldBytes(int groupCount)
    {
        return (long) bytesPerGroup() * groupCount + values.bytes();
    }

    @Override
    public void ensureCapacity(int groupCount)
    {
        values.ensureCapacity(groupCount);
    }

    @Override
    public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
    {
        FieldVector vector = columns[argument];
        for (int row = 0; row < rowCount; row++) {
            if (selected == null || selected[row]) {
                values.add(groupIds[row], ArrayValues.element(vector, row), columns, row);
            }
        }
    }

    @Override
    public void write(FieldVector out, int from, int count, GroupInfo groups)
    {
        int[] written = new int[count];
        for (int i = 0; i < count; i++) {
            written[i] = from + i;
        }
        write(out, written, count);
    }

    @Override
    public List<Field> stateFields()
    {
        return List.of(ArrowTypes.toField("values", arrayType));
    }

    @Override
    public void writeState(FieldVector[] out, int first, int[] groups, int count)
    {
        if (values.ordered()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "array_agg with ORDER BY cannot spill yet: raise query_max_memory or aggregate fewer groups");
        }
        write(out[first], groups, count);
    }

    /** Writes the arrays of {@code groups[0..count)} at rows 0.. of {@code out}. */
    private void write(FieldVector out, int[] groups, int count)
    {
        ListVector arrays = (ListVector) out;
        for (int i = 0; i < count; i++) {
            List<Object> group = values.values(groups[i]);
            if (group == null) {
                arrays.setNull(i);
            }
            else {
                ArrayValues.write(arrays, i, group);
            }
        }
    }

    @Override
    public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
    {
        ListVector arrays = (ListVector) columns[first];
        for (int row = 0; row < rowCount; row++) {
            if (!arrays.isNull(row)) {
                for (Object value : ArrayValues.read(arrays, row)) {
                    values.add(groupIds[row], value, new Object[0]);
                }
            }
        }
    }

    @Override
    public void reset()
    {
        values.reset();
    }
}
