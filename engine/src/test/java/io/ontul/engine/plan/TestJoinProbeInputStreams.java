package io.ontul.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

import io.ontul.engine.operator.join.JoinType;

/**
 * A spilled join buffers more of its probe rows only over a probe input that streams
 * ({@link JoinNode#streams}): values, filters, projections and gathers of them. A union runs its
 * inputs one after another and a join below may take memory after its first rows came out, so
 * either keeps the join to its quarter.
 */
class TestJoinProbeInputStreams
{
    private static final RelDataType ROW = new JavaTypeFactoryImpl().builder().add("k", SqlTypeName.BIGINT).build();

    @Test
    void valuesFiltersProjectionsAndGathersStream()
    {
        PlanNode values = new ValuesNode(ROW, List.of());
        assertThat(JoinNode.streams(values)).isTrue();
        assertThat(JoinNode.streams(new GatherNode(new FilterProjectNode(ROW, values, null, List.of())))).isTrue();
    }

    @Test
    void unionsAndJoinsBelowDoNot()
    {
        PlanNode values = new ValuesNode(ROW, List.of());
        assertThat(JoinNode.streams(new UnionNode(ROW, List.of(values, new ValuesNode(ROW, List.of()))))).isFalse();
        JoinNode join = new JoinNode(ROW, ROW, values, new ValuesNode(ROW, List.of()), JoinType.INNER, new int[] {0}, new int[] {0}, new boolean[] {false}, null);
        assertThat(JoinNode.streams(join)).isFalse();
        // anywhere below
        assertThat(JoinNode.streams(new GatherNode(new FilterProjectNode(ROW, join, null, List.of())))).isFalse();
    }
}
