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
                    RexNode condition = joinCondition(correlate);
                    if (condition != null) {
                        return withMarker(LogicalJoin.create(correlate.getLeft(), subqueryInput(correlate), List.of(), condition, java.util.Set.of(), JoinRelType.SEMI),
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
        RexNode condition = joinCondition(correlate);
        if (condition == null) {
            return null;
        }
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        RelNode anti = LogicalJoin.create(correlate.getLeft(), subqueryInput(correlate), List.of(), condition, java.util.Set.of(), JoinRelType.ANTI);
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

    /** The input of the subquery's filter, if the subquery has the EXISTS shape. */
    private static RelNode subqueryInput(LogicalCorrelate correlate)
    {
        return ((LogicalFilter) ((Project) ((Aggregate) correlate.getRight()).getInput()).getInput()).getInput();
    }

    /**
     * The semi-join condition over (left fields, subquery input fields), or null when the
     * correlate does not have the EXISTS shape or the correlation reaches below its filter.
     */
    private static RexNode joinCondition(LogicalCorrelate correlate)
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
        if (RelOptUtil.getVariablesUsed(input).contains(id) || !RelOptUtil.getVariablesUsed(input).isEmpty()) {
            return null;
        }
        int leftCount = correlate.getLeft().getRowType().getFieldCount();
        boolean[] valid = {true};
        RexNode condition = filter.getCondition().accept(new RexShuttle()
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
        });
        return valid[0] ? condition : null;
    }
}
