package io.ontul.catalog.memory;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Finds INTEGER and BIGINT columns whose values are all distinct and non-NULL, so the planner
 * can treat them as keys when it orders joins (the statistics an ANALYZE would gather). A
 * column stops being checked at its first duplicate, so the cost for non-unique columns is
 * small; tables above {@value #MAX_ROWS} rows are not checked.
 */
final class MemoryColumnStatistics
{
    private static final long MAX_ROWS = 50_000_000;

    private MemoryColumnStatistics() {}

    static List<String> uniqueIntegerColumns(Schema schema, List<VectorSchemaRoot> batches)
    {
        long rows = batches.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
        List<String> unique = new ArrayList<>();
        if (rows == 0 || rows > MAX_ROWS) {
            return unique;
        }
        for (int column = 0; column < schema.getFields().size(); column++) {
            if (isUnique(batches, column, (int) rows)) {
                unique.add(schema.getFields().get(column).getName());
            }
        }
        return List.copyOf(unique);
    }

    private static boolean isUnique(List<VectorSchemaRoot> batches, int column, int rows)
    {
        FieldVector first = batches.get(0).getVector(column);
        if (!(first instanceof BigIntVector) && !(first instanceof IntVector)) {
            return false;
        }
        int capacity = Integer.highestOneBit(Math.max(rows, 1) * 2 - 1) << 1;
        long[] table = new long[capacity];
        boolean[] used = new boolean[capacity];
        int mask = capacity - 1;
        for (VectorSchemaRoot batch : batches) {
            FieldVector vector = batch.getVector(column);
            for (int row = 0; row < batch.getRowCount(); row++) {
                if (vector.isNull(row)) {
                    return false;
                }
                long value = vector instanceof BigIntVector big ? big.get(row) : ((IntVector) vector).get(row);
                long hash = value * 0x9E3779B97F4A7C15L;
                int slot = (int) (hash ^ (hash >>> 32)) & mask;
                while (used[slot]) {
                    if (table[slot] == value) {
                        return false;
                    }
                    slot = (slot + 1) & mask;
                }
                used[slot] = true;
                table[slot] = value;
            }
        }
        return true;
    }
}
