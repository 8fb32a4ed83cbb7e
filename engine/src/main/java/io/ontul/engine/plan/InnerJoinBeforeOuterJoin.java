package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * {@code (A LEFT JOIN B) JOIN C} becomes {@code (A JOIN C) LEFT JOIN B} when the inner join's
 * condition reads nothing of B and the inner join keeps fewer rows of A than A has (a
 * filtered dimension): the outer join then probes only the rows that survive. A filter on
 * the outer join's result (TPC-DS q78's {@code WHERE sr_ticket_number IS NULL}, which must stay
 * above it) moves up with it. TPC-DS joins every sales table with its returns this way before
 * the date dimension picks one year: 2.9 million store sales probed the returns where 0.5
 * million remain after the year. The join order cannot do this itself: it does not move inner
 * joins across an outer join's filter.
 */
public final class InnerJoinBeforeOuterJoin
        extends RelOptRule
{
    /** The inner join directly over the outer join. */
    public static final InnerJoinBeforeOuterJoin RULE = new InnerJoinBeforeOuterJoin(false);
    /** The inner join over a filter of the outer join's result. */
    public static final InnerJoinBeforeOuterJoin THROUGH_FILTER = new InnerJoinBeforeOuterJoin(true);

    private final boolean throughFilter;

    private InnerJoinBeforeOuterJoin(boolean throughFilter)
    {
        super(throughFilter
                        ? operand(Join.class, operand(Filter.class, operand(Join.class, any())), operand(RelNode.class, any()))
                        : operand(Join.class, operand(Join.class, any()), operand(RelNode.class, any())),
                throughFilter ? "InnerJoinBeforeOuterJoin(filter)" : "InnerJoinBeforeOuterJoin");
        this.throughFilter = throughFilter;
    }

    @Override
    public boolean matches(RelOptRuleCall call)
    {
        Join inner = call.rel(0);
        Join outer = call.rel(throughFilter ? 2 : 1);
        if (inner.getJoinType() != JoinRelType.INNER || outer.getJoinType() != JoinRelType.LEFT
                || !inner.getVariablesSet().isEmpty() || !outer.getVariablesSet().isEmpty()) {
            return false;
        }
        int a = outer.getLeft().getRowType().getFieldCount();
        int b = outer.getRight().getRowType().getFieldCount();
        return !RelOptUtil.InputFinder.bits(inner.getCondition()).intersects(ImmutableBitSet.range(a, a + b));
    }

    @Override
    public void onMatch(RelOptRuleCall call)
    {
        Join inner = call.rel(0);
        Filter filter = throughFilter ? call.rel(1) : null;
        Join outer = call.rel(throughFilter ? 2 : 1);
        RelNode left = outer.getLeft();
        RelNode nullable = outer.getRight();
        RelNode other = inner.getRight();
        int a = left.getRowType().getFieldCount();
        int b = nullable.getRowType().getFieldCount();
        int c = other.getRowType().getFieldCount();

        RelBuilder builder = call.builder();
        // C's columns come right after A's now, B's after C's
        RelNode innerFirst = builder.push(left).push(other)
                .join(JoinRelType.INNER, RexUtil.shift(inner.getCondition(), a + b, -b))
                .build();
        RelMetadataQuery mq = call.getMetadataQuery();
        Double kept = mq.getRowCount(innerFirst);
        Double before = mq.getRowCount(left);
        if (kept == null || before == null || !(kept < before)) {
            return;
        }
        builder.push(innerFirst).push(nullable).join(JoinRelType.LEFT, RexUtil.shift(outer.getCondition(), a, c));
        if (filter != null) {
            builder.filter(RexUtil.shift(filter.getCondition(), a, c));
        }
        List<RexNode> columns = new ArrayList<>(a + b + c);
        for (int i = 0; i < a; i++) {
            columns.add(builder.field(i));
        }
        for (int i = 0; i < b; i++) {
            columns.add(builder.field(a + c + i));
        }
        for (int i = 0; i < c; i++) {
            columns.add(builder.field(a + i));
        }
        call.transformTo(builder.project(columns, inner.getRowType().getFieldNames(), true).build());
    }
}
