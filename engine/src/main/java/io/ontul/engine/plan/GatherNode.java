package io.ontul.engine.plan;

import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.exchange.GatherOperator;

/** Runs its splittable child as parallel instances on worker threads and merges the output. */
public final class GatherNode
        extends PlanNode
{
    public GatherNode(PlanNode child)
    {
        super(child.rowType(), List.of(child));
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        PlanNode child = children().get(0);
        int instances = task.query().parallelism();
        return new GatherOperator(task.query(), instance -> child.open(new TaskContext(task.query(), instance, instances)), instances);
    }

    @Override
    public String describe()
    {
        return "Gather (parallel)";
    }
}
