package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.exchange.LocalHashExchange;
import io.ontul.engine.operator.exchange.RemoteSource;

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
    private volatile RemoteSource remote;

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

    /** The columns whose hash decides where a row goes. */
    public int[] keyColumns()
    {
        return keyColumns.clone();
    }

    /** Reads the child's output from the nodes that run it (set by the scheduler before the plan is opened). */
    public void distribute(RemoteSource source)
    {
        this.remote = source;
    }

    public java.util.Optional<RemoteSource> remote()
    {
        return java.util.Optional.ofNullable(remote);
    }

    private synchronized LocalHashExchange exchange(TaskContext task)
    {
        if (exchange == null) {
            PlanNode child = children().get(0);
            RemoteSource source = remote;
            if (source != null) {
                // this process's instances take the rows the other nodes send it
                int producers = Math.min(task.query().parallelism(), source.streams());
                exchange = new LocalHashExchange(task.query(), instance -> source.producer(task.query(), instance, producers), producers, task.localInstances(), keyColumns);
            }
            else {
                int producers = task.query().parallelism();
                exchange = new LocalHashExchange(task.query(), instance -> child.open(new TaskContext(task.query(), instance, producers)), producers, task.instances(), keyColumns);
            }
        }
        else if (exchange.consumers() != task.localInstances()) {
            throw new IllegalStateException("exchange opened for " + exchange.consumers() + " consumers, then for " + task.localInstances());
        }
        return exchange;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        // a process runs a block of consecutive instances (all of them, unless workers share them)
        return exchange(task).consumer(task.instance() % task.localInstances());
    }

    @Override
    public String describe()
    {
        List<String> keys = new ArrayList<>();
        for (int key : keyColumns) {
            keys.add(rowType().getFieldList().get(key).getName());
        }
        RemoteSource source = remote;
        if (source == null) {
            return "LocalExchange (hash " + keys + ")";
        }
        return source.broadcast() ? "Exchange broadcast from " + source.describe() + ", then LocalExchange (hash " + keys + ")"
                : "Exchange repartition (hash " + keys + ") from " + source.describe();
    }
}
