package io.ontul.bench.streaming;

import java.util.HashSet;
import java.util.Set;

/**
 * What the windowed aggregate must yield over the pre-filled events, computed here from the
 * generator: the number of (window, category) rows, and the sums of their {@code cnt} and
 * {@code total}. Amounts are multiples of 0.5 far below 2^53, so {@code total} sums are exact in
 * any order and compare with {@code ==}.
 */
record ExpectedWindows(long rows, long countSum, double totalSum)
{
    static ExpectedWindows of(long events)
    {
        Set<Long> groups = new HashSet<>();
        double total = 0;
        for (long i = 0; i < events; i++) {
            long window = Math.floorDiv(EventRecords.eventMillis(i), EventRecords.WINDOW_MILLIS);
            groups.add(window * EventRecords.CATEGORIES + EventRecords.category(i));
            total += EventRecords.amount(i);
        }
        return new ExpectedWindows(groups.size(), events, total);
    }

    /**
     * These rows plus the window of the closing events (one row: category c0, one event per
     * partition), which a bounded Flink job fires at the end of its input.
     */
    ExpectedWindows withClosingWindow(int partitions)
    {
        return new ExpectedWindows(rows + 1, countSum + partitions, totalSum + partitions * EventRecords.CLOSING_AMOUNT);
    }

    /** "ok", or what differs from {@code actual}. */
    String check(long actualRows, long actualCountSum, double actualTotalSum)
    {
        if (actualRows == rows && actualCountSum == countSum && actualTotalSum == totalSum) {
            return "ok";
        }
        return String.format(java.util.Locale.ROOT, "MISMATCH: rows %d (expected %d), sum(cnt) %d (expected %d), sum(total) %.1f (expected %.1f)",
                actualRows, rows, actualCountSum, countSum, actualTotalSum, totalSum);
    }
}
