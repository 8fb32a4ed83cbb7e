package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Columns;

/**
 * Assigns rows to {@link #FAN_OUT} hash partitions by the columns every window group partitions
 * by. Rows whose key columns are equal (NULL equal to NULL) get the same partition at every
 * level, so a window partition never straddles two hash partitions. Each level reads other bits
 * of the same 64-bit hash, so re-partitioning one hash partition at the next level splits it.
 */
final class WindowPartitionHash
{
    static final int BITS = 4;
    static final int FAN_OUT = 1 << BITS;
    /** Levels 0..MAX_LEVEL: up to FAN_OUT^(MAX_LEVEL + 1) partitions in all. */
    static final int MAX_LEVEL = 3;

    private final int[] keyColumns;

    WindowPartitionHash(int[] keyColumns)
    {
        this.keyColumns = requireNonNull(keyColumns, "keyColumns is null").clone();
        if (keyColumns.length == 0) {
            throw new IllegalArgumentException("no key columns");
        }
    }

    /** The 64-bit hash of every row of {@code batch}: equal keys, equal hashes. */
    long[] hashes(VectorSchemaRoot batch)
    {
        int rows = batch.getRowCount();
        long[] hashes = new long[rows];
        for (int column : keyColumns) {
            Columns.hashInto(batch.getVector(column), rows, hashes);
        }
        for (int i = 0; i < rows; i++) {
            hashes[i] = finish(hashes[i]);
        }
        return hashes;
    }

    /** The partition (0..FAN_OUT-1) of a row with this {@link #hashes hash} at {@code level}. */
    static int partition(long hash, int level)
    {
        if (level < 0 || level > MAX_LEVEL) {
            throw new IllegalArgumentException("level out of range: " + level);
        }
        return (int) (hash >>> (Long.SIZE - BITS * (level + 1))) & (FAN_OUT - 1);
    }

    /** Spreads every input bit over the whole word (the MurmurHash3 finalizer). */
    private static long finish(long hash)
    {
        long h = hash;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
