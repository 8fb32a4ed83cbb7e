package io.ontul.engine.operator.window;

/**
 * The windows of a SESSION window table function, in the time column's unit: per key, rows
 * whose times are less than {@code gap} apart form one session;
 * {@code window_start} is the session's first time and {@code window_end} its last time plus
 * the gap.
 *
 * @param timeColumn the input column named by the first DESCRIPTOR
 * @param keyColumns the input columns named by the second DESCRIPTOR (none: one key for all rows)
 * @param gap the inactivity that ends a session, positive
 */
public record SessionWindowFunction(int timeColumn, int[] keyColumns, long gap)
{
    public SessionWindowFunction
    {
        keyColumns = keyColumns.clone();
        if (gap <= 0) {
            throw new IllegalArgumentException("session gap must be positive: " + gap);
        }
    }

    @Override
    public int[] keyColumns()
    {
        return keyColumns.clone();
    }
}
