package io.ontul.engine.plan;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import io.ontul.engine.expression.KernelCompiler;
import io.ontul.engine.expression.ProjectionKernel;
import io.ontul.engine.operator.FilterProjectOperator;
import io.ontul.engine.operator.Operator;

/** Filter (optional) and projection, compiled into one generated kernel. */
public final class FilterProjectNode
        extends PlanNode
{
    private final RexNode filter;
    private final List<RexNode> projections;
    private final int[] passThrough;

    public FilterProjectNode(RelDataType rowType, PlanNode child, RexNode filter, List<RexNode> projections)
    {
        super(rowType, List.of(child));
        this.filter = filter;
        this.projections = List.copyOf(projections);
        this.passThrough = filter == null && projections.stream().allMatch(p -> p instanceof RexInputRef)
                ? projections.stream().mapToInt(p -> ((RexInputRef) p).getIndex()).toArray()
                : null;
    }

    /** The same filter and projection over another input of the same row type (a streaming job's polled batches). */
    public FilterProjectNode withChild(PlanNode child)
    {
        return new FilterProjectNode(rowType(), child, filter, projections);
    }

    /** The output column expressions, over the input's columns. */
    public List<RexNode> projections()
    {
        return projections;
    }

    @Override
    public boolean splittable()
    {
        return children().get(0).splittable();
    }

    @Override
    protected Operator create(TaskContext task)
    {
        PlanNode child = children().get(0);
        List<RelDataType> inputTypes = child.rowType().getFieldList().stream().map(RelDataTypeField::getType).toList();
        ProjectionKernel kernel = passThrough != null ? null : KernelCompiler.compile(inputTypes, filter, projections, task.query().rexBuilder());
        return new FilterProjectOperator(task.query(), child.open(task), kernel, schema(), passThrough, KernelCompiler.bareInputs(inputTypes, projections));
    }

    @Override
    public String describe()
    {
        RelDataType input = children().get(0).rowType();
        return withNames((filter == null ? "Project" : "FilterProject filter=" + filter) + " " + projections, input);
    }
}
