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
                    RexNode condition = withSingleColumnImplications(rexBuilder, pull(rexBuilder, filter.getCondition()));
                    if (!condition.equals(filter.getCondition())) {
                        return filter.copy(filter.getTraitSet(), filter.getInput(), condition);
                    }
                }
                return visited;
            }
        });
    }

    /**
     * Adds, for every OR whose branches each restrict the same single column, the OR of those
     * restrictions: {@code (n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 = 'GERMANY' AND n2 =
     * 'FRANCE')} implies {@code n1 = 'FRANCE' OR n1 = 'GERMANY'}, which filter pushdown then
     * moves down to n1's table (TPC-H q7 and q19). The original OR stays, so the result is
     * equivalent.
     */
    static RexNode withSingleColumnImplications(RexBuilder rexBuilder, RexNode condition)
    {
        List<RexNode> result = new ArrayList<>(RelOptUtil.conjunctions(condition));
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (conjunct.getKind() != org.apache.calcite.sql.SqlKind.OR) {
                continue;
            }
            List<List<RexNode>> branches = new ArrayList<>();
            for (RexNode branch : RelOptUtil.disjunctions(conjunct)) {
                branches.add(RelOptUtil.conjunctions(branch));
            }
            java.util.Set<Integer> columns = new java.util.TreeSet<>();
            for (RexNode candidate : branches.get(0)) {
                org.apache.calcite.util.ImmutableBitSet used = RelOptUtil.InputFinder.bits(candidate);
                if (used.cardinality() == 1 && RexUtil.isDeterministic(candidate)) {
                    columns.add(used.nth(0));
                }
            }
            for (int column : columns) {
                List<RexNode> perBranch = new ArrayList<>();
                for (List<RexNode> branch : branches) {
                    List<RexNode> restrictions = new ArrayList<>();
                    for (RexNode part : branch) {
                        org.apache.calcite.util.ImmutableBitSet used = RelOptUtil.InputFinder.bits(part);
                        if (used.cardinality() == 1 && used.nth(0) == column && RexUtil.isDeterministic(part)) {
                            restrictions.add(part);
                        }
                    }
                    if (restrictions.isEmpty()) {
                        perBranch = null;
                        break;
                    }
                    perBranch.add(RexUtil.composeConjunction(rexBuilder, restrictions));
                }
                if (perBranch != null) {
                    RexNode implied = RexUtil.composeDisjunction(rexBuilder, perBranch);
                    if (!result.contains(implied)) {
                        result.add(implied);
                    }
                }
            }
        }
        return RexUtil.composeConjunction(rexBuilder, result);
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
