package io.ontul.engine.plan;

import org.apache.calcite.rel.RelNode;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** Plans INTERSECT and EXCEPT (ALL and DISTINCT). */
final class SetOperationPlanning
{
    private SetOperationPlanning() {}

    static PlanNode plan(RelNode rel, PhysicalPlanner planner)
    {
        throw new OntulException(ErrorCode.NOT_SUPPORTED, "INTERSECT and EXCEPT are not supported yet");
    }
}
