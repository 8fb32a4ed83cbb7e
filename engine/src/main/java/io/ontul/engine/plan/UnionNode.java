package io.ontul.engine.plan;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.ConcatOperator;
import io.ontul.engine.operator.Operator;

/** UNION ALL of inputs that already have the output's column types. */
public final class UnionNode
        extends PlanNode
{
    public UnionNode(RelDataType rowType, List<PlanNode> inputs)
    {
        super(rowType, inputs);
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new ConcatOperator(task.query(), children().stream().map(child -> child.open(task)).toList(), schema());
    }

    @Override
    public String describe()
    {
        return "UnionAll";
    }
}
