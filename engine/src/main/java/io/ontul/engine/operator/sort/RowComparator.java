package io.ontul.engine.operator.sort;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Columns;

/**
 * Compares rows of a list of batches, addressed by (batch, row), by a list of sort keys. Over
 * batches that stay as they are while it is used ({@link #overFixedBatches}: a sort's or a
 * window's rows), each key's vector and whether it holds NULLs are looked up once per batch, so
 * that comparing rows without NULLs skips the validity checks.
 */
public final class RowComparator
{
    private final List<VectorSchemaRoot> batches;
    private final SortKey[] keys;
    // by batch and key, for fixed batches; null otherwise
    private final FieldVector[][] vectors;
    private final boolean[][] nullable;

    /** Over {@code batches}, which may change between comparisons (the list and its batches are read at each one). */
    public RowComparator(List<VectorSchemaRoot> batches, List<SortKey> keys)
    {
        this.batches = batches;
        this.keys = keys.toArray(SortKey[]::new);
        this.vectors = null;
        this.nullable = null;
    }

    private RowComparator(List<VectorSchemaRoot> batches, SortKey[] keys, FieldVector[][] vectors, boolean[][] nullable)
    {
        this.batches = batches;
        this.keys = keys;
        this.vectors = vectors;
        this.nullable = nullable;
    }

    /** Over batches that neither change nor are added to while the comparator is used. */
    public static RowComparator overFixedBatches(List<VectorSchemaRoot> batches, List<SortKey> keys)
    {
        SortKey[] keyArray = keys.toArray(SortKey[]::new);
        FieldVector[][] vectors = new FieldVector[batches.size()][keyArray.length];
        boolean[][] nullable = new boolean[batches.size()][keyArray.length];
        for (int b = 0; b < vectors.length; b++) {
            for (int k = 0; k < keyArray.length; k++) {
                vectors[b][k] = batches.get(b).getVector(keyArray[k].column());
                nullable[b][k] = vectors[b][k].getNullCount() > 0;
            }
        }
        return new RowComparator(batches, keyArray, vectors, nullable);
    }

    public int compare(int batchA, int rowA, int batchB, int rowB)
    {
        for (int k = 0; k < keys.length; k++) {
            SortKey key = keys[k];
            FieldVector a;
            FieldVector b;
            boolean mayBeNull;
            if (vectors != null) {
                a = vectors[batchA][k];
                b = vectors[batchB][k];
                mayBeNull = nullable[batchA][k] || nullable[batchB][k];
            }
            else {
                a = batches.get(batchA).getVector(key.column());
                b = batches.get(batchB).getVector(key.column());
                mayBeNull = true;
            }
            if (mayBeNull) {
                boolean nullA = a.isNull(rowA);
                boolean nullB = b.isNull(rowB);
                if (nullA || nullB) {
                    if (nullA && nullB) {
                        continue;
                    }
                    return nullA == key.nullsFirst() ? -1 : 1;
                }
            }
            int result = Columns.compare(a, rowA, b, rowB);
            if (result != 0) {
                return key.descending() ? -result : result;
            }
        }
        return 0;
    }
}
