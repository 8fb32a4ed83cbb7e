package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * {@code (A LEFT JOIN B) JOIN C ON <condition on B's columns>}: when the inner join's condition
 * cannot be true for a row whose B columns are NULL (a B column equals a C column), the rows the
 * left join keeps without a match are dropped anyway, so it is an inner join, which the join
 * order may then place freely. TPC-DS q93 joins store sales with their returns (LEFT) and the
 * returns' reason with one reason: as inner joins, the one reason picks its few returns before
 * 2.9 million sales are probed. Calcite does this for a WHERE right above an outer join, not for
 * the condition of a join above it. A projection in between passes B's columns through.
 */
public final class NullRejectedOuterJoin
        extends RelOptRule
{
    /** The outer join directly under the inner join's left side. */
    public static final NullRejectedOuterJoin RULE = new NullRejectedOuterJoin(false);
    /** The outer join under a projection on the inner join's left side. */
    public static final NullRejectedOuterJoin THROUGH_PROJECT = new NullRejectedOuterJoin(true);

    private final boolean throughProject;

    private NullRejectedOuterJoin(boolean throughProject)
    {
        super(throughProject
                        ? operand(Join.class, operand(Project.class, operand(Join.class, any())), operand(RelNode.class, any()))
                        : operand(Join.class, operand(Join.class, any()), operand(RelNode.class, any())),
                throughProject ? "NullRejectedOuterJoin(project)" : "NullRejectedOuterJoin");
        this.throughProject = throughProject;
    }

    @Override
    public boolean matches(RelOptRuleCall call)
    {
        Join inner = call.rel(0);
        Join outer = call.rel(throughProject ? 2 : 1);
        if (inner.getJoinType() != JoinRelType.INNER || outer.getJoinType() != JoinRelType.LEFT) {
            return false;
        }
        int a = outer.getLeft().getRowType().getFieldCount();
        int b = outer.getRight().getRowType().getFieldCount();
        // the inner join's columns that are B's columns (through the projection, if any)
        ImmutableBitSet.Builder nullable = ImmutableBitSet.builder();
        if (throughProject) {
            Project project = call.rel(1);
            for (int i = 0; i < project.getProjects().size(); i++) {
                if (project.getProjects().get(i) instanceof RexInputRef ref && ref.getIndex() >= a && ref.getIndex() < a + b) {
                    nullable.set(i);
                }
            }
        }
        else {
            nullable.set(a, a + b);
        }
        ImmutableBitSet columns = nullable.build();
        if (columns.isEmpty()) {
            return false;
        }
        for (RexNode conjunct : RelOptUtil.conjunctions(inner.getCondition())) {
            if (RelOptUtil.InputFinder.bits(conjunct).intersects(columns) && Strong.isNotTrue(conjunct, columns)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void onMatch(RelOptRuleCall call)
    {
        Join inner = call.rel(0);
        Join outer = call.rel(throughProject ? 2 : 1);
        RelBuilder builder = call.builder();
        builder.push(outer.getLeft()).push(outer.getRight()).join(JoinRelType.INNER, outer.getCondition());
        if (throughProject) {
            Project project = call.rel(1);
            // B's columns are no longer nullable: the projection reads them with their new types
            RelNode joined = builder.peek();
            List<RexNode> projects = new ArrayList<>();
            for (RexNode expression : project.getProjects()) {
                projects.add(expression.accept(new RexShuttle()
                {
                    @Override
                    public RexNode visitInputRef(RexInputRef ref)
                    {
                        return RexInputRef.of(ref.getIndex(), joined.getRowType());
                    }
                }));
            }
            builder.project(projects, project.getRowType().getFieldNames(), true);
        }
        builder.push(inner.getRight()).join(JoinRelType.INNER, inner.getCondition());
        // the same row type as before: CASTs to the nullable types the outer join had
        call.transformTo(builder.convert(inner.getRowType(), false).build());
    }
}
