package io.ontul.engine.operator.aggregate;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The state of one aggregate function for every group, in Java arrays indexed by group id.
 * Protocol: {@link #ensureCapacity} before {@link #add} or {@link #mergeState} with group ids
 * up to the new count; {@link #write} after all input, once per output chunk.
 * <p>
 * Spilling: {@link #writeState} writes the state of some groups as rows of the columns
 * {@link #stateFields} describes; {@link #mergeState} folds such rows into groups of an
 * accumulator of the same kind, so that merging the states of several parts of the input gives
 * the result of aggregating all of it. {@link #reset} drops every group (after a spill, or to
 * aggregate the next spilled partition) and frees the arrays.
 */
public interface Accumulator
{
    /** Approximate heap bytes per group, for memory reservation. */
    int bytesPerGroup();

    /**
     * Approximate heap bytes the state of {@code groupCount} groups holds: {@link #bytesPerGroup}
     * each, unless the state grows with the values (array_agg, string_agg).
     */
    default long heldBytes(int groupCount)
    {
        return (long) bytesPerGroup() * groupCount;
    }

    void ensureCapacity(int groupCount);

    /**
     * Adds rows of a batch. {@code selected} is null when every row counts, otherwise the rows
     * whose FILTER clause is true.
     */
    void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected);

    /** Writes the final value of groups {@code [from, from + count)} to {@code out} at 0.. */
    void write(FieldVector out, int from, int count, GroupInfo groups);

    /** The columns of one group's state, nullable; empty when the result needs no state. */
    List<Field> stateFields();

    /**
     * Writes the state of {@code groups[0..count)} at rows {@code 0..count} of
     * {@code out[first..first + stateFields().size())}, which are allocated for {@code count}
     * rows.
     */
    void writeState(FieldVector[] out, int first, int[] groups, int count);

    /** Merges state rows (columns {@code first..} of {@code columns}, as written by {@link #writeState}) into their groups. */
    void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount);

    /** Forgets every group. */
    void reset();

    /** What an accumulator may need to know about a group at output time. */
    interface GroupInfo
    {
        int groupSet(int group);
    }
}
