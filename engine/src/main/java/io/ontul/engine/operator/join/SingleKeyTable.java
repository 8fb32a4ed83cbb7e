package io.ontul.engine.operator.join;

import io.ontul.engine.operator.Columns;

/**
 * The lookup of a hash join on one integer-like key: from a key to the last build row holding it
 * (the others follow by the build's chain). Three shapes, chosen from the keys' range:
 * <ul>
 * <li><b>direct</b>, when the keys are dense (their range at most {@link #DIRECT_SPREAD} times the
 * slots a hash table would take, so no more memory than it): an array indexed by key minus the
 * smallest key, as DuckDB's perfect hash join; a lookup is a subtraction and one read;</li>
 * <li><b>hashed</b> otherwise: open addressing over distinct keys, a slot two longs (the key and
 * its row, -1 when empty), so a probe reads one cache line;</li>
 * <li>either way, a probe key outside [smallest, largest] misses at once, and a sparse hashed
 * table whose range is small enough has a bitmap of the keys present
 * (at most {@link #BITMAP_BYTES}), so most probe keys that miss do so without hashing and
 * without touching the table: a join on a few hundred parts out of 200,000.</li>
 * </ul>
 */
final class SingleKeyTable
{
    /** Slots (16 bytes each) of a hashed table that stay in a core's cache: 256 KB. */
    static final int CACHED_SLOTS = 1 << 14;
    /** A direct table is chosen when the key range is at most this many times the hash table's slots (4 bytes an entry against 16 a slot). */
    static final int DIRECT_SPREAD = 4;
    /** The largest bitmap of present keys a hashed table gets. */
    static final int BITMAP_BYTES = 1 << 20;

    private final long min;
    private final long max;
    private final int[] direct;
    private final long[] slots;
    private final int mask;
    private final long[] present;

    private SingleKeyTable(long min, long max, int[] direct, long[] slots, long[] present)
    {
        this.min = min;
        this.max = max;
        this.direct = direct;
        this.slots = slots;
        this.mask = slots == null ? 0 : slots.length / 2 - 1;
        this.present = present;
    }

    /**
     * The table over {@code keys[0 .. rows)}, skipping the rows {@code excluded} marks (NULL keys),
     * chaining the rows of one key through {@code next} (-1 ends a chain).
     *
     * @param capacity slots of a hashed table: a power of two above the rows
     */
    static SingleKeyTable build(long[] keys, boolean[] excluded, int rows, int capacity, int[] next)
    {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int row = 0; row < rows; row++) {
            if (excluded == null || !excluded[row]) {
                min = Math.min(min, keys[row]);
                max = Math.max(max, keys[row]);
            }
        }
        if (min > max) {
            // no key at all: every lookup misses on the range
            return new SingleKeyTable(1, 0, new int[0], null, null);
        }
        long range = max - min + 1;
        boolean fitsInt = range > 0 && range <= Integer.MAX_VALUE - 8;
        if (fitsInt && range <= (long) DIRECT_SPREAD * capacity) {
            int[] direct = new int[(int) range];
            java.util.Arrays.fill(direct, -1);
            for (int row = 0; row < rows; row++) {
                if (excluded == null || !excluded[row]) {
                    int index = (int) (keys[row] - min);
                    next[row] = direct[index];
                    direct[index] = row;
                }
            }
            return new SingleKeyTable(min, max, direct, null, null);
        }
        long[] table = new long[2 * capacity];
        for (int slot = 1; slot < table.length; slot += 2) {
            table[slot] = -1;
        }
        int mask = capacity - 1;
        long[] present = fitsInt && range / 8 <= BITMAP_BYTES ? new long[(int) ((range + 63) >>> 6)] : null;
        for (int row = 0; row < rows; row++) {
            if (excluded != null && excluded[row]) {
                continue;
            }
            long key = keys[row];
            int slot = (int) Columns.mix(key) & mask;
            while (table[2 * slot + 1] >= 0 && table[2 * slot] != key) {
                slot = (slot + 1) & mask;
            }
            next[row] = (int) table[2 * slot + 1];
            table[2 * slot] = key;
            table[2 * slot + 1] = row;
            if (present != null) {
                long offset = key - min;
                present[(int) (offset >>> 6)] |= 1L << offset;
            }
        }
        return new SingleKeyTable(min, max, null, table, present);
    }

    /** Bytes this table holds. */
    long bytes()
    {
        return direct != null ? 4L * direct.length : 8L * slots.length + (present == null ? 0 : 8L * present.length);
    }

    /**
     * Whether probes should read the table ahead ({@link #touch}): not when it stays in the
     * processor's cache, where reading ahead only costs.
     */
    boolean worthReadingAhead()
    {
        return direct != null ? direct.length > 4 * CACHED_SLOTS : slots.length / 2 > CACHED_SLOTS;
    }

    /**
     * Reads the entries of keys {@code values[from .. to - 1]} ahead of {@link #find} for them.
     * The reads do not depend on one another, so the processor has many cache misses in flight
     * at once, where the probe loop, which branches on each entry it reads, waits for them one by
     * one: a table larger than the cache (a million orders) is probed markedly faster.
     *
     * @return the sum of what was read, for the caller to keep (else the reads are optimised away);
     * not kept here, where every probing thread would write to the same field
     */
    long touch(long[] values, int from, int to)
    {
        long sum = 0;
        if (direct != null) {
            int[] table = direct;
            long length = table.length;
            for (int i = from; i < to; i++) {
                long offset = values[i] - min;
                if (Long.compareUnsigned(offset, length) < 0) {
                    sum += table[(int) offset];
                }
            }
            return sum;
        }
        long[] table = slots;
        for (int i = from; i < to; i++) {
            long key = values[i];
            if (mayHold(key)) {
                sum += table[2 * ((int) Columns.mix(key) & mask)];
            }
        }
        return sum;
    }

    /** The last build row whose key equals {@code key} (the others follow by the chain), or -1. */
    int find(long key)
    {
        long offset = key - min;
        if (direct != null) {
            return Long.compareUnsigned(offset, direct.length) < 0 ? direct[(int) offset] : -1;
        }
        if (!mayHold(key)) {
            return -1;
        }
        long[] table = slots;
        int slot = (int) Columns.mix(key) & mask;
        while (true) {
            long head = table[2 * slot + 1];
            if (head < 0 || table[2 * slot] == key) {
                return (int) head;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** False when {@code key} is certainly absent: out of range, or not in the bitmap. */
    private boolean mayHold(long key)
    {
        if (key < min || key > max) {
            return false;
        }
        long offset = key - min;
        return present == null || (present[(int) (offset >>> 6)] & (1L << offset)) != 0;
    }
}
