package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/** Command-line options of {@link FlightStreamBenchmark}. */
public final class FlightStreamOptions
{
    public static final String USAGE = String.join(System.lineSeparator(),
            "usage: FlightStreamBenchmark [--scale 1|tiny|N] [--runs 5] [--warmup 2] [--jdbc true|false] [--out bench/RESULTS.md|none]",
            "  --scale    TPC-H scale factor of the lineitem table streamed; tiny is 0.01 (default 1)",
            "  --runs     timed runs of each case; the median counts (default 5)",
            "  --warmup   untimed runs of each case before timing (default 2)",
            "  --jdbc     true: read the memory table through JDBC instead (the project's driver, the same with",
            "             arrowResults=true, Arrow's Flight SQL JDBC driver; every column with its typed getter),",
            "             against FlightSqlClient reading the same stream into vectors (default false)",
            "  --out      markdown file the results are appended to, or none (default bench/RESULTS.md)");

    private final String schema;
    private final int runs;
    private final int warmups;
    private final Optional<Path> out;
    private final boolean jdbc;

    private FlightStreamOptions(String schema, int runs, int warmups, Optional<Path> out, boolean jdbc)
    {
        this.jdbc = jdbc;
        this.schema = requireNonNull(schema, "schema is null");
        this.runs = runs;
        this.warmups = warmups;
        this.out = requireNonNull(out, "out is null");
    }

    /** Parses the arguments; throws IllegalArgumentException with a message for the user. */
    public static FlightStreamOptions parse(String[] args)
    {
        String schema = "sf1";
        int runs = 5;
        int warmups = 2;
        Optional<Path> out = Optional.of(Path.of("bench", "RESULTS.md"));
        boolean jdbc = false;
        for (int index = 0; index < args.length; index++) {
            String option = args[index];
            if (index + 1 >= args.length) {
                throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value" : "Unknown option: " + option);
            }
            String value = args[++index];
            switch (option) {
                case "--scale":
                    schema = schemaName(value);
                    break;
                case "--runs":
                    runs = atLeast(value, option, 1);
                    break;
                case "--warmup":
                    warmups = atLeast(value, option, 0);
                    break;
                case "--jdbc":
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new IllegalArgumentException("--jdbc must be true or false, not: " + value);
                    }
                    jdbc = value.equals("true");
                    break;
                case "--out":
                    out = value.equals("none") ? Optional.empty() : Optional.of(Path.of(value));
                    break;
                default:
                    throw new IllegalArgumentException("Unknown option: " + option);
            }
        }
        return new FlightStreamOptions(schema, runs, warmups, out, jdbc);
    }

    /** The schema of Ontul's tpch catalog: tiny, sf1, sf10, ... */
    public String schema()
    {
        return schema;
    }

    public int runs()
    {
        return runs;
    }

    public int warmups()
    {
        return warmups;
    }

    public Optional<Path> out()
    {
        return out;
    }

    /** Whether the JDBC drivers are measured (instead of the Flight streams). */
    public boolean jdbc()
    {
        return jdbc;
    }

    private static String schemaName(String text)
    {
        if (text.equals("tiny")) {
            return text;
        }
        try {
            double scale = Double.parseDouble(text);
            if (scale > 0) {
                return TpchSchemaNames.of(scale);
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("--scale must be tiny or a positive number, not: " + text);
    }

    private static int atLeast(String text, String option, int minimum)
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
