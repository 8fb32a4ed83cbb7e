package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

/**
 * What a task wrote to one state stream.
 *
 * @param name the stream's name within its task
 * @param batches Arrow batches written
 * @param rows rows over all batches
 */
public record StateStreamSummary(String name, long batches, long rows)
{
    public StateStreamSummary
    {
        requireNonNull(name, "name is null");
        if (batches < 0 || rows < 0) {
            throw new IllegalArgumentException("batches and rows must not be negative: " + batches + ", " + rows);
        }
    }
}
