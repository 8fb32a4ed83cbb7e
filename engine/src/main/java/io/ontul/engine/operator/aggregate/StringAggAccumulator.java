package io.ontul.engine.operator.aggregate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
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
    private final List<RelFieldCollation> order;
    private List<Entry>[] entries = newEntries(0);
    private String[] separators = new String[0];

    /** @param separatorArgument the separator's column, or -1 for a comma */
    StringAggAccumulator(int argument, int separatorArgument, List<RelFieldCollation> order)
    {
        this.argument = argument;
        this.separatorArgument = separatorArgument;
        this.order = List.copyOf(order);
    }

    private record Entry(String value, Object[] keys) {}

    @SuppressWarnings("unchecked")
    private static List<Entry>[] newEntries(int length)
    {
        return (List<Entry>[]) new List<?>[length];
    }

    @Override
    public int bytesPerGroup()
    {
        return 64;
    }

    @Override
    public void ensureCapacity(int groupCount)
    {
        if (entries.length < groupCount) {
            int length = Math.max(groupCount, entries.length * 2);
            entries = Arrays.copyOf(entries, length);
            separators = Arrays.copyOf(separators, length);
        }
    }

    @Override
    public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
    {
        VarCharVector values = (VarCharVector) columns[argument];
        FieldVector separator = separatorArgument < 0 ? null : columns[separatorArgument];
        for (int row = 0; row < rowCount; row++) {
            if (!ColumnValues.counts(values, row, selected)) {
                continue;
            }
            int group = groupIds[row];
            if (separators[group] == null && separator != null && !separator.isNull(row)) {
                separators[group] = new String(((VarCharVector) separator).get(row), StandardCharsets.UTF_8);
            }
            Object[] keys = new Object[order.size()];
            for (int k = 0; k < keys.length; k++) {
                Object key = columns[order.get(k).getFieldIndex()].getObject(row);
                keys[k] = key instanceof org.apache.arrow.vector.util.Text text ? text.toString() : key;
            }
            append(group, new Entry(new String(values.get(row), StandardCharsets.UTF_8), keys));
        }
    }

    private void append(int group, Entry entry)
    {
        if (entries[group] == null) {
            entries[group] = new ArrayList<>();
        }
        entries[group].add(entry);
    }

    @Override
    public void write(FieldVector out, int from, int count, GroupInfo groups)
    {
        for (int i = 0; i < count; i++) {
            int group = from + i;
            List<Entry> list = entries[group];
            if (list == null) {
                out.setNull(i);
                continue;
            }
            if (!order.isEmpty()) {
                list.sort(this::compare);
            }
            String separator = separators[group] == null ? "," : separators[group];
            StringBuilder joined = new StringBuilder();
            for (Entry entry : list) {
                if (!joined.isEmpty()) {
                    joined.append(separator);
                }
                joined.append(entry.value());
            }
            ((VarCharVector) out).setSafe(i, joined.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private int compare(Entry left, Entry right)
    {
        for (int k = 0; k < order.size(); k++) {
            RelFieldCollation collation = order.get(k);
            Object a = left.keys()[k];
            Object b = right.keys()[k];
            int comparison;
            if (a == null || b == null) {
                boolean nullsFirst = collation.nullDirection == RelFieldCollation.NullDirection.FIRST;
                comparison = a == b ? 0 : (a == null) == nullsFirst ? -1 : 1;
            }
            else {
                Comparator<Object> natural = (x, y) -> ((Comparable) x).compareTo(y);
                comparison = collation.getDirection().isDescending() ? natural.compare(b, a) : natural.compare(a, b);
            }
            if (comparison != 0) {
                return comparison;
            }
        }
        return 0;
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
        if (!order.isEmpty()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "string_agg/listagg with ORDER BY cannot spill yet: raise query_max_memory or aggregate fewer groups");
        }
        VarCharVector joined = (VarCharVector) out[first];
        VarCharVector separator = (VarCharVector) out[first + 1];
        for (int i = 0; i < count; i++) {
            int group = groups[i];
            if (entries[group] == null) {
                joined.setNull(i);
                separator.setNull(i);
                continue;
            }
            String glue = separators[group] == null ? "," : separators[group];
            joined.setSafe(i, String.join(glue, entries[group].stream().map(Entry::value).toList()).getBytes(StandardCharsets.UTF_8));
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
            append(group, new Entry(new String(joined.get(row), StandardCharsets.UTF_8), new Object[0]));
        }
    }

    @Override
    public void reset()
    {
        entries = newEntries(0);
        separators = new String[0];
    }
}
