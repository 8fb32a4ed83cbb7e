package io.ontul.engine.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compares the rows of one query from two engines, with the order the query guarantees and no
 * more. Without a top-level ORDER BY, rows compare as multisets. With one whose keys name result
 * columns, the sort keys must match row by row, and rows that tie on them compare as multisets;
 * when a LIMIT may have cut the last tie group, only its keys are compared, since either engine
 * may keep any of the tied rows. When a key is an expression, rows compare strictly in order.
 * Values compare with {@link SqlValues}.
 */
public final class ResultComparison
{
    private ResultComparison() {}

    /**
     * The first difference between the expected and actual rows of {@code sql}, described for a
     * failure message, or empty when the results match.
     *
     * @param columnNames the result column names, used to find the sort keys
     */
    public static Optional<String> compare(String sql, List<String> columnNames, List<List<Object>> expected, List<List<Object>> actual)
    {
        String counts = String.format("expected %d rows, actual %d rows", expected.size(), actual.size());
        OrderByClause orderBy = OrderByClause.of(sql);
        if (!orderBy.ordered()) {
            if (orderBy.mayBeCut(expected.size())) {
                return expected.size() == actual.size()
                        ? Optional.empty()
                        : Optional.of(counts + " (LIMIT without ORDER BY: only the row count is compared)");
            }
            return asMultisets(expected, actual, 0, counts + "; rows compared as multisets, sorted");
        }
        Optional<List<Integer>> keys = orderBy.keyColumns(columnNames);
        if (keys.isEmpty()) {
            return inOrder(expected, actual, counts);
        }
        return byTieGroups(expected, actual, keys.get(), orderBy.mayBeCut(expected.size()), counts);
    }

    private static Optional<String> inOrder(List<List<Object>> expected, List<List<Object>> actual, String counts)
    {
        for (int row = 0; row < Math.max(expected.size(), actual.size()); row++) {
            if (row >= expected.size() || row >= actual.size() || !SqlValues.rowsMatch(expected.get(row), actual.get(row))) {
                return Optional.of(difference(expected, actual, row, row, counts + "; rows compared in order"));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> byTieGroups(List<List<Object>> expected, List<List<Object>> actual, List<Integer> keys, boolean lastGroupMayBeCut, String counts)
    {
        for (int row = 0; row < Math.max(expected.size(), actual.size()); row++) {
            if (row >= expected.size() || row >= actual.size() || !keysMatch(expected.get(row), actual.get(row), keys)) {
                return Optional.of(difference(expected, actual, row, row, counts + "; sort keys differ"));
            }
        }
        int start = 0;
        while (start < expected.size()) {
            int end = start + 1;
            while (end < expected.size() && keysMatch(expected.get(start), expected.get(end), keys)) {
                end++;
            }
            boolean cut = end == expected.size() && lastGroupMayBeCut;
            if (!cut) {
                String context = String.format("%s; rows %d..%d tie on the sort keys and are compared as multisets, sorted", counts, start, end - 1);
                Optional<String> difference = asMultisets(expected.subList(start, end), actual.subList(start, end), start, context);
                if (difference.isPresent()) {
                    return difference;
                }
            }
            start = end;
        }
        return Optional.empty();
    }

    private static Optional<String> asMultisets(List<List<Object>> expected, List<List<Object>> actual, int firstRow, String context)
    {
        List<List<Object>> sortedExpected = sorted(expected);
        List<List<Object>> sortedActual = sorted(actual);
        for (int row = 0; row < Math.max(sortedExpected.size(), sortedActual.size()); row++) {
            if (row >= sortedExpected.size() || row >= sortedActual.size() || !SqlValues.rowsMatch(sortedExpected.get(row), sortedActual.get(row))) {
                return Optional.of(difference(sortedExpected, sortedActual, row, firstRow + row, context));
            }
        }
        return Optional.empty();
    }

    private static boolean keysMatch(List<Object> left, List<Object> right, List<Integer> keys)
    {
        for (int key : keys) {
            if (key >= left.size() || key >= right.size() || !SqlValues.matches(left.get(key), right.get(key))) {
                return false;
            }
        }
        return true;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(SqlValues.ROW_ORDER);
        return copy;
    }

    private static String difference(List<List<Object>> expected, List<List<Object>> actual, int index, int reportedRow, String context)
    {
        return String.format("%s; first difference at row %d:%n  expected: %s%n  actual:   %s",
                context, reportedRow, describe(expected, index), describe(actual, index));
    }

    private static String describe(List<List<Object>> rows, int index)
    {
        return index < rows.size() ? rows.get(index).toString() : "(no row)";
    }
}
