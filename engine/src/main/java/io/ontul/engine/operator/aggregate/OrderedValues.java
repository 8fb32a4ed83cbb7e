package io.ontul.engine.operator.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.calcite.rel.RelFieldCollation;

import io.ontul.engine.expression.ArrayValues;

/**
 * The values an ordered aggregate ({@code string_agg(x ORDER BY ...)}, {@code array_agg(x ORDER
 * BY ...)}) keeps per group, each with the keys of its ORDER BY (held as {@link ArrayValues}
 * holds values, so keys of every type compare, text by its bytes), sorted when the group is
 * written.
 */
final class OrderedValues
{
    private final List<RelFieldCollation> order;
    private List<Entry>[] entries = newEntries(0);
    private long bytes;

    record Entry(Object value, Object[] keys) {}

    OrderedValues(List<RelFieldCollation> order)
    {
        this.order = List.copyOf(order);
    }

    boolean ordered()
    {
        return !order.isEmpty();
    }

    void ensureCapacity(int groupCount)
    {
        if (entries.length < groupCount) {
            entries = Arrays.copyOf(entries, Math.max(groupCount, entries.length * 2));
        }
    }

    /** Adds a value to a group, with the ORDER BY keys of row {@code row} of {@code columns}. */
    void add(int group, Object value, FieldVector[] columns, int row)
    {
        Object[] keys = new Object[order.size()];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = ArrayValues.element(columns[order.get(k).getFieldIndex()], row);
        }
        add(group, value, keys);
    }

    void add(int group, Object value, Object[] keys)
    {
        if (entries[group] == null) {
            entries[group] = new ArrayList<>();
        }
        entries[group].add(new Entry(value, keys));
        bytes += 48 + ArrayValues.estimatedBytes(value);
        for (Object key : keys) {
            bytes += ArrayValues.estimatedBytes(key);
        }
    }

    /** Whether the group has seen a value. */
    boolean has(int group)
    {
        return entries[group] != null;
    }

    /** The group's values, in the ORDER BY's order (else as they came); null when it has none. */
    List<Object> values(int group)
    {
        List<Entry> list = entries[group];
        if (list == null) {
            return null;
        }
        if (!order.isEmpty()) {
            list.sort(this::compare);
        }
        List<Object> values = new ArrayList<>(list.size());
        for (Entry entry : list) {
            values.add(entry.value());
        }
        return values;
    }

    /** Approximate heap bytes of the values and keys held. */
    long bytes()
    {
        return bytes;
    }

    void reset()
    {
        entries = newEntries(0);
        bytes = 0;
    }

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
                comparison = collation.getDirection().isDescending() ? ArrayValues.compare(b, a) : ArrayValues.compare(a, b);
            }
            if (comparison != 0) {
                return comparison;
            }
        }
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static List<Entry>[] newEntries(int length)
    {
        return (List<Entry>[]) new List<?>[length];
    }
}
