package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.exchange.LocalHashExchange;

/**
 * Runs its splittable child as parallel instances and hands each of its own instances the rows
 * of one share of the keys ({@link LocalHashExchange}): splittable, with every key in exactly
 * one instance. Placed between a partial and a final aggregation so the final step runs in
 * parallel.
 */
public final class HashExchangeNode
        extends PlanNode
{
    private final int[] keyColumns;
    private LocalHashExchange exchange;

    public HashExchangeNode(PlanNode child, int[] keyColumns)
    {
        super(child.rowType(), List.of(child));
        this.keyColumns = keyColumns.clone();
    }

    @Override
    public boolean splittable()
    {
        return true;
    }

    private synchronized LocalHashExchange exchange(TaskContext task)
    {
        if (exchange == null) {
            PlanNode child = children().get(0);
            int producers = task.query().parallelism();
            exchange = new LocalHashExchange(task.query(), instance -> child.open(new TaskContext(task.query(), instance, producers)), producers, task.instances(), keyColumns);
        }
        else if (exchange.consumers() != task.instances()) {
            throw new IllegalStateException("exchange opened for " + exchange.consumers() + " consumers, then for " + task.instances());
        }
        return exchange;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return exchange(task).consumer(task.instance());
    }

    @Override
    public String describe()
    {
        List<String> keys = new ArrayList<>();
        for (int key : keyColumns) {
            keys.add(rowType().getFieldList().get(key).getName());
        }
        return "LocalExchange (hash " + keys + ")";
    }
}
