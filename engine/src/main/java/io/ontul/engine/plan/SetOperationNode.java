package io.ontul.engine.plan;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.SetOperationOperator;

/** INTERSECT or EXCEPT, ALL or DISTINCT, over two or more gathered inputs. */
public final class SetOperationNode
        extends PlanNode
{
    private final SetOperationOperator.Kind kind;
    private final boolean all;

    public SetOperationNode(RelDataType rowType, List<PlanNode> inputs, SetOperationOperator.Kind kind, boolean all)
    {
        super(rowType, inputs);
        this.kind = kind;
        this.all = all;
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        List<Operator> inputs = children().stream().map(child -> child.open(task)).toList();
        return new SetOperationOperator(task.query(), inputs, schema(), kind, all);
    }

    @Override
    public String describe()
    {
        return kind + (all ? " ALL" : " DISTINCT");
    }
}
