package io.ontul.engine.plan;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.window.WindowGroup;
import io.ontul.engine.operator.window.WindowOperator;

/** Window functions: the input columns followed by one column per window function. */
public final class WindowNode
        extends PlanNode
{
    private final int inputColumns;
    private final List<WindowGroup> groups;

    public WindowNode(RelDataType rowType, PlanNode child, List<WindowGroup> groups)
    {
        super(rowType, List.of(child));
        this.inputColumns = child.rowType().getFieldCount();
        this.groups = List.copyOf(groups);
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new WindowOperator(task.query(), children().get(0).open(task), schema(), inputColumns, groups, stats());
    }

    @Override
    public String describe()
    {
        return "Window " + groups;
    }
}
