package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Turns correlated EXISTS and NOT EXISTS into semi and anti joins before Calcite's
 * decorrelator sees them. Calcite's subquery removal leaves
 * {@code Correlate(left, Aggregate(Project(TRUE, Filter(condition, input))))}; the decorrelator
 * then builds a value generator (a join of every correlated value with the whole subquery
 * input), which for TPC-H q21 means five scans and joins of lineitem. When the correlation
 * appears only in that filter, the correlate is exactly a semi join (EXISTS) or, under a
 * filter {@code IS NULL(marker)}, an anti join (NOT EXISTS) on the same condition, with the
 * correlated fields read from the left input.
 */
final class ExistsToSemiJoin
{
    private ExistsToSemiJoin() {}

    static RelNode rewrite(RelNode rel)
    {
        return rel.accept(new RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                RelNode visited = super.visit(other);
                if (visited instanceof LogicalFilter filter && filter.getInput() instanceof LogicalCorrelate correlate
                        && correlate.getJoinType() == JoinRelType.LEFT) {
                    RelNode anti = notExists(filter, correlate);
                    if (anti != null) {
                        return anti;
                    }
                }
                if (visited instanceof LogicalCorrelate correlate && correlate.getJoinType() == JoinRelType.INNER) {
                    Subquery subquery = subquery(correlate);
                    if (subquery != null) {
                        return withMarker(LogicalJoin.create(correlate.getLeft(), subquery.input(), List.of(), subquery.condition(), java.util.Set.of(), JoinRelType.SEMI),
                                correlate, true);
                    }
                }
                return visited;
            }
        });
    }

    /** Filter(... AND IS NULL(marker) ..., Correlate LEFT) to Filter(rest, Anti join). */
    private static RelNode notExists(LogicalFilter filter, LogicalCorrelate correlate)
    {
        int marker = correlate.getLeft().getRowType().getFieldCount();
        List<RexNode> rest = new ArrayList<>();
        boolean found = false;
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            if (!found && conjunct.getKind() == SqlKind.IS_NULL && ((RexCall) conjunct).operands.get(0) instanceof RexInputRef ref && ref.getIndex() == marker) {
                found = true;
            }
            else {
                rest.add(conjunct);
            }
        }
        if (!found || RelOptUtil.InputFinder.bits(rest, null).get(marker)) {
            return null;
        }
        Subquery subquery = subquery(correlate);
        if (subquery == null) {
            return null;
        }
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        RelNode left = correlate.getLeft();
        if (!rest.isEmpty() && left instanceof LogicalCorrelate inner && inner.getJoinType() == JoinRelType.LEFT) {
            // NOT EXISTS (a) AND NOT EXISTS (b): Calcite stacks the correlates under one filter; the
            // rest of the filter reads only the left fields, so it moves below this anti join and
            // the correlate beneath becomes an anti join too (else the decorrelator gets it)
            RelNode below = notExists(LogicalFilter.create(left, RexUtil.composeConjunction(rexBuilder, rest)), inner);
            if (below != null) {
                left = below;
                rest = List.of();
            }
        }
        RelNode anti = LogicalJoin.create(left, subquery.input(), List.of(), subquery.condition(), java.util.Set.of(), JoinRelType.ANTI);
        RelNode filtered = rest.isEmpty() ? anti : LogicalFilter.create(anti, RexUtil.composeConjunction(rexBuilder, rest));
        return withMarker(filtered, correlate, false);
    }

    /** Restores the correlate's row type: the left fields, then the marker (TRUE or NULL). */
    private static RelNode withMarker(RelNode input, LogicalCorrelate correlate, boolean exists)
    {
        RexBuilder rexBuilder = correlate.getCluster().getRexBuilder();
        List<RexNode> projects = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RelDataTypeField field : correlate.getRowType().getFieldList()) {
            if (field.getIndex() < correlate.getLeft().getRowType().getFieldCount()) {
                projects.add(new RexInputRef(field.getIndex(), field.getType()));
            }
            else {
                RelDataType type = field.getType();
                projects.add(exists ? rexBuilder.makeCast(type, rexBuilder.makeLiteral(true)) : rexBuilder.makeNullLiteral(type));
            }
            names.add(field.getName());
        }
        return LogicalProject.create(input, List.of(), projects, names, java.util.Set.of());
    }

    /**
     * An EXISTS subquery as the right input of a semi or anti join: its input under the part of its
     * filter that does not read the outer row (so the subquery's own joins and filters plan as
     * usual), and the correlated part as the join condition over (left fields, input fields).
     */
    private record Subquery(RelNode input, RexNode condition) {}

    /**
     * The subquery of a correlate in the EXISTS shape, or null when the correlate does not have
     * that shape or the correlation reaches below its filter.
     */
    private static Subquery subquery(LogicalCorrelate correlate)
    {
        if (!(correlate.getRight() instanceof Aggregate aggregate) || !aggregate.getAggCallList().isEmpty() || aggregate.getGroupCount() != 1
                || aggregate.getGroupSet().nth(0) != 0 || aggregate.getGroupSets().size() != 1) {
            return null;
        }
        if (!(aggregate.getInput() instanceof Project project) || project.getProjects().size() != 1
                || !(project.getProjects().get(0) instanceof RexLiteral literal) || literal.getType().getSqlTypeName() != SqlTypeName.BOOLEAN
                || !Boolean.TRUE.equals(literal.getValueAs(Boolean.class))) {
            return null;
        }
        if (!(project.getInput() instanceof LogicalFilter filter)) {
            return null;
        }
        RelNode input = filter.getInput();
        CorrelationId id = correlate.getCorrelationId();
        if (!RelOptUtil.getVariablesUsed(input).isEmpty()) {
            return null;
        }
        List<RexNode> local = new ArrayList<>();
        List<RexNode> correlated = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            (RexUtil.containsCorrelation(conjunct) ? correlated : local).add(conjunct);
        }
        int leftCount = correlate.getLeft().getRowType().getFieldCount();
        boolean[] valid = {true};
        RexShuttle shift = new RexShuttle()
        {
            @Override
            public RexNode visitInputRef(RexInputRef ref)
            {
                return new RexInputRef(ref.getIndex() + leftCount, ref.getType());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access)
            {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable && variable.id.equals(id)) {
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                valid[0] = false;
                return access;
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable)
            {
                valid[0] = false;
                return variable;
            }
        };
        RexBuilder rexBuilder = correlate.getCluster().getRexBuilder();
        RexNode condition = RexUtil.composeConjunction(rexBuilder, correlated).accept(shift);
        if (!valid[0]) {
            return null;
        }
        RelNode right = local.isEmpty() ? input : LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, local));
        return new Subquery(right, condition);
    }
}
