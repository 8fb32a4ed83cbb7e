package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** One query of the benchmark: its timings on both engines and, with --check, the comparison. */
public final class QueryMeasurement
{
    /** How a check that could not compare the results starts. */
    public static final String NOT_COMPARED = "not compared";

    private final String name;
    private final EngineTimings ontul = new EngineTimings();
    private final EngineTimings duckDb = new EngineTimings();
    private String check;

    public QueryMeasurement(String name)
    {
        this.name = requireNonNull(name, "name is null");
    }

    public String name()
    {
        return name;
    }

    public EngineTimings ontul()
    {
        return ontul;
    }

    public EngineTimings duckDb()
    {
        return duckDb;
    }

    /**
     * "ok", "not compared: WHY", or "differs: WHAT"; empty when not checked.
     */
    public Optional<String> check()
    {
        return Optional.ofNullable(check);
    }

    public void setCheck(String check)
    {
        this.check = requireNonNull(check, "check is null");
    }

    /** True when both engines ran the query, so the times can be compared. */
    public boolean bothTimed()
    {
        return ontul.bestNanos().isPresent() && duckDb.bestNanos().isPresent();
    }
}
