package io.ontul.engine.operator.aggregate;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.RelFieldCollation;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code string_agg(x, separator [ORDER BY ...])} (PostgreSQL's and DuckDB's) and
 * {@code listagg(x, separator) WITHIN GROUP (ORDER BY ...)} (SQL's and Trino's): the non-NULL
 * strings of the group joined by the separator (the first non-NULL one the group sees; a comma
 * when there is none), in the order asked for, else in the order the rows come. NULL for a
 * group without strings.
 */
final class StringAggAccumulator
        implements Accumulator
{
    private final int argument;
    private final int separatorArgument;
    private final OrderedValues values;
    private String[] separators = new String[0];

    /** @param separatorArgument the separator's column, or -1 for a comma */
    StringAggAccumulator(int argument, int separatorArgument, List<RelFieldCollation> order)
    {
        this.argument = argument;
        this.separatorArgument = separatorArgument;
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
        if (separators.length < groupCount) {
            separators = Arrays.copyOf(separators, Math.max(groupCount, separators.length * 2));
        }
    }

    @Override
    public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
    {
        VarCharVector strings = (VarCharVector) columns[argument];
        FieldVector separator = separatorArgument < 0 ? null : columns[separatorArgument];
        for (int row = 0; row < rowCount; row++) {
            if (!ColumnValues.counts(strings, row, selected)) {
                continue;
            }
            int group = groupIds[row];
            if (separators[group] == null && separator != null && !separator.isNull(row)) {
                separators[group] = new String(((VarCharVector) separator).get(row), StandardCharsets.UTF_8);
            }
            values.add(group, new String(strings.get(row), StandardCharsets.UTF_8), columns, row);
        }
    }

    @Override
    public void write(FieldVector out, int from, int count, GroupInfo groups)
    {
        for (int i = 0; i < count; i++) {
            String joined = joined(from + i);
            if (joined == null) {
                out.setNull(i);
            }
            else {
                ((VarCharVector) out).setSafe(i, joined.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** The group's strings joined in order, or null when it has none. */
    private String joined(int group)
    {
        List<Object> strings = values.values(group);
        if (strings == null) {
            return null;
        }
        String separator = separators[group] == null ? "," : separators[group];
        StringBuilder joined = new StringBuilder();
        for (Object string : strings) {
            if (!joined.isEmpty()) {
                joined.append(separator);
            }
            joined.append(string);
        }
        return joined.toString();
    }

    @Override
    public List<Field> stateFields()
    {
        return List.of(StateVectors.textField("joined"), StateVectors.textField("separator"));
    }

    /** Unordered: the strings joined so far; an ordered aggregate cannot spill yet (its keys would have to travel too). */
    @Override
    public void writeState(FieldVector[] out, int first, int[] groups, int count)
    {
        if (values.ordered()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "string_agg/listagg with ORDER BY cannot spill yet: raise query_max_memory or aggregate fewer groups");
        }
        VarCharVector joined = (VarCharVector) out[first];
        VarCharVector separator = (VarCharVector) out[first + 1];
        for (int i = 0; i < count; i++) {
            int group = groups[i];
            String text = joined(group);
            if (text == null) {
                joined.setNull(i);
                separator.setNull(i);
                continue;
            }
            joined.setSafe(i, text.getBytes(StandardCharsets.UTF_8));
            if (separators[group] == null) {
                separator.setNull(i);
            }
            else {
                separator.setSafe(i, separators[group].getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @Override
    public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
    {
        VarCharVector joined = (VarCharVector) columns[first];
        VarCharVector separator = (VarCharVector) columns[first + 1];
        for (int row = 0; row < rowCount; row++) {
            if (joined.isNull(row)) {
                continue;
            }
            int group = groupIds[row];
            if (separators[group] == null && !separator.isNull(row)) {
                separators[group] = new String(separator.get(row), StandardCharsets.UTF_8);
            }
            values.add(group, new String(joined.get(row), StandardCharsets.UTF_8), new Object[0]);
        }
    }

    @Override
    public void reset()
    {
        values.reset();
        separators = new String[0];
    }
}
