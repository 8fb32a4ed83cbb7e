package io.ontul.engine.plan;

import java.util.List;

import io.ontul.engine.operator.LimitOperator;
import io.ontul.engine.operator.Operator;

public final class LimitNode
        extends PlanNode
{
    private final long offset;
    private final long limit;

    public LimitNode(PlanNode child, long offset, long limit)
    {
        super(child.rowType(), List.of(child));
        this.offset = offset;
        this.limit = limit;
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new LimitOperator(children().get(0).open(task), offset, limit);
    }

    @Override
    public String describe()
    {
        return "Limit offset=" + offset + " limit=" + (limit == Long.MAX_VALUE ? "ALL" : limit);
    }
}
