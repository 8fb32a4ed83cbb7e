package io.ontul.engine.operator.aggregate;

import java.util.Arrays;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.OperatorContext;


/**
 * Assigns a dense group id to each distinct key, for hash aggregation. Keys are rows of one or
 * more columns plus a grouping-set index; NULL is a key value like any other (NULLs form one
 * group). Distinct keys are copied into Arrow vectors owned by this object, in group id order
 * (one integer-like key is kept as longs and written into its vector when read).
 * Open addressing over an int table; the table and per-group arrays are reserved against the
 * query's memory budget.
 */
public final class GroupByHash
        implements AutoCloseable
{
    private static final int BYTES_PER_GROUP = 8 + 4 + 4 + 8;

    private final MemoryReservation memory;
    private final FieldVector[] keys;
    private int[] table;
    private int mask;
    private long[] groupHashes;
    private int[] groupSets;
    private int groupCount;
    private long reserved;
    // integer-like keys also kept as longs by group, so probing compares primitives
    private final long[][] keyLongs;
    private long[][] inputLongs;
    private boolean[] keyIsNull;
    // one integer-like key: its value per slot beside the table, so that a probe that finds its
    // key reads the slot's two entries and no array by group (null otherwise)
    private long[] slotKeys;
    // whether a group of a NULL key or of another grouping set than the first exists: only then
    // must a key found in its slot be checked for them
    private boolean mixedGroups;
    // one integer-like key: its vector is written from keyLongs when read (keys(), seal()), not
    // cell by cell as groups come; groups below keysWritten are written
    private final boolean deferredKey;
    private int keysWritten;
    /** Rows whose slots are read ahead of probing them ({@link #touch}). */
    private static final int PREFETCH_ROWS = 64;
    private long touched;

    /** @param memory the reservation of the operator that owns the table: its arrays are reserved there */
    public GroupByHash(OperatorContext context, MemoryReservation memory, java.util.List<Field> keyFields)
    {
        this.memory = memory;
        // slots, doubled as groups come (kept at most half full); groups have room for half
        int capacity = 1024;
        this.keys = new FieldVector[keyFields.size()];
        this.keyLongs = new long[keys.length][];
        long longKeys = 0;
        for (int i = 0; i < keys.length; i++) {
            // empty until allocated below
            keys[i] = keyFields.get(i).createVector(context.allocator());
            longKeys += Columns.isLongLike(keys[i]) ? 1 : 0;
        }
        deferredKey = keys.length == 1 && longKeys == 1;
        try {
            // reserve before allocating: a refused reservation leaves no buffer behind
            reserve(capacity * 4L + capacity * (8L + 4L) + longKeys * (capacity / 2) * 8L);
            for (int i = 0; i < keys.length; i++) {
                if (!deferredKey) {
                    Batches.allocate(keys[i], capacity / 2);
                }
                if (Columns.isLongLike(keys[i])) {
                    keyLongs[i] = new long[capacity / 2];
                }
            }
        }
        catch (RuntimeException e) {
            close();
            throw e;
        }
        keyIsNull = new boolean[capacity / 2];
        table = new int[capacity];
        if (keys.length == 1 && keyLongs[0] != null) {
            reserve(capacity * 8L);
            slotKeys = new long[capacity];
        }
        mask = capacity - 1;
        groupHashes = new long[capacity];
        groupSets = new int[capacity];
    }

    private void reserve(long bytes)
    {
        memory.grow(bytes);
        reserved += bytes;
    }

    public int groupCount()
    {
        return groupCount;
    }

    /** The key vectors, with every group's key written. */
    public FieldVector[] keys()
    {
        writeDeferredKeys();
        return keys;
    }

    /** Writes the keys of the groups added since the last call into the vector of a {@link #deferredKey}. */
    private void writeDeferredKeys()
    {
        if (!deferredKey || keysWritten == groupCount) {
            return;
        }
        BaseFixedWidthVector key = (BaseFixedWidthVector) keys[0];
        if (keysWritten == 0) {
            key.clear();
            Batches.allocate(key, groupCount);
        }
        while (key.getValueCapacity() < groupCount) {
            key.reAlloc();
        }
        long[] values = keyLongs[0];
        ArrowBuf data = key.getDataBuffer();
        ArrowBuf validity = key.getValidityBuffer();
        int width = key.getTypeWidth();
        for (int group = keysWritten; group < groupCount; group++) {
            if (keyIsNull[group]) {
                BitVectorHelper.unsetBit(validity, group);
                continue;
            }
            long value = values[group];
            long at = (long) group * width;
            switch (width) {
                case 8 -> data.setLong(at, value);
                case 4 -> data.setInt(at, (int) value);
                case 2 -> data.setShort(at, (short) value);
                case 1 -> data.setByte(at, (byte) value);
                case 16 -> {
                    // a DECIMAL of up to 18 digits: the unscaled value, sign-extended to 128 bits
                    data.setLong(at, value);
                    data.setLong(at + 8, value >> 63);
                }
                default -> throw new IllegalStateException("key of " + width + " bytes");
            }
            BitVectorHelper.setBit(validity, group);
        }
        keysWritten = groupCount;
    }

    /** Whether key {@code k} of {@code group} is NULL. */
    private boolean keyNull(int k, int group)
    {
        // a deferred key is the only key: the group's key is NULL when that one is
        return deferredKey ? keyIsNull[group] : keys[k].isNull(group);
    }

    public int groupSet(int group)
    {
        return groupSets[group];
    }

    /** The hash of a group's key and grouping set; the same key always hashes the same, in any table. */
    public long groupHash(int group)
    {
        return groupHashes[group];
    }

    /**
     * Computes group ids for rows that carry their own grouping set, such as spilled groups read
     * back: a key the row's grouping set leaves out is NULL in {@code inputs}. A row gets the
     * same hash and group as the row it was made from.
     */
    public void groupIds(FieldVector[] inputs, int[] rowGroupSets, int rowCount, int[] groupIds)
    {
        boolean[] noneNulled = new boolean[inputs.length];
        boolean oneSet = true;
        for (int row = 1; row < rowCount && oneSet; row++) {
            oneSet = rowGroupSets[row] == rowGroupSets[0];
        }
        if (oneSet) {
            groupIds(inputs, noneNulled, rowCount == 0 ? 0 : rowGroupSets[0], rowCount, groupIds);
            return;
        }
        long[] hashes = new long[rowCount];
        for (int row = 0; row < rowCount; row++) {
            hashes[row] = rowGroupSets[row] * 0x9E3779B97F4A7C15L;
        }
        for (FieldVector input : inputs) {
            Columns.hashInto(input, rowCount, hashes);
        }
        for (int row = 0; row < rowCount; row++) {
            groupIds[row] = findOrInsert(inputs, noneNulled, rowGroupSets[row], row, Columns.mix(hashes[row]));
        }
    }

    /**
     * Computes group ids for {@code rowCount} rows.
     *
     * @param inputs the key columns of the batch, one per key
     * @param nulled for each key, whether this grouping set leaves it out (treated as NULL)
     * @param groupSet index of the grouping set
     */
    public void groupIds(FieldVector[] inputs, boolean[] nulled, int groupSet, int rowCount, int[] groupIds)
    {
        long[] hashes = keyHashes(inputs, nulled, groupSet, rowCount);
        inputLongs = new long[inputs.length][];
        for (int k = 0; k < inputs.length; k++) {
            if (!nulled[k] && keyLongs[k] != null && Columns.isLongLike(inputs[k])) {
                inputLongs[k] = Columns.longs(inputs[k], rowCount);
            }
        }
        if (inputs.length == 1 && inputLongs[0] != null) {
            singleLongKey(inputs, nulled, groupSet, rowCount, groupIds, hashes);
        }
        else if (textAndLongKeysWithoutNulls(inputs, nulled)) {
            textAndLongKeys(inputs, nulled, groupSet, rowCount, groupIds, hashes);
        }
        else {
            for (int row = 0; row < rowCount; row++) {
                groupIds[row] = findOrInsert(inputs, nulled, groupSet, row, Columns.mix(hashes[row]));
            }
        }
        inputLongs = null;
    }

    /**
     * The hashes of the rows' keys in a grouping set, before {@link Columns#mix}: mixed, each is
     * the {@link #groupHash} the row's group gets in any table.
     */
    static long[] keyHashes(FieldVector[] inputs, boolean[] nulled, int groupSet, int rowCount)
    {
        long[] hashes = new long[rowCount];
        Arrays.fill(hashes, groupSet * 0x9E3779B97F4A7C15L);
        for (int k = 0; k < inputs.length; k++) {
            if (nulled[k]) {
                for (int row = 0; row < rowCount; row++) {
                    hashes[row] = hashes[row] * 31 + 0x5bd1e995L;
                }
            }
            else {
                Columns.hashInto(inputs[k], rowCount, hashes);
            }
        }
        return hashes;
    }

    /** Whether every key is integer-like or text and no key of the batch is NULL (or left out by the grouping set). */
    private boolean textAndLongKeysWithoutNulls(FieldVector[] inputs, boolean[] nulled)
    {
        for (int k = 0; k < inputs.length; k++) {
            boolean text = inputs[k] instanceof BaseVariableWidthVector && keys[k] instanceof BaseVariableWidthVector;
            if (nulled[k] || (inputLongs[k] == null && !text) || inputs[k].getNullCount() > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Group ids for keys of integers and text, without NULLs: integers compared as longs, text on
     * the buffers of the batch and of the key vectors, without a per-cell dispatch on the type and
     * NULL checks
     * (TPC-DS q04 and Nexmark q15 group by several text columns, or text and a number).
     */
    private void textAndLongKeys(FieldVector[] inputs, boolean[] nulled, int groupSet, int rowCount, int[] groupIds, long[] hashes)
    {
        int keyCount = inputs.length;
        ArrowBuf[] inputOffsets = new ArrowBuf[keyCount];
        ArrowBuf[] inputData = new ArrowBuf[keyCount];
        for (int k = 0; k < keyCount; k++) {
            if (inputLongs[k] == null) {
                inputOffsets[k] = inputs[k].getOffsetBuffer();
                inputData[k] = inputs[k].getDataBuffer();
            }
        }
        rows:
        for (int row = 0; row < rowCount; row++) {
            long hash = Columns.mix(hashes[row]);
            int slot = (int) hash & mask;
            while (true) {
                int entry = table[slot];
                if (entry == 0) {
                    groupIds[row] = insert(inputs, nulled, groupSet, row, hash, slot);
                    continue rows;
                }
                int group = entry - 1;
                if (groupHashes[group] == hash && groupSets[group] == groupSet && !keyIsNull[group] && sameKeys(row, group, inputOffsets, inputData)) {
                    groupIds[row] = group;
                    continue rows;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    /** Whether input row {@code row} has the (non-NULL) key of {@code group}; text keys are given by their input buffers. */
    private boolean sameKeys(int row, int group, ArrowBuf[] inputOffsets, ArrowBuf[] inputData)
    {
        for (int k = 0; k < keys.length; k++) {
            if (inputOffsets[k] == null) {
                if (keyLongs[k][group] != inputLongs[k][row]) {
                    return false;
                }
                continue;
            }
            ArrowBuf keyOffsets = keys[k].getOffsetBuffer();
            long keyStart = keyOffsets.getInt((long) group * Integer.BYTES);
            long keyEnd = keyOffsets.getInt((long) (group + 1) * Integer.BYTES);
            long start = inputOffsets[k].getInt((long) row * Integer.BYTES);
            long end = inputOffsets[k].getInt((long) (row + 1) * Integer.BYTES);
            if (keyEnd - keyStart != end - start
                    || ByteFunctionHelpers.equal(inputData[k], start, end, keys[k].getDataBuffer(), keyStart, keyEnd) != 1) {
                return false;
            }
        }
        return true;
    }

    /** Group ids for one integer-like key: compares primitives, reads no Arrow cell on a hit. */
    private void singleLongKey(FieldVector[] inputs, boolean[] nulled, int groupSet, int rowCount, int[] groupIds, long[] hashes)
    {
        long[] values = inputLongs[0];
        FieldVector input = inputs[0];
        boolean nulls = input.getNullCount() > 0;
        rows:
        for (int row = 0; row < rowCount; row++) {
            if ((row & (PREFETCH_ROWS - 1)) == 0) {
                touch(hashes, row, Math.min(rowCount, row + PREFETCH_ROWS));
            }
            long hash = Columns.mix(hashes[row]);
            if (nulls && input.isNull(row)) {
                groupIds[row] = findOrInsert(inputs, nulled, groupSet, row, hash);
                continue;
            }
            long value = values[row];
            int slot = (int) hash & mask;
            while (true) {
                int entry = table[slot];
                if (entry == 0) {
                    groupIds[row] = insert(inputs, nulled, groupSet, row, hash, slot);
                    continue rows;
                }
                int group = entry - 1;
                // the same key in the same grouping set hashes the same: no hash to compare
                if (slotKeys[slot] == value && (!mixedGroups || (groupSets[group] == groupSet && !keyIsNull[group]))) {
                    groupIds[row] = group;
                    continue rows;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    /**
     * Reads the slots of rows {@code from .. to - 1} ahead of probing them. The reads do not depend
     * on one another, so the processor has many cache misses in flight at once, where the probe
     * loop, which branches on each slot it reads, waits for them one by one: a table larger than
     * the cache (a final aggregation of a million groups) is probed several times faster.
     */
    private void touch(long[] hashes, int from, int to)
    {
        int[] table = this.table;
        long[] slotKeys = this.slotKeys;
        int mask = this.mask;
        long sum = 0;
        for (int row = from; row < to; row++) {
            int slot = (int) Columns.mix(hashes[row]) & mask;
            sum += table[slot] + slotKeys[slot];
        }
        // kept, so that the reads are not optimised away
        touched += sum;
    }

    /** The group of the empty key (for a grouping set without columns), created if absent. */
    public int emptyKeyGroup(int groupSet, boolean[] nulled)
    {
        long hash = groupSet * 0x9E3779B97F4A7C15L;
        for (int k = 0; k < keys.length; k++) {
            hash = hash * 31 + 0x5bd1e995L;
        }
        return findOrInsert(keys, nulled, groupSet, -1, Columns.mix(hash));
    }

    private int findOrInsert(FieldVector[] inputs, boolean[] nulled, int groupSet, int row, long hash)
    {
        int slot = (int) hash & mask;
        while (true) {
            int entry = table[slot];
            if (entry == 0) {
                return insert(inputs, nulled, groupSet, row, hash, slot);
            }
            int group = entry - 1;
            if (groupHashes[group] == hash && groupSets[group] == groupSet && keysEqual(inputs, nulled, row, group)) {
                return group;
            }
            slot = (slot + 1) & mask;
        }
    }

    private boolean keysEqual(FieldVector[] inputs, boolean[] nulled, int row, int group)
    {
        for (int k = 0; k < keys.length; k++) {
            if (nulled[k] || row < 0) {
                if (!keyNull(k, group)) {
                    return false;
                }
            }
            else if (inputLongs != null && inputLongs[k] != null) {
                boolean inputNull = inputs[k].isNull(row);
                boolean keyNull = keyNull(k, group);
                if (inputNull != keyNull || (!inputNull && inputLongs[k][row] != keyLongs[k][group])) {
                    return false;
                }
            }
            else if (deferredKey) {
                boolean inputNull = inputs[k].isNull(row);
                if (inputNull != keyIsNull[group] || (!inputNull && Columns.getLong(inputs[k], row) != keyLongs[k][group])) {
                    return false;
                }
            }
            else if (!Columns.equal(inputs[k], row, keys[k], group)) {
                return false;
            }
        }
        return true;
    }

    private int insert(FieldVector[] inputs, boolean[] nulled, int groupSet, int row, long hash, int slot)
    {
        int group = groupCount++;
        if (group >= groupHashes.length) {
            int newLength = groupHashes.length * 2;
            reserve((long) (newLength - groupHashes.length) * BYTES_PER_GROUP);
            groupHashes = Arrays.copyOf(groupHashes, newLength);
            groupSets = Arrays.copyOf(groupSets, newLength);
        }
        groupHashes[group] = hash;
        groupSets[group] = groupSet;
        if (group >= keyIsNull.length) {
            keyIsNull = Arrays.copyOf(keyIsNull, Math.max(group + 1, keyIsNull.length * 2));
        }
        boolean anyNull = false;
        for (int k = 0; k < keys.length && !anyNull; k++) {
            anyNull = nulled[k] || row < 0 || inputs[k].isNull(row);
        }
        // true when any key of the group is NULL: the primitive fast paths never match such a group
        keyIsNull[group] = anyNull;
        mixedGroups |= anyNull || groupSet != groupSets[0];
        for (int k = 0; k < keys.length; k++) {
            if (deferredKey) {
                if (group >= keyLongs[k].length) {
                    reserve(keyLongs[k].length * 8L);
                    keyLongs[k] = Arrays.copyOf(keyLongs[k], keyLongs[k].length * 2);
                }
                keyLongs[k][group] = anyNull ? 0 : inputLongs != null && inputLongs[k] != null ? inputLongs[k][row] : Columns.getLong(inputs[k], row);
                continue;
            }
            if (nulled[k] || row < 0) {
                while (keys[k].getValueCapacity() <= group) {
                    keys[k].reAlloc();
                }
                keys[k].setNull(group);
            }
            else {
                keys[k].copyFromSafe(row, group, inputs[k]);
            }
            if (keyLongs[k] != null) {
                if (group >= keyLongs[k].length) {
                    reserve(keyLongs[k].length * 8L);
                    keyLongs[k] = Arrays.copyOf(keyLongs[k], keyLongs[k].length * 2);
                }
                keyLongs[k][group] = nulled[k] || row < 0 || keys[k].isNull(group) ? 0 : Columns.getLong(keys[k], group);
            }
        }
        table[slot] = group + 1;
        if (slotKeys != null) {
            slotKeys[slot] = keyLongs[0][group];
        }
        if (groupCount * 2 > table.length) {
            rehash();
        }
        return group;
    }

    private void rehash()
    {
        int capacity = table.length * 2;
        reserve((long) (capacity - table.length) * (slotKeys == null ? 4 : 12));
        int[] newTable = new int[capacity];
        long[] newSlotKeys = slotKeys == null ? null : new long[capacity];
        int newMask = capacity - 1;
        for (int group = 0; group < groupCount; group++) {
            int slot = (int) groupHashes[group] & newMask;
            while (newTable[slot] != 0) {
                slot = (slot + 1) & newMask;
            }
            newTable[slot] = group + 1;
            if (newSlotKeys != null) {
                newSlotKeys[slot] = keyLongs[0][group];
            }
        }
        table = newTable;
        slotKeys = newSlotKeys;
        mask = newMask;
    }

    /** Bytes held: reserved arrays plus the key vectors' buffers (as allocated, being filled). */
    public long memoryBytes()
    {
        return reserved + keyBytes();
    }

    /** The key vectors' buffers, as allocated (the query's allocator counts them). */
    public long keyBytes()
    {
        long bytes = 0;
        for (FieldVector key : keys) {
            bytes += Batches.allocatedBytes(key);
        }
        return bytes;
    }

    /** Sets the value count of the key vectors; call before reading them. */
    public void seal()
    {
        writeDeferredKeys();
        for (FieldVector key : keys) {
            key.setValueCount(groupCount);
        }
    }

    @Override
    public void close()
    {
        for (FieldVector key : keys) {
            key.close();
        }
        memory.shrink(reserved);
        reserved = 0;
        table = null;
        slotKeys = null;
        groupHashes = null;
    }
}
