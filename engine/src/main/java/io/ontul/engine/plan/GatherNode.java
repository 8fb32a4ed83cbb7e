package io.ontul.engine.plan;

import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.exchange.GatherOperator;
import io.ontul.engine.operator.exchange.RemoteSource;

/**
 * Runs its splittable child as parallel instances on worker threads and merges the output. In
 * a cluster the child may run on the workers instead ({@link #distribute}): this node then
 * gathers their streams, the exchange that ends a fragment.
 */
public final class GatherNode
        extends PlanNode
{
    private volatile RemoteSource remote;
    private volatile boolean broadcast;

    public GatherNode(PlanNode child)
    {
        super(child.rowType(), List.of(child));
    }

    /** Reads the child's output from the nodes that run it (set by the scheduler before the plan is opened). */
    public void distribute(RemoteSource source)
    {
        this.remote = source;
    }

    /**
     * Marks this gather as part of a fragment that runs on every worker, where it feeds a join's
     * build side: each worker computes all of it (a broadcast by recomputation), for EXPLAIN.
     */
    public void computedOnEveryWorker()
    {
        this.broadcast = true;
    }

    /** The nodes the child runs on, when it runs remotely. */
    public java.util.Optional<RemoteSource> remote()
    {
        return java.util.Optional.ofNullable(remote);
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        PlanNode child = children().get(0);
        RemoteSource source = remote;
        if (source != null) {
            int producers = Math.min(task.query().parallelism(), source.streams());
            return new GatherOperator(task.query(), instance -> source.producer(task.query(), instance, producers), producers);
        }
        int instances = task.query().parallelism();
        return new GatherOperator(task.query(), instance -> child.open(new TaskContext(task.query(), instance, instances)), instances);
    }

    @Override
    public String describe()
    {
        RemoteSource source = remote;
        if (source != null) {
            return (source.broadcast() ? "Exchange broadcast from " : "Exchange gather from ") + source.describe();
        }
        return broadcast ? "Broadcast (every worker computes it whole)" : "Gather (parallel)";
    }
}
