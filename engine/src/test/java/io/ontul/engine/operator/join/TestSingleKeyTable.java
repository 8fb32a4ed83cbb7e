package io.ontul.engine.operator.join;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Every shape of the one-key join table (direct, hashed with a bitmap of present keys, hashed
 * without one) finds exactly the rows a map from key to rows holds, for keys inside and outside
 * the build's range, at the edges of the long range, with duplicates and excluded (NULL) rows.
 */
class TestSingleKeyTable
{
    @Test
    void denseKeysGetADirectTable()
    {
        // 1,000 rows over keys -200 .. 299, each twice
        long[] keys = new long[1000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = -200 + i % 500;
        }
        SingleKeyTable table = check(keys, null, new long[] {-201, -200, 0, 299, 300, Long.MIN_VALUE, Long.MAX_VALUE});
        // 500 ints, not 2,048 slots of 16 bytes
        assertThat(table.bytes()).isEqualTo(4L * 500);
    }

    @Test
    void sparseKeysGetAHashTableWithABitmap()
    {
        // 300 keys spread over 200,000 (parts of one brand out of all parts)
        Random random = new Random(7);
        long[] keys = new long[300];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 1 + random.nextInt(200_000);
        }
        long[] probes = new long[5000];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = i < 300 ? keys[i] : random.nextInt(210_000) - 5000;
        }
        SingleKeyTable table = check(keys, null, probes);
        // 1,024 slots of 16 bytes and a bitmap of one bit per key in the range (about 200,000)
        long range = java.util.Arrays.stream(keys).max().getAsLong() - java.util.Arrays.stream(keys).min().getAsLong() + 1;
        assertThat(table.bytes()).isEqualTo(16L * 1024 + 8 * ((range + 63) / 64));
    }

    @Test
    void keysSpreadOverTheWholeRangeGetAHashTableOnly()
    {
        long[] keys = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE, 0, Long.MIN_VALUE, 42L << 40};
        SingleKeyTable table = check(keys, null, new long[] {Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 2, 42L << 40, (42L << 40) + 1});
        assertThat(table.bytes()).isEqualTo(16L * 16);
    }

    @Test
    void excludedRowsAreNeverFound()
    {
        long[] keys = {5, 6, 7, 5, 1_000_000_007L, 8};
        boolean[] excluded = {false, true, false, true, true, false};
        check(keys, excluded, new long[] {5, 6, 7, 8, 1_000_000_007L});
        // every row excluded: every lookup misses
        check(new long[] {3, 4}, new boolean[] {true, true}, new long[] {3, 4, 0});
    }

    /** Builds the table over {@code keys} and checks each key and each probe against a map; returns the table. */
    private static SingleKeyTable check(long[] keys, boolean[] excluded, long[] probes)
    {
        int capacity = Integer.highestOneBit(Math.max(keys.length, 1) * 2 - 1) << 1;
        int[] next = new int[keys.length];
        java.util.Arrays.fill(next, -2);
        SingleKeyTable table = SingleKeyTable.build(keys, excluded, keys.length, capacity, next);
        Map<Long, List<Integer>> expected = new HashMap<>();
        for (int row = 0; row < keys.length; row++) {
            if (excluded == null || !excluded[row]) {
                expected.computeIfAbsent(keys[row], k -> new ArrayList<>()).add(row);
            }
        }
        List<Long> all = new ArrayList<>();
        for (long key : keys) {
            all.add(key);
        }
        for (long probe : probes) {
            all.add(probe);
        }
        for (long key : all) {
            List<Integer> rows = new ArrayList<>();
            for (int row = table.find(key); row >= 0; row = next[row]) {
                rows.add(0, row);
            }
            assertThat(rows).as("rows of key %s", key).isEqualTo(expected.getOrDefault(key, List.of()));
        }
        long[] values = all.stream().mapToLong(Long::longValue).toArray();
        // reading ahead reads what is there and nothing outside the table
        table.touch(values, 0, values.length);
        return table;
    }
}
