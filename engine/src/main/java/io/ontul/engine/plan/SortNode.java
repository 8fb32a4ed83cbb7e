package io.ontul.engine.plan;

import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.sort.SortOperator;

/** ORDER BY, with OFFSET/LIMIT applied after sorting (top-N). */
public final class SortNode
        extends PlanNode
{
    private final List<SortKey> keys;
    private final long offset;
    private final long limit;

    public SortNode(PlanNode child, List<SortKey> keys, long offset, long limit)
    {
        super(child.rowType(), List.of(child));
        this.keys = List.copyOf(keys);
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
        return new SortOperator(task.query(), children().get(0).open(task), schema(), keys, offset, limit, stats());
    }

    @Override
    public String describe()
    {
        List<String> names = new java.util.ArrayList<>();
        for (SortKey key : keys) {
            names.add(rowType().getFieldList().get(key.column()).getName() + (key.descending() ? " DESC" : " ASC") + (key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST"));
        }
        return (limit == Long.MAX_VALUE ? "Sort " : "TopN limit=" + limit + " ") + names;
    }
}
