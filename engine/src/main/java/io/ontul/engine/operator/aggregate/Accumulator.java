package io.ontul.engine.operator.aggregate;

import org.apache.arrow.vector.FieldVector;

/**
 * The state of one aggregate function for every group, in Java arrays indexed by group id.
 * Protocol: {@link #ensureCapacity} before {@link #add} with group ids up to the new count;
 * {@link #write} after all input, once per output chunk.
 */
public interface Accumulator
{
    /** Approximate heap bytes per group, for memory reservation. */
    int bytesPerGroup();

    void ensureCapacity(int groupCount);

    /**
     * Adds rows of a batch. {@code selected} is null when every row counts, otherwise the rows
     * whose FILTER clause is true.
     */
    void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected);

    /** Writes the final value of groups {@code [from, from + count)} to {@code out} at 0.. */
    void write(FieldVector out, int from, int count, GroupInfo groups);

    /** What an accumulator may need to know about a group at output time. */
    interface GroupInfo
    {
        int groupSet(int group);
    }
}
