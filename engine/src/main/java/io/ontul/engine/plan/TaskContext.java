package io.ontul.engine.plan;

import io.ontul.engine.query.QueryContext;

/**
 * Which instance of a parallel pipeline is being opened: instance {@code instance} of
 * {@code instances}. Scans read every {@code instances}-th split starting at {@code instance}.
 */
public record TaskContext(QueryContext query, int instance, int instances)
{
    public static TaskContext single(QueryContext query)
    {
        return new TaskContext(query, 0, 1);
    }
}
