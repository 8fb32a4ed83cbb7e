package io.ontul.engine.plan;

import io.ontul.engine.query.QueryContext;

/**
 * Which instance of a parallel pipeline is being opened: instance {@code instance} of
 * {@code instances}. Scans read every {@code instances}-th split starting at {@code instance}.
 * When a pipeline's instances are spread over the workers of a cluster, {@code localInstances}
 * of them run in this process: that many share what the pipeline builds once per process (a
 * join's hash table, an aggregation's merged state).
 */
public record TaskContext(QueryContext query, int instance, int instances, int localInstances)
{
    public TaskContext
    {
        if (instance < 0 || instance >= instances || localInstances < 1 || localInstances > instances) {
            throw new IllegalArgumentException("instance " + instance + " of " + instances + " (" + localInstances + " here)");
        }
    }

    /** Instance {@code instance} of {@code instances}, all in this process. */
    public TaskContext(QueryContext query, int instance, int instances)
    {
        this(query, instance, instances, instances);
    }

    public static TaskContext single(QueryContext query)
    {
        return new TaskContext(query, 0, 1);
    }
}
