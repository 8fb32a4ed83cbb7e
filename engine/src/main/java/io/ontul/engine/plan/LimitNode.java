package io.ontul.engine.plan;

import java.util.List;

import io.ontul.engine.operator.LimitOperator;
import io.ontul.engine.operator.Operator;

/**
 * OFFSET/LIMIT. A <em>partial</em> limit passes the first {@code limit} rows of each parallel
 * instance (splittable): below the gather of a limit, so that no more than that travels to it.
 */
public final class LimitNode
        extends PlanNode
{
    private final long offset;
    private final long limit;
    private final boolean partial;

    public LimitNode(PlanNode child, long offset, long limit)
    {
        this(child, offset, limit, false);
    }

    private LimitNode(PlanNode child, long offset, long limit, boolean partial)
    {
        super(child.rowType(), List.of(child));
        this.offset = offset;
        this.limit = limit;
        this.partial = partial;
    }

    /** The first {@code limit} rows of each instance of the splittable {@code child}. */
    public static LimitNode partial(PlanNode child, long limit)
    {
        return new LimitNode(child, 0, limit, true);
    }

    @Override
    public boolean splittable()
    {
        return partial && children().get(0).splittable();
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new LimitOperator(children().get(0).open(task), offset, limit);
    }

    @Override
    public String describe()
    {
        return (partial ? "Limit partial" : "Limit offset=" + offset) + " limit=" + (limit == Long.MAX_VALUE ? "ALL" : limit);
    }
}
