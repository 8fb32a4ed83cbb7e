package io.ontul.engine.plan;

import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.SharedResult;

/**
 * A subplan the query reads in several places (a WITH query named more than once, the same
 * subquery in two branches), found by {@link CommonSubplans}: the plan holds one node for it
 * under every parent, which computes it once per query and hands each parent the same batches
 * ({@link SharedResult}). Splittable: a parent split into parallel instances reads a share of
 * the batches in each. Like every node below it, it serves one query context: a plan that shares
 * subplans runs in one process ({@link io.ontul.engine.scheduler.QueryScheduler#distribute}).
 */
public final class SharedSubplanNode
        extends PlanNode
{
    private final int id;
    private int readers;
    private SharedResult result;

    SharedSubplanNode(int id, PlanNode child)
    {
        super(child.rowType(), List.of(child));
        if (child.splittable()) {
            throw new IllegalArgumentException("a shared subplan computes its whole result in one instance: gather its input first");
        }
        this.id = id;
    }

    /** The planner gives this node one more parent. */
    synchronized void addReader()
    {
        readers++;
    }

    public int id()
    {
        return id;
    }

    @Override
    public boolean splittable()
    {
        return true;
    }

    @Override
    protected synchronized Operator create(TaskContext task)
    {
        if (result == null) {
            PlanNode child = children().get(0);
            result = new SharedResult(task.query(), () -> child.open(TaskContext.single(task.query())), schema());
            task.query().closeAtEnd(result);
        }
        return result.reader(task.instance(), task.instances());
    }

    @Override
    public String describe()
    {
        return "SharedSubplan #" + id + " (computed once, read by " + readers + ")";
    }
}
