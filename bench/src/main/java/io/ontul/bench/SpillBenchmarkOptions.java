package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Command-line options of {@link SpillBenchmark}. */
public final class SpillBenchmarkOptions
{
    public static final String USAGE = String.join(System.lineSeparator(),
            "usage: SpillBenchmark [--scale 1] [--runs 3] [--warmup 1] [--fraction 0.1] [--queries aggregate,join,orders-join,sort,window,window-total] [--compression lz4] [--join-compression none] [--out bench/RESULTS.md|none] [--timeout 600]",
            "  --scale     TPC-H scale factor of lineitem and orders (default 1)",
            "  --runs      timed runs per query and case; the median counts (default 3)",
            "  --warmup    untimed runs per query and case before timing (default 1)",
            "  --fraction  the memory limit as a fraction of the query's peak memory without limit (default 0.1)",
            "  --queries   comma-separated: aggregate, join, orders-join, sort, window, window-total (default all six)",
            "  --compression  codec of Ontul's spill files: none, lz4 or zstd (default: the engine's, lz4)",
            "  --join-compression  codec of a spilled hash join's partitions: none, lz4 or zstd (default: the engine's, none)",
            "  --out       markdown file the results are appended to, or none (default bench/RESULTS.md)",
            "  --timeout   seconds one run may take before it is cancelled and its case reported FAILED (default 600)");

    private final double scale;
    private final int runs;
    private final int warmups;
    private final double fraction;
    private final List<String> queries;
    private final Optional<Path> out;
    private final Duration timeout;
    private final Optional<String> compression;
    private final Optional<String> joinCompression;

    private SpillBenchmarkOptions(double scale, int runs, int warmups, double fraction, List<String> queries, Optional<Path> out, Duration timeout, Optional<String> compression,
            Optional<String> joinCompression)
    {
        this.scale = scale;
        this.runs = runs;
        this.warmups = warmups;
        this.fraction = fraction;
        this.queries = List.copyOf(requireNonNull(queries, "queries is null"));
        this.out = requireNonNull(out, "out is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.compression = requireNonNull(compression, "compression is null");
        this.joinCompression = requireNonNull(joinCompression, "joinCompression is null");
    }

    /** Parses the arguments; throws IllegalArgumentException with a message for the user. */
    public static SpillBenchmarkOptions parse(String[] args)
    {
        double scale = 1;
        int runs = 3;
        int warmups = 1;
        double fraction = 0.1;
        List<String> queries = new ArrayList<>(SpillQuery.NAMES);
        Optional<Path> out = Optional.of(Path.of("bench", "RESULTS.md"));
        int timeoutSeconds = 600;
        Optional<String> compression = Optional.empty();
        Optional<String> joinCompression = Optional.empty();
        for (int index = 0; index < args.length; index++) {
            String option = args[index];
            switch (option) {
                case "--scale" -> scale = positiveNumber(value(args, ++index, option), option);
                case "--runs" -> runs = integer(value(args, ++index, option), option, 1);
                case "--warmup" -> warmups = integer(value(args, ++index, option), option, 0);
                case "--fraction" -> {
                    fraction = positiveNumber(value(args, ++index, option), option);
                    if (fraction >= 1) {
                        throw new IllegalArgumentException("--fraction must be below 1: " + fraction);
                    }
                }
                case "--queries" -> {
                    queries.clear();
                    for (String name : value(args, ++index, option).split(",")) {
                        if (!name.isBlank()) {
                            if (!SpillQuery.NAMES.contains(name.trim())) {
                                throw new IllegalArgumentException("Unknown query " + name + "; known: " + String.join(",", SpillQuery.NAMES));
                            }
                            queries.add(name.trim());
                        }
                    }
                }
                case "--out" -> {
                    String path = value(args, ++index, option);
                    out = path.equals("none") ? Optional.empty() : Optional.of(Path.of(path));
                }
                case "--timeout" -> timeoutSeconds = integer(value(args, ++index, option), option, 1);
                case "--compression" -> compression = Optional.of(codec(value(args, ++index, option), option));
                case "--join-compression" -> joinCompression = Optional.of(codec(value(args, ++index, option), option));
                default -> throw new IllegalArgumentException("Unknown option: " + option);
            }
        }
        return new SpillBenchmarkOptions(scale, runs, warmups, fraction, queries, out, Duration.ofSeconds(timeoutSeconds), compression, joinCompression);
    }

    public double scale()
    {
        return scale;
    }

    /** The schema of Ontul's tpch catalog for this scale: sf1, sf0_1, ... */
    public String tpchSchema()
    {
        return TpchSchemaNames.of(scale);
    }

    public int runs()
    {
        return runs;
    }

    public int warmups()
    {
        return warmups;
    }

    public double fraction()
    {
        return fraction;
    }

    public List<String> queries()
    {
        return queries;
    }

    public Optional<Path> out()
    {
        return out;
    }

    public Duration timeout()
    {
        return timeout;
    }

    /** The spill files' codec for both Ontul engines; empty for the engine's default. */
    public Optional<String> compression()
    {
        return compression;
    }

    /** A spilled hash join's partitions' codec for both Ontul engines; empty for the engine's default. */
    public Optional<String> joinCompression()
    {
        return joinCompression;
    }

    private static String codec(String codec, String option)
    {
        if (!List.of("none", "lz4", "zstd").contains(codec)) {
            throw new IllegalArgumentException(option + " must be none, lz4 or zstd: " + codec);
        }
        return codec;
    }

    static String value(String[] args, int index, String option)
    {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    static double positiveNumber(String text, String option)
    {
        try {
            double value = Double.parseDouble(text);
            if (value > 0) {
                return value;
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a positive number, not: " + text);
    }

    static int integer(String text, String option, int minimum)
    {
        try {
            int value = Integer.parseInt(text);
            if (value >= minimum) {
                return value;
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be an integer of at least " + minimum + ", not: " + text);
    }
}
