package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Command-line options of {@link TpchBenchmark}. */
public final class BenchmarkOptions
{
    public static final String USAGE = String.join(System.lineSeparator(),
            "usage: TpchBenchmark [--scale 1|tiny|N] [--runs 3] [--warmup 1] [--queries q01,q05] [--out bench/RESULTS.md|none] [--check] [--timeout 300]",
            "  --scale    scale factor; tiny is 0.01 (default 1)",
            "  --runs     timed runs per query and engine; the best one counts (default 3)",
            "  --warmup   untimed runs per query and engine before timing (default 1)",
            "  --queries  comma-separated query names (default all: q01..q22 for TPC-H, q01..q99 with q14a/q14b, q23a/b, q24a/b, q39a/b for TPC-DS)",
            "  --out      markdown file the results are appended to, or none (default bench/RESULTS.md)",
            "  --check    also compare each query's result between the engines",
            "  --timeout  seconds one run of a query may take before it is cancelled and reported FAILED (default 300)");

    private final String scaleName;
    private final double scale;
    private final int runs;
    private final int warmups;
    private final List<String> queries;
    private final Optional<Path> out;
    private final boolean check;
    private final Duration timeout;

    private BenchmarkOptions(String scaleName, double scale, int runs, int warmups, List<String> queries, Optional<Path> out, boolean check, Duration timeout)
    {
        this.scaleName = requireNonNull(scaleName, "scaleName is null");
        this.scale = scale;
        this.runs = runs;
        this.warmups = warmups;
        this.queries = List.copyOf(requireNonNull(queries, "queries is null"));
        this.out = requireNonNull(out, "out is null");
        this.check = check;
        this.timeout = requireNonNull(timeout, "timeout is null");
    }

    /** Parses the arguments; throws IllegalArgumentException with a message for the user. */
    public static BenchmarkOptions parse(String[] args)
    {
        String scaleText = "1";
        int runs = 3;
        int warmups = 1;
        List<String> queries = new ArrayList<>();
        Optional<Path> out = Optional.of(Path.of("bench", "RESULTS.md"));
        boolean check = false;
        int timeoutSeconds = 300;
        for (int index = 0; index < args.length; index++) {
            String option = args[index];
            switch (option) {
                case "--scale":
                    scaleText = value(args, ++index, option);
                    break;
                case "--runs":
                    runs = positive(value(args, ++index, option), option, 1);
                    break;
                case "--warmup":
                    warmups = positive(value(args, ++index, option), option, 0);
                    break;
                case "--queries":
                    for (String name : value(args, ++index, option).split(",")) {
                        if (!name.isBlank()) {
                            queries.add(queryName(name.trim()));
                        }
                    }
                    break;
                case "--out":
                    String path = value(args, ++index, option);
                    out = path.equals("none") ? Optional.empty() : Optional.of(Path.of(path));
                    break;
                case "--check":
                    check = true;
                    break;
                case "--timeout":
                    timeoutSeconds = positive(value(args, ++index, option), option, 1);
                    break;
                default:
                    throw new IllegalArgumentException("Unknown option: " + option);
            }
        }
        double scale = scaleText.equals("tiny") ? 0.01 : parseScale(scaleText);
        return new BenchmarkOptions(schemaName(scaleText, scale), scale, runs, warmups, queries, out, check, Duration.ofSeconds(timeoutSeconds));
    }

    /** The schema of Ontul's tpch catalog for this scale: tiny, sf1, sf10, ... */
    public String scaleName()
    {
        return scaleName;
    }

    public double scale()
    {
        return scale;
    }

    public int runs()
    {
        return runs;
    }

    public int warmups()
    {
        return warmups;
    }

    /** The queries to run; empty means all. */
    public List<String> queries()
    {
        return queries;
    }

    public Optional<Path> out()
    {
        return out;
    }

    public boolean check()
    {
        return check;
    }

    /** How long one run of a query may take before it is cancelled and counted as failed. */
    public Duration timeout()
    {
        return timeout;
    }

    private static String schemaName(String text, double scale)
    {
        if (text.equals("tiny")) {
            return "tiny";
        }
        return TpchSchemaNames.of(scale);
    }

    private static double parseScale(String text)
    {
        try {
            double scale = Double.parseDouble(text);
            if (scale > 0) {
                return scale;
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("--scale must be tiny or a positive number, not: " + text);
    }

    private static String queryName(String name)
    {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.matches("q?[0-9]+")) {
            return String.format("q%02d", Integer.parseInt(lower.replace("q", "")));
        }
        return lower;
    }

    private static String value(String[] args, int index, String option)
    {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int positive(String text, String option, int minimum)
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
