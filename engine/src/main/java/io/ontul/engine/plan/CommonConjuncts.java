package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/** Pulls conjuncts common to every branch of an OR out of it. */
final class CommonConjuncts
{
    private CommonConjuncts() {}

    /** Applies {@link #pull} to every filter of a plan, before filters are pushed into joins. */
    static RelNode pullInFilters(RelNode rel)
    {
        RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
        return rel.accept(new RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                RelNode visited = super.visit(other);
                if (visited instanceof LogicalFilter filter) {
                    RexNode condition = pull(rexBuilder, filter.getCondition());
                    if (!condition.equals(filter.getCondition())) {
                        return filter.copy(filter.getTraitSet(), filter.getInput(), condition);
                    }
                }
                return visited;
            }
        });
    }

    /**
     * {@code (a AND b) OR (a AND c)} becomes {@code a AND (b OR c)}: a join key repeated in
     * every branch of an OR (TPC-H q19) becomes a hash key instead of a nested-loop residual.
     */
    static RexNode pull(RexBuilder rexBuilder, RexNode condition)
    {
        List<RexNode> result = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (conjunct.getKind() != org.apache.calcite.sql.SqlKind.OR) {
                result.add(conjunct);
                continue;
            }
            List<List<RexNode>> branches = new ArrayList<>();
            for (RexNode branch : RelOptUtil.disjunctions(conjunct)) {
                branches.add(new ArrayList<>(RelOptUtil.conjunctions(branch)));
            }
            List<RexNode> common = new ArrayList<>();
            for (RexNode candidate : branches.get(0)) {
                if (RexUtil.isDeterministic(candidate) && branches.stream().allMatch(branch -> branch.contains(candidate))) {
                    common.add(candidate);
                }
            }
            if (common.isEmpty()) {
                result.add(conjunct);
                continue;
            }
            List<RexNode> rest = new ArrayList<>();
            for (List<RexNode> branch : branches) {
                branch.removeAll(common);
                rest.add(RexUtil.composeConjunction(rexBuilder, branch));
            }
            result.addAll(common);
            result.add(RexUtil.composeDisjunction(rexBuilder, rest));
        }
        return RexUtil.composeConjunction(rexBuilder, result);
    }

}
