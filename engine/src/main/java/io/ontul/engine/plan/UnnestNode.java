package io.ontul.engine.plan;

import java.util.Arrays;
import java.util.List;

import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.UnnestOperator;

/**
 * {@code UNNEST}: the rows of the input once per element of its array columns
 * ({@link UnnestOperator}), for {@code FROM UNNEST(...)} and {@code CROSS JOIN / LEFT JOIN
 * UNNEST(t.a, ...)} alike. Row by row, so it runs in every parallel instance of its input.
 */
public final class UnnestNode
        extends PlanNode
{
    private final int[] replicated;
    private final int[] arrays;
    private final boolean ordinality;
    private final boolean outer;

    public UnnestNode(RelDataType rowType, PlanNode child, int[] replicated, int[] arrays, boolean ordinality, boolean outer)
    {
        super(rowType, List.of(child));
        this.replicated = replicated.clone();
        this.arrays = arrays.clone();
        this.ordinality = ordinality;
        this.outer = outer;
    }

    @Override
    public boolean splittable()
    {
        return children().get(0).splittable();
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new UnnestOperator(task.query(), children().get(0).open(task), replicated, arrays, ordinality, outer, schema());
    }

    @Override
    public String describe()
    {
        StringBuilder text = new StringBuilder("Unnest arrays=");
        text.append(Arrays.stream(arrays).mapToObj(column -> "$" + column).toList());
        if (ordinality) {
            text.append(" with ordinality");
        }
        if (outer) {
            text.append(" outer");
        }
        return withNames(text.toString(), children().get(0).rowType());
    }
}
