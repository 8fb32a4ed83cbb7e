package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Plans {@code UNNEST} ({@link UnnestNode}): {@code FROM UNNEST(array, ...)} (Calcite's
 * Uncollect over a one-row projection) and {@code CROSS JOIN UNNEST(t.a, ...)} / {@code LEFT JOIN
 * UNNEST(t.a, ...) ON true} (a Correlate whose right side is that Uncollect over the outer row,
 * optionally under filters on the elements): the arrays are computed as columns of the outer
 * row and each row is repeated once per element, with no join.
 */
final class UnnestPlanning
{
    private UnnestPlanning() {}

    static PlanNode plan(Uncollect uncollect, PhysicalPlanner planner)
    {
        checkArrays(uncollect.getInput().getRowType());
        PlanNode input = planner.plan(uncollect.getInput());
        int[] arrays = new int[uncollect.getInput().getRowType().getFieldCount()];
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = i;
        }
        return new UnnestNode(uncollect.getRowType(), input, new int[0], arrays, uncollect.withOrdinality, false);
    }

    /** The plan of a Correlate over UNNEST of the outer row, or null when the Correlate is another kind. */
    static PlanNode planCorrelate(Correlate correlate, PhysicalPlanner planner, RelDataTypeFactory typeFactory)
    {
        List<RexNode> conditions = new ArrayList<>();
        RelNode right = correlate.getRight();
        while (right instanceof Filter filter) {
            conditions.add(filter.getCondition());
            right = filter.getInput();
        }
        if (!(right instanceof Uncollect uncollect)) {
            if (containsUncollect(correlate.getRight())) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "A subquery over UNNEST of the outer row's arrays is not supported yet: "
                        + "write FROM t CROSS JOIN UNNEST(t.a) AS u(x) and aggregate with GROUP BY");
            }
            return null;
        }
        if (!(uncollect.getInput() instanceof Project project) || !(project.getInput() instanceof Values values) || values.getTuples().size() != 1) {
            return null;
        }
        if (correlate.getJoinType() != JoinRelType.INNER && correlate.getJoinType() != JoinRelType.LEFT) {
            return null;
        }
        if (correlate.getJoinType() == JoinRelType.LEFT && !conditions.isEmpty()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "LEFT JOIN UNNEST with a condition on the elements is not supported: filter in WHERE instead");
        }
        checkArrays(project.getRowType());
        RelDataType left = correlate.getLeft().getRowType();
        int leftCount = left.getFieldCount();
        // the arrays, as expressions of the outer row
        RexShuttle outerRow = new RexShuttle()
        {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access)
            {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable && variable.id.equals(correlate.getCorrelationId())) {
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitInputRef(RexInputRef ref)
            {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "UNNEST of a value that is not an array of the outer row is not supported");
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable)
            {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "UNNEST of an array of an enclosing query is not supported");
            }
        };
        List<RexNode> projections = new ArrayList<>();
        RelDataTypeFactory.Builder projected = typeFactory.builder();
        for (RelDataTypeField field : left.getFieldList()) {
            projections.add(new RexInputRef(field.getIndex(), field.getType()));
            projected.add("o" + field.getIndex(), field.getType());
        }
        int[] replicated = new int[leftCount];
        for (int i = 0; i < leftCount; i++) {
            replicated[i] = i;
        }
        int[] arrays = new int[project.getProjects().size()];
        for (int a = 0; a < arrays.length; a++) {
            RexNode array = project.getProjects().get(a).accept(outerRow);
            projections.add(array);
            projected.add("a" + a, array.getType());
            arrays[a] = leftCount + a;
        }
        PlanNode outer = new FilterProjectNode(projected.build(), planner.plan(correlate.getLeft()), null, projections);
        // the outer row's columns, then the elements (filters above the Uncollect keep its row type)
        RelDataType unnestType = correlate.getRowType();
        PlanNode unnest = new UnnestNode(unnestType, outer, replicated, arrays, uncollect.withOrdinality, correlate.getJoinType() == JoinRelType.LEFT);
        if (conditions.isEmpty()) {
            return unnest;
        }
        RexNode condition = RexUtil.shift(RexUtil.composeConjunction(correlate.getCluster().getRexBuilder(), conditions), leftCount);
        List<RexNode> identity = new ArrayList<>();
        for (RelDataTypeField field : unnestType.getFieldList()) {
            identity.add(new RexInputRef(field.getIndex(), field.getType()));
        }
        return new FilterProjectNode(correlate.getRowType(), unnest, condition, identity);
    }

    private static void checkArrays(RelDataType rowType)
    {
        for (RelDataTypeField field : rowType.getFieldList()) {
            if (field.getType().getSqlTypeName() != SqlTypeName.ARRAY) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "UNNEST of " + field.getType().getSqlTypeName() + " is not supported: only arrays unnest");
            }
            if (field.getType().getComponentType().isStruct()) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "UNNEST of an array of rows is not supported");
            }
        }
    }

    private static boolean containsUncollect(RelNode rel)
    {
        if (rel instanceof Uncollect) {
            return true;
        }
        for (RelNode input : rel.getInputs()) {
            if (containsUncollect(input)) {
                return true;
            }
        }
        return false;
    }
}
