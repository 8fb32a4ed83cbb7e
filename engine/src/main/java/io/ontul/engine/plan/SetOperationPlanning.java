package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.SetOp;

import io.ontul.engine.operator.SetOperationOperator;

/** Plans INTERSECT and EXCEPT (ALL and DISTINCT). */
final class SetOperationPlanning
{
    private SetOperationPlanning() {}

    static PlanNode plan(RelNode rel, PhysicalPlanner planner)
    {
        SetOp setOperation = (SetOp) rel;
        List<PlanNode> inputs = new ArrayList<>();
        for (RelNode input : setOperation.getInputs()) {
            inputs.add(planner.planGathered(input));
        }
        SetOperationOperator.Kind kind = rel instanceof Intersect ? SetOperationOperator.Kind.INTERSECT : SetOperationOperator.Kind.EXCEPT;
        return new SetOperationNode(setOperation.getRowType(), inputs, kind, setOperation.all);
    }
}
