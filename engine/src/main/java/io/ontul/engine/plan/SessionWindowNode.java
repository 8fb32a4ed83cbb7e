package io.ontul.engine.plan;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.window.SessionWindowFunction;
import io.ontul.engine.operator.window.SessionWindowOperator;

/**
 * A SESSION window table function ({@code FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts),
 * DESCRIPTOR(user_id), INTERVAL '5' MINUTE))}): its input's columns plus {@code window_start} and
 * {@code window_end} of the row's session. Needs every row of a key at once, so it runs in one
 * instance over the gathered input.
 */
public final class SessionWindowNode
        extends PlanNode
{
    private final SessionWindowFunction function;

    public SessionWindowNode(RelDataType rowType, PlanNode child, SessionWindowFunction function)
    {
        super(rowType, List.of(child));
        this.function = requireNonNull(function, "function is null");
    }

    public SessionWindowFunction function()
    {
        return function;
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new SessionWindowOperator(task.query(), children().get(0).open(task), function, schema());
    }

    @Override
    public String describe()
    {
        List<String> names = children().get(0).rowType().getFieldNames();
        return "SESSION time=" + names.get(function.timeColumn()) + " keys=" + Arrays.stream(function.keyColumns()).mapToObj(names::get).toList() + " gap=" + function.gap();
    }
}
