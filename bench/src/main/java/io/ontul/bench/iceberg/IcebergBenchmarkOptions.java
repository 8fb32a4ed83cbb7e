package io.ontul.bench.iceberg;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

import io.ontul.bench.TpchSchemaNames;

/**
 * Command line of {@link IcebergBenchmark}.
 */
record IcebergBenchmarkOptions(double scale, int runs, int warmups, Optional<Path> out, Optional<Path> directory)
{
    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: bench/run-iceberg.sh [--scale 1] [--runs 3] [--warmup 1] [--out bench/RESULTS.md|none] [--directory DIR]",
            "  --scale      TPC-H scale factor of lineitem (0.01 is tpch.tiny)",
            "  --runs       timed runs of each query per engine; the median counts",
            "  --warmup     untimed runs of each query per engine first",
            "  --out        file the report section is appended to, or none to only print it",
            "  --directory  where the warehouse and DuckDB's files go (default: a temporary directory, deleted at the end)");

    IcebergBenchmarkOptions
    {
        requireNonNull(out, "out is null");
        requireNonNull(directory, "directory is null");
        if (scale <= 0 || runs < 1 || warmups < 0) {
            throw new IllegalArgumentException("scale must be positive, runs at least 1, warmup not negative");
        }
    }

    static IcebergBenchmarkOptions parse(String[] args)
    {
        double scale = 1;
        int runs = 3;
        int warmups = 1;
        Optional<Path> out = Optional.of(Path.of("bench/RESULTS.md"));
        Optional<Path> directory = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("Missing value for " + option);
            }
            String value = args[++i];
            try {
                switch (option) {
                    case "--scale" -> scale = value.equals("tiny") ? 0.01 : Double.parseDouble(value);
                    case "--runs" -> runs = Integer.parseInt(value);
                    case "--warmup" -> warmups = Integer.parseInt(value);
                    case "--out" -> out = value.equals("none") ? Optional.empty() : Optional.of(Path.of(value));
                    case "--directory" -> directory = Optional.of(Path.of(value));
                    default -> throw new IllegalArgumentException("Unknown option " + option);
                }
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException("Bad value for " + option + ": " + value);
            }
        }
        return new IcebergBenchmarkOptions(scale, runs, warmups, out, directory);
    }

    String tpchSchema()
    {
        if (scale == 0.01) {
            return "tiny";
        }
        return TpchSchemaNames.of(scale);
    }
}
