package io.ontul.bench;

/**
 * Planning time on Ontul and DuckDB side by side, in one JVM: {@code EXPLAIN} of each
 * {@link PlanningWorkload} query, timed as {@link TpchBenchmark} times queries (best of the runs,
 * engines alternating). Run it with {@code bench/run-planning.sh}; the options are
 * {@link BenchmarkOptions#USAGE}'s (query names q01 ... q22, join8, join12, join16, join20, join32, join64).
 */
public final class PlanningBenchmark
{
    private PlanningBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        TpchBenchmark.main(args, "PlanningBenchmark", new PlanningWorkload());
    }
}
