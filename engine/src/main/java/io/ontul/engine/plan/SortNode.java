package io.ontul.engine.plan;

import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.sort.SortOperator;

/**
 * ORDER BY, with OFFSET/LIMIT applied after sorting (top-N). A <em>partial</em> top-N keeps the
 * first {@code limit} rows of each parallel instance's own input (splittable): below the gather
 * of a top-N, so that only those rows travel to it, from threads or from workers.
 */
public final class SortNode
        extends PlanNode
{
    private final List<SortKey> keys;
    private final long offset;
    private final long limit;
    private final boolean partial;

    public SortNode(PlanNode child, List<SortKey> keys, long offset, long limit)
    {
        this(child, keys, offset, limit, false);
    }

    private SortNode(PlanNode child, List<SortKey> keys, long offset, long limit, boolean partial)
    {
        super(child.rowType(), List.of(child));
        this.keys = List.copyOf(keys);
        this.offset = offset;
        this.limit = limit;
        this.partial = partial;
    }

    /** The first {@code limit} rows, in {@code keys} order, of each instance of the splittable {@code child}. */
    public static SortNode partial(PlanNode child, List<SortKey> keys, long limit)
    {
        return new SortNode(child, keys, 0, limit, true);
    }

    @Override
    public boolean splittable()
    {
        return partial && children().get(0).splittable();
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new SortOperator(task.query(), children().get(0).open(task), schema(), keys, offset, limit, stats());
    }

    @Override
    public String describe()
    {
        List<String> names = new java.util.ArrayList<>();
        for (SortKey key : keys) {
            names.add(rowType().getFieldList().get(key.column()).getName() + (key.descending() ? " DESC" : " ASC") + (key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST"));
        }
        return (limit == Long.MAX_VALUE ? "Sort " : partial ? "TopN partial limit=" + limit + " " : "TopN limit=" + limit + " ") + names;
    }
}
