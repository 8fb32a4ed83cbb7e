package io.ontul.bench;

/**
 * TPC-DS on Ontul and DuckDB side by side, in one JVM: the 99 queries (103 texts) over the same
 * generated rows in memory in both engines, timed as {@link TpchBenchmark} times TPC-H, with
 * {@code --check} comparing every result. Run it with {@code bench/run-tpcds.sh}; the options are
 * {@link BenchmarkOptions#USAGE}'s (query names q01 ... q14a, q14b ... q99).
 */
public final class TpcdsBenchmark
{
    private TpcdsBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        TpchBenchmark.main(args, "TpcdsBenchmark", new TpcdsWorkload());
    }
}
