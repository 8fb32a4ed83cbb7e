package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

/**
 * What one operator of a fragment did on one worker, as EXPLAIN ANALYZE shows it.
 *
 * @param operator the operator as EXPLAIN describes it
 * @param nanos time spent in it (its children's time included)
 * @param memoryBytes the most memory it held at once
 */
public record OperatorFigures(String operator, long rows, long batches, long nanos, long memoryBytes, long spilledBytes)
{
    public OperatorFigures
    {
        requireNonNull(operator, "operator is null");
    }
}
