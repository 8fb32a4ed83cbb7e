package io.ontul.bench;

import java.util.stream.Stream;

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
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(BenchmarkOptions.USAGE.replace("TpchBenchmark", "TpcdsBenchmark").replace("TPC-H", "TPC-DS"));
            return;
        }
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(BenchmarkOptions.USAGE);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java io.ontul.bench.TpcdsBenchmark " + String.join(" ", args));
        new TpchBenchmark(options, command, "TPC-DS", EmbeddedTpchContenders::new, new TpcdsWorkload()).run();
        // DuckDB's and Arrow's native threads must not keep the JVM alive
        System.exit(0);
    }
}
