package io.ontul.engine.operator;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Compares rows of a list of batches, addressed by (batch, row), by a list of sort keys. */
final class RowComparator
{
    private final List<VectorSchemaRoot> batches;
    private final List<SortKey> keys;

    RowComparator(List<VectorSchemaRoot> batches, List<SortKey> keys)
    {
        this.batches = batches;
        this.keys = keys;
    }

    int compare(int batchA, int rowA, int batchB, int rowB)
    {
        for (SortKey key : keys) {
            FieldVector a = batches.get(batchA).getVector(key.column());
            FieldVector b = batches.get(batchB).getVector(key.column());
            boolean nullA = a.isNull(rowA);
            boolean nullB = b.isNull(rowB);
            int result;
            if (nullA || nullB) {
                if (nullA && nullB) {
                    continue;
                }
                result = nullA == key.nullsFirst() ? -1 : 1;
                return result;
            }
            result = Columns.compare(a, rowA, b, rowB);
            if (result != 0) {
                return key.descending() ? -result : result;
            }
        }
        return 0;
    }
}
