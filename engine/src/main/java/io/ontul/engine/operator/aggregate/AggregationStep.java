package io.ontul.engine.operator.aggregate;

/**
 * Where a hash aggregation sits in its plan, which decides what it does when memory runs short.
 */
public enum AggregationStep
{
    /** The whole aggregation in one operator: spills groups to disk. */
    SINGLE(""),
    /** One parallel pipeline's share of a two-step aggregation: emits what it holds early. */
    PARTIAL(" (partial)"),
    /** Merges the partial results of a two-step aggregation: spills groups to disk. */
    FINAL(" (final)");

    private final String label;

    AggregationStep(String label)
    {
        this.label = label;
    }

    /** The suffix EXPLAIN shows after "HashAggregate". */
    public String label()
    {
        return label;
    }
}
