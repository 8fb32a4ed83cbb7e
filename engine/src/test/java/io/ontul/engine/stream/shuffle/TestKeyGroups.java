package io.ontul.engine.stream.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

class TestKeyGroups
{
    @Test
    void equalKeysShareAGroupWhereverTheirColumnsAre()
    {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot input = batch(allocator, 1000, false);
                VectorSchemaRoot state = batch(allocator, 1000, true)) {
            // input rows: (other, key_number, key_text); state rows: (key_number, key_text, other) in reverse order
            int[] inputGroups = new KeyGroups(new int[] {1, 2}, 128).keyGroups(input);
            int[] stateGroups = new KeyGroups(new int[] {0, 1}, 128).keyGroups(state);
            Set<Integer> used = new HashSet<>();
            for (int row = 0; row < 1000; row++) {
                assertThat(stateGroups[999 - row]).isEqualTo(inputGroups[row]);
                assertThat(inputGroups[row]).isBetween(0, 127);
                used.add(inputGroups[row]);
            }
            assertThat(used).as("1000 keys spread over the groups").hasSizeGreaterThan(120);
        }
    }

    /**
     * Checkpoints keep state by key group: the group of a key must never change between versions
     * (these were computed by the release that took the first checkpoints, text hashed byte by byte).
     */
    @Test
    void keyGroupsNeverChange()
    {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot input = batch(allocator, 12, false)) {
            assertThat(new KeyGroups(new int[] {1, 2}, 128).keyGroups(input)).containsExactly(FROZEN);
            assertThat(new KeyGroups(new int[] {2}, 128).keyGroups(input)).containsExactly(FROZEN_TEXT);
        }
    }

    private static final int[] FROZEN = {46, 106, 60, 107, 105, 124, 125, 2, 82, 47, 17, 5};
    private static final int[] FROZEN_TEXT = {46, 87, 25, 2, 39, 6, 91, 34, 14, 35, 46, 98};

    @Test
    void eachTaskOwnsAContiguousRangeOfGroupsAtAnyParallelism()
    {
        for (int parallelism : List.of(1, 2, 3, 4, 7, 128)) {
            Map<Integer, Integer> lowest = new HashMap<>();
            int previous = 0;
            for (int group = 0; group < 128; group++) {
                int task = KeyGroups.taskOf(group, 128, parallelism);
                assertThat(task).isBetween(previous, previous + 1).isLessThan(parallelism);
                previous = task;
                lowest.putIfAbsent(task, group);
            }
            assertThat(lowest).as("every task owns groups").hasSize(parallelism);
        }
    }

    private static VectorSchemaRoot batch(BufferAllocator allocator, int rows, boolean stateLayout)
    {
        BigIntVector other = new BigIntVector("other", allocator);
        BigIntVector number = new BigIntVector("number", allocator);
        VarCharVector text = new VarCharVector("text", allocator);
        other.allocateNew(rows);
        number.allocateNew(rows);
        text.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            int key = stateLayout ? rows - 1 - i : i;
            other.set(i, i * 31L);
            number.set(i, key % 97);
            if (key % 10 == 0) {
                text.setNull(i);
            }
            else {
                text.setSafe(i, ("k" + key).getBytes(StandardCharsets.UTF_8));
            }
        }
        other.setValueCount(rows);
        number.setValueCount(rows);
        text.setValueCount(rows);
        return stateLayout ? VectorSchemaRoot.of(number, text, other) : VectorSchemaRoot.of(other, number, text);
    }
}
