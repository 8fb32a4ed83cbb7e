package io.ontul.engine.operator.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * State rows a streaming checkpoint of an older release holds, read by today's accumulators: an
 * AVG's state gained the high word of its 128-bit sum ({@code state0_2}), which such rows lack.
 */
class TestStateCompatibility
{
    @Test
    void aStateColumnAddedSinceIsNull()
    {
        Field key = Field.nullable("key0", new ArrowType.Int(64, true));
        Field set = Field.nullable("group_set", new ArrowType.Int(32, true));
        Field sum = Field.nullable("state0_0", new ArrowType.Int(64, true));
        Field count = Field.nullable("state0_1", new ArrowType.Int(64, true));
        Field high = Field.nullable("state0_2", new ArrowType.Int(64, true));
        Schema today = new Schema(List.of(key, set, sum, count, high));
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot old = VectorSchemaRoot.create(new Schema(List.of(key, set, sum, count)), allocator)) {
            old.allocateNew();
            for (int row = 0; row < 3; row++) {
                ((BigIntVector) old.getVector("key0")).set(row, row);
                ((IntVector) old.getVector("group_set")).set(row, 0);
                ((BigIntVector) old.getVector("state0_0")).set(row, -5L * row);
                ((BigIntVector) old.getVector("state0_1")).set(row, row + 1);
            }
            old.setRowCount(3);
            try (VectorSchemaRoot conformed = AggregationTable.conformState(old, today, allocator)) {
                assertThat(conformed.getSchema()).isEqualTo(today);
                assertThat(conformed.getRowCount()).isEqualTo(3);
                for (int row = 0; row < 3; row++) {
                    assertThat(((BigIntVector) conformed.getVector("key0")).get(row)).isEqualTo(row);
                    assertThat(((BigIntVector) conformed.getVector("state0_0")).get(row)).isEqualTo(-5L * row);
                    assertThat(((BigIntVector) conformed.getVector("state0_1")).get(row)).isEqualTo(row + 1);
                    assertThat(conformed.getVector("state0_2").isNull(row)).isTrue();
                }
                // the accumulators read a NULL high word as 0
                assertThat(StateVectors.longs(conformed.getVector("state0_2"), 3)).containsExactly(0, 0, 0);
            }
        }
    }
}
