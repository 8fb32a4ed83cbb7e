package io.ontul.engine.plan;

import java.util.function.UnaryOperator;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

/** Rewrites every node of a plan bottom-up, the plans of its subqueries (IN, EXISTS, scalar) included. */
final class PlanNodes
{
    private PlanNodes() {}

    static RelNode rewrite(RelNode plan, UnaryOperator<RelNode> rewrite)
    {
        RexShuttle subQueries = new RexShuttle()
        {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery)
            {
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                return visited.clone(PlanNodes.rewrite(visited.rel, rewrite));
            }
        };
        return plan.accept(new RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                return rewrite.apply(super.visit(other).accept(subQueries));
            }
        });
    }
}
