package io.ontul.engine.plan;

import java.util.List;

import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;

import io.ontul.engine.expression.KernelCompiler;
import io.ontul.engine.expression.ProjectionKernel;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.join.HashJoinOperator;
import io.ontul.engine.operator.join.JoinBuild;
import io.ontul.engine.operator.join.JoinType;
import io.ontul.engine.type.ArrowTypes;

/**
 * Hash join: the right input is built once per query and shared; the left input is probed,
 * in parallel when it is splittable and the join type allows. No keys means a nested-loop join.
 */
public final class JoinNode
        extends PlanNode
{
    private final JoinType joinType;
    private final int[] leftKeys;
    private final int[] rightKeys;
    private final boolean[] nullSafe;
    private final RexNode residual;
    private final RelDataType joinedRowType;
    private JoinBuild build;

    public JoinNode(RelDataType rowType, RelDataType joinedRowType, PlanNode left, PlanNode right, JoinType joinType, int[] leftKeys, int[] rightKeys, boolean[] nullSafe, RexNode residual)
    {
        super(rowType, List.of(left, right));
        this.joinType = joinType;
        this.leftKeys = leftKeys;
        this.rightKeys = rightKeys;
        this.nullSafe = nullSafe;
        this.residual = residual;
        this.joinedRowType = joinedRowType;
    }

    public JoinType joinType()
    {
        return joinType;
    }

    @Override
    public boolean splittable()
    {
        return children().get(0).splittable();
    }

    private synchronized JoinBuild build(TaskContext task)
    {
        if (build == null) {
            PlanNode right = children().get(1);
            int users = splittable() ? task.localInstances() : 1;
            build = new JoinBuild(task.query(), () -> right.open(TaskContext.single(task.query())), rightKeys, nullSafe, users, stats());
        }
        return build;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        JoinBuild shared = build(task);
        ProjectionKernel kernel = residual == null ? null : KernelCompiler.compile(
                joinedRowType.getFieldList().stream().map(RelDataTypeField::getType).toList(), null, List.of(residual), task.query().rexBuilder());
        Schema joinedSchema = ArrowTypes.toSchema(joinedRowType);
        Schema outputSchema = joinType.outputsOneSide() ? schema() : joinedSchema;
        return new HashJoinOperator(task.query(), children().get(0).open(task), shared, joinType, leftKeys, nullSafe, kernel, joinedSchema, outputSchema,
                children().get(0).rowType().getFieldCount(), streams(children().get(0)));
    }

    /** Whether {@code node} only streams rows: scans, values, filters, projections and gathers of them, none holding memory that grows. */
    static boolean streams(PlanNode node)
    {
        boolean streaming = node instanceof ScanNode || node instanceof ValuesNode || node instanceof FilterProjectNode || node instanceof GatherNode;
        return streaming && node.children().stream().allMatch(JoinNode::streams);
    }

    @Override
    public String describe()
    {
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < leftKeys.length; i++) {
            keys.append(i == 0 ? " on " : " and ")
                    .append(children().get(0).rowType().getFieldList().get(leftKeys[i]).getName())
                    .append(nullSafe[i] ? " is not distinct from " : " = ")
                    .append(children().get(1).rowType().getFieldList().get(rightKeys[i]).getName());
        }
        return (leftKeys.length == 0 ? "NestedLoopJoin " : "HashJoin ") + joinType + keys
                + (residual == null ? "" : " residual=" + withNames(residual.toString(), joinedRowType));
    }
}
